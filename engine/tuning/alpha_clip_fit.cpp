#include "tuning/alpha_clip_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace dplab::tuning {

double grid_value(const AlphaClipGrid& grid, std::size_t cell, GridMetric metric) {
  switch (metric) {
    case GridMetric::kFinalTrainLoss:
      return grid.final_train_loss.at(cell);
    case GridMetric::kFinalAccuracy:
      return grid.final_accuracy.at(cell);
    case GridMetric::kTimesBest:
      return static_cast<double>(grid.times_best.at(cell));
  }
  return std::numeric_limits<double>::quiet_NaN();
}

bool lower_is_better(GridMetric metric) {
  return metric == GridMetric::kFinalTrainLoss;
}

InverseClipFit fit_inverse_clip_line(const AlphaClipGrid& grid, GridMetric metric,
                                     double fraction) {
  InverseClipFit fit;
  if (grid.learning_rates.size() < 2 || grid.clips.size() < 2) return fit;
  struct Cell {
    double value;
    double log_product;
  };
  std::vector<Cell> cells;
  for (std::size_t l = 0; l < grid.learning_rates.size(); ++l) {
    for (std::size_t c = 0; c < grid.clips.size(); ++c) {
      const double v = grid_value(grid, grid.cell(l, c), metric);
      if (!std::isfinite(v)) continue;
      cells.push_back(
          {lower_is_better(metric) ? v : -v, std::log(grid.learning_rates[l] * grid.clips[c])});
    }
  }
  if (cells.empty()) return fit;
  std::sort(cells.begin(), cells.end(),
            [](const Cell& a, const Cell& b) { return a.value < b.value; });
  const std::size_t n = std::min(
      cells.size(),
      std::max<std::size_t>(3, static_cast<std::size_t>(std::ceil(fraction * cells.size()))));
  std::vector<double> logs;
  for (std::size_t i = 0; i < n; ++i) logs.push_back(cells[i].log_product);
  std::sort(logs.begin(), logs.end());
  const double median = n % 2 ? logs[n / 2] : 0.5 * (logs[n / 2 - 1] + logs[n / 2]);
  fit.product = std::exp(median);
  fit.cells_used = static_cast<int>(n);
  return fit;
}

}  // namespace dplab::tuning
