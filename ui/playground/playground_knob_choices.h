// The rows of the Playground's knob combo boxes (issue #27), shared by the panel that fills them
// (playground_window_panels.cpp) and the window that reads and writes the settings through them
// (playground_window.cpp).
#pragma once

#include <vector>

#include "playground/playground_session.h"

namespace dplab::ui::playground_knobs {

// Model choices: hidden layer widths, one per row of the model combo box.
inline const std::vector<std::vector<int>> kModels = {{}, {4}, {8}, {4, 4}, {8, 8}};

// Optimizer combo rows: the three fixed-C DP optimizers (in OptimizerChoice order), the
// non-private baseline, adaptive C, DP-AdamBC.
inline constexpr int kNonPrivateRow = 3;
inline constexpr int kAdaptiveRow = 4;
inline constexpr int kAdamBcRow = 5;

inline int optimizer_row(const playground::TrainingOptions& t) {
  if (!t.is_private) return kNonPrivateRow;
  if (t.optimizer == playground::OptimizerChoice::kFixedQuantile) return kAdaptiveRow;
  if (t.optimizer == playground::OptimizerChoice::kDpAdamBc) return kAdamBcRow;
  return static_cast<int>(t.optimizer);
}

// The row's optimizer (the non-private row trains DPSGD's update with sigma = 0).
inline playground::OptimizerChoice optimizer_of_row(int row) {
  if (row == kNonPrivateRow) return playground::OptimizerChoice::kDpSgd;
  if (row == kAdaptiveRow) return playground::OptimizerChoice::kFixedQuantile;
  if (row == kAdamBcRow) return playground::OptimizerChoice::kDpAdamBc;
  return static_cast<playground::OptimizerChoice>(row);
}

}  // namespace dplab::ui::playground_knobs
