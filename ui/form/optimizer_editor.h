// OptimizerEditor: a checkable group box for one DP optimizer of the comparison, with the grid of
// each hyperparameter it uses (α, C, momentum m, β1, β2; count for random search). Edits an
// engine experiment::OptimizerConfig; which fields exist follows the paper's appendix A / J:
// DPSGD (α, C), DPMomentum (+ m), DPAdam (+ β1, β2), ADADP (initial α, C), DPAdamWOSM (C, β1; its
// step size is fixed to α/(σC/L + ξ), Theorem 3).
#pragma once

#include <QGroupBox>

#include "experiment/experiment_config.h"

class QSpinBox;

namespace dplab::ui {

class GridField;

class OptimizerEditor : public QGroupBox {
  Q_OBJECT
 public:
  explicit OptimizerEditor(optim::OptimizerKind kind, QWidget* parent = nullptr);

  optim::OptimizerKind kind() const { return kind_; }
  static QString displayName(optim::OptimizerKind kind);

  void setConfig(const experiment::OptimizerConfig& config);
  experiment::OptimizerConfig config() const;
  // First problem found ("DPSGD α: empty grid…"), empty when valid or unchecked.
  QString error() const;
  QStringList errors() const;  // every problem, one per field
  // Random search draws `count` candidates per optimizer; the field is only enabled then.
  void setRandomSearch(bool random);

 signals:
  void edited();

 private:
  GridField* addGrid(experiment::Param param, const QString& label, const QString& help,
                     bool required);

  optim::OptimizerKind kind_;
  GridField* fields_[experiment::kNumParams] = {};
  QSpinBox* count_ = nullptr;
};

}  // namespace dplab::ui
