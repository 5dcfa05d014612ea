// The α ∝ 1/C line of main paper Theorem 2 fitted to an α–C grid (Figure 2): when clipping is
// active, DPSGD's update is α·C times a unit-norm direction plus noise of std α·σ·C/L, so good
// (α, C) pairs lie on a band α·C = k. The band's constant k is fitted to the best cells: the
// `fraction` of finite cells with the best metric (lowest final training loss, or highest final
// accuracy), at least 3, and k = the median of their α·C (a median in log space: robust to the
// few best cells of the unclipped regime, where α alone matters).
#pragma once

#include "tuning/aggregates.h"

namespace dplab::tuning {

enum class GridMetric { kFinalTrainLoss, kFinalAccuracy, kTimesBest };

struct InverseClipFit {
  double product = 0;  // k in α = k / C; 0 when the grid has fewer than 2 α or 2 C values
  int cells_used = 0;
};

InverseClipFit fit_inverse_clip_line(const AlphaClipGrid& grid, GridMetric metric,
                                     double fraction = 0.1);

// The cell's value for a metric (NaN where no finished candidate sits).
double grid_value(const AlphaClipGrid& grid, std::size_t cell, GridMetric metric);
bool lower_is_better(GridMetric metric);

}  // namespace dplab::tuning
