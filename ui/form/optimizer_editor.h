// OptimizerEditor: a checkable group box for one DP optimizer of the comparison, with the grid of
// each hyperparameter it uses (α, C, momentum m, β1, β2; count for random search). Edits an
// engine experiment::OptimizerConfig; which fields exist follows the paper's appendix A / J:
// DPSGD (α, C), DPMomentum (+ m), DPAdam (+ β1, β2), ADADP (initial α, C), DPAdamWOSM (C, β1; its
// step size is fixed to α/(σC/L + ξ), Theorem 3), DP-AdamBC (+ β1, β2, γ' the floor of
// max(v̂ − Φ, γ')). An editor for automatic clipping (Bu et al. 2023) has no C grid (C is 1, the
// sensitivity: experiment::entry_takes) and a γ field instead.
#pragma once

#include <QGroupBox>

#include "experiment/experiment_config.h"

class QSpinBox;

namespace dplab::ui {

class GridField;
class NumberField;

class OptimizerEditor : public QGroupBox {
  Q_OBJECT
 public:
  explicit OptimizerEditor(optim::OptimizerKind kind,
                           models::ClippingMode clipping = models::ClippingMode::kFlat,
                           QWidget* parent = nullptr);

  optim::OptimizerKind kind() const { return kind_; }
  models::ClippingMode clipping() const { return clipping_; }
  static QString displayName(optim::OptimizerKind kind);
  // The entry's name: displayName(kind), "· auto clip" after it under automatic clipping.
  static QString displayName(const experiment::OptimizerConfig& entry);

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
  models::ClippingMode clipping_;
  GridField* fields_[experiment::kNumParams] = {};
  NumberField* stability_ = nullptr;  // γ of automatic clipping
  QSpinBox* count_ = nullptr;
};

}  // namespace dplab::ui
