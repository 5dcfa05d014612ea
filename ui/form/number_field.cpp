#include "form/number_field.h"

#include <cmath>

#include "charts/chart_export.h"

namespace dplab::ui {

void markField(QWidget* widget, const QString& help, const QString& error) {
  if (error.isEmpty()) {
    widget->setStyleSheet(QString());
    widget->setToolTip(help);
  } else {
    widget->setStyleSheet(QStringLiteral("border: 2px solid #d32f2f; border-radius: 2px;"));
    widget->setToolTip(help + QStringLiteral("\n\n⚠ ") + error);
  }
}

NumberField::NumberField(const QString& help, Rule rule, QWidget* parent)
    : QLineEdit(parent), help_(help), rule_(std::move(rule)) {
  setToolTip(help_);
  connect(this, &QLineEdit::textChanged, this, [this] {
    revalidate();
    emit edited();
  });
}

void NumberField::setAllowEmpty(bool allow, const QString& placeholder) {
  allow_empty_ = allow;
  setPlaceholderText(placeholder);
  revalidate();
}

void NumberField::setValue(double value) {
  setText(formatNumber(value));
}

void NumberField::setOptionalValue(std::optional<double> value) {
  setText(value ? formatNumber(*value) : QString());
}

std::optional<double> NumberField::value() const {
  bool ok = false;
  const double v = text().trimmed().toDouble(&ok);
  if (!ok) return std::nullopt;
  return v;
}

bool NumberField::revalidate() {
  const QString t = text().trimmed();
  QString error;
  if (t.isEmpty()) {
    if (!allow_empty_) error = tr("a value is required");
  } else {
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
      error = tr("'%1' is not a number").arg(t);
    } else if (rule_) {
      error = rule_(v);
    }
  }
  error_ = error;
  markField(this, help_, error_);
  return error_.isEmpty();
}

NumberField::Rule NumberField::positive() {
  return [](double v) { return v > 0 ? QString() : tr("must be > 0"); };
}

NumberField::Rule NumberField::atLeast(double lo) {
  return [lo](double v) { return v >= lo ? QString() : tr("must be ≥ %1").arg(formatNumber(lo)); };
}

NumberField::Rule NumberField::openInterval(double lo, double hi) {
  return [lo, hi](double v) {
    return (v > lo && v < hi)
               ? QString()
               : tr("must be strictly between %1 and %2").arg(formatNumber(lo), formatNumber(hi));
  };
}

NumberField::Rule NumberField::halfOpenInterval(double lo, double hi) {
  return [lo, hi](double v) {
    return (v >= lo && v < hi) ? QString()
                               : tr("must be in [%1, %2)").arg(formatNumber(lo), formatNumber(hi));
  };
}

NumberField::Rule NumberField::positiveInteger() {
  return [](double v) {
    return (v >= 1 && std::floor(v) == v) ? QString() : tr("must be a whole number ≥ 1");
  };
}

}  // namespace dplab::ui
