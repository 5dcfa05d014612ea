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
// non-private baseline, adaptive C.
inline constexpr int kNonPrivateRow = 3;
inline constexpr int kAdaptiveRow = 4;

inline int optimizer_row(const playground::TrainingOptions& t) {
  if (!t.is_private) return kNonPrivateRow;
  if (t.optimizer == playground::OptimizerChoice::kFixedQuantile) return kAdaptiveRow;
  return static_cast<int>(t.optimizer);
}

}  // namespace dplab::ui::playground_knobs
