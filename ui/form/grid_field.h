// GridField: a line edit for one hyperparameter's search spec in the engine's text grammar
// (experiment/param_text.h: "0.001, 0.01", "logspace(-4, -1, 4)", "uniform(a, b)",
// "loguniform(a, b)"). Parsing and the value checks (C > 0, β ∈ [0, 1), …) are the engine's,
// the same as for an experiment file; the field only marks itself with the engine's message.
#pragma once

#include <QLineEdit>
#include <optional>

#include "experiment/experiment_config.h"

namespace dplab::ui {

class GridField : public QLineEdit {
  Q_OBJECT
 public:
  GridField(const QString& help, experiment::Param param, bool required, QWidget* parent = nullptr);

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
  experiment::Param param_;
  bool required_;
  QString error_;
  std::optional<experiment::ParamSpec> spec_;
};

}  // namespace dplab::ui
