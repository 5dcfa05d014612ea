// GridField: the text form of one hyperparameter's search spec (engine experiment::ParamSpec):
//   "0.001, 0.01, 0.1"       a list of values
//   "logspace(-4, -1, 4)"    4 values 10^-4 … 10^-1 (log10 exponents, as the JSON "log10")
//   "uniform(0.8, 0.99)"     random search: uniform draws
//   "loguniform(1e-4, 1)"    random search: log-uniform draws
// Each value is checked against the hyperparameter's rule (e.g. C > 0, β ∈ [0, 1)).
#pragma once

#include <QLineEdit>
#include <functional>
#include <optional>

#include "experiment/experiment_config.h"

namespace dplab::ui {

// Parses the text; on failure returns nullopt and sets *error.
std::optional<experiment::ParamSpec> parseParamSpec(const QString& text, QString* error);
QString formatParamSpec(const experiment::ParamSpec& spec);

class GridField : public QLineEdit {
  Q_OBJECT
 public:
  using ValueRule = std::function<QString(double)>;  // empty = valid
  GridField(const QString& help, ValueRule rule, bool required, QWidget* parent = nullptr);

  void setSpec(const std::optional<experiment::ParamSpec>& spec);
  std::optional<experiment::ParamSpec> spec() const;  // nullopt when empty or invalid
  bool valid() const { return error_.isEmpty(); }
  QString error() const { return error_; }
  bool revalidate();
  void setDefaultText(const QString& text) { setPlaceholderText(text); }

 signals:
  void edited();

 private:
  QString help_;
  ValueRule rule_;
  bool required_;
  QString error_;
};

}  // namespace dplab::ui
