// NumberField: a line edit for one number with a rule. Typing "1e-5" works; an invalid value is
// marked at the field (red frame) and the reason is appended to the field's tooltip. The owner
// reads valid()/value() and listens to edited() to re-validate the form.
#pragma once

#include <QLineEdit>
#include <functional>
#include <optional>

namespace dplab::ui {

class NumberField : public QLineEdit {
  Q_OBJECT
 public:
  // rule: returns an empty string when the value is acceptable, else the reason.
  using Rule = std::function<QString(double)>;
  NumberField(const QString& help, Rule rule, QWidget* parent = nullptr);

  // An empty field is valid (value() = nullopt) when allow_empty; e.g. "δ: empty = 1/n".
  void setAllowEmpty(bool allow, const QString& placeholder = QString());
  void setValue(double value);
  void setOptionalValue(std::optional<double> value);
  std::optional<double> value() const;
  bool valid() const { return error_.isEmpty(); }
  QString error() const { return error_; }
  // Re-checks the text (e.g. after the rule's context changed); true when valid.
  bool revalidate();

  // Shared rules.
  static Rule positive();
  static Rule atLeast(double lo);
  static Rule openInterval(double lo, double hi);
  static Rule halfOpenInterval(double lo, double hi);  // [lo, hi)
  static Rule positiveInteger();

 signals:
  void edited();

 private:
  QString help_;
  Rule rule_;
  bool allow_empty_ = false;
  QString error_;
};

// Marks a widget invalid (red frame, reason in the tooltip) or valid (help tooltip only).
void markField(QWidget* widget, const QString& help, const QString& error);

}  // namespace dplab::ui
