// Per-candidate C_t (and rho_t) curves of the adaptive optimizers (see clip_curves.h).
#include "chart_series/clip_curves.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dplab::tuning {

bool adapts_clip(optim::OptimizerKind kind) {
  return kind == optim::OptimizerKind::kOsoDpSgd || kind == optim::OptimizerKind::kFixedQuantile;
}

std::vector<ClipCurve> adaptive_clip_curves(const SearchResults& results) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  std::vector<ClipCurve> curves;
  const int repeats = std::max(1, results.config.repeats);
  for (const auto& cand : results.candidates) {
    if (!adapts_clip(cand.optimizer.kind)) continue;
    const bool has_rate = cand.optimizer.kind == optim::OptimizerKind::kOsoDpSgd;
    ClipCurve curve;
    curve.candidate = cand.index;
    curve.optimizer_index = cand.optimizer_index;
    curve.kind = cand.optimizer.kind;
    curve.label = cand.label();
    // Sums of logs per point index over the repeats that reached it.
    std::vector<double> log_clip, log_rate;
    std::vector<int> count, rate_count;
    for (int r = 0; r < repeats; ++r) {
      const std::size_t j = static_cast<std::size_t>(cand.index * repeats + r);
      if (j >= results.jobs.size()) continue;
      const auto& points = results.jobs[j].curve;
      for (std::size_t k = 0; k < points.size(); ++k) {
        const auto& p = points[k];
        if (!(std::isfinite(p.clip) && p.clip > 0)) continue;
        if (k >= count.size()) {
          log_clip.resize(k + 1, 0.0);
          log_rate.resize(k + 1, 0.0);
          count.resize(k + 1, 0);
          rate_count.resize(k + 1, 0);
          curve.iterations.resize(k + 1, p.iteration);
        }
        curve.iterations[k] = p.iteration;
        log_clip[k] += std::log(p.clip);
        ++count[k];
        if (has_rate && std::isfinite(p.step_size) && p.step_size > 0) {
          log_rate[k] += std::log(p.step_size);
          ++rate_count[k];
        }
      }
    }
    for (std::size_t k = 0; k < count.size(); ++k) {
      if (count[k] == 0) continue;
      // Compact: keep only indices some repeat reached with a recorded C.
      curve.clip.push_back(std::exp(log_clip[k] / count[k]));
      curve.learning_rate.push_back(rate_count[k] > 0 ? std::exp(log_rate[k] / rate_count[k])
                                                      : kNaN);
      curve.repeats.push_back(count[k]);
      curve.iterations[curve.clip.size() - 1] = curve.iterations[k];
    }
    curve.iterations.resize(curve.clip.size());
    if (!curve.clip.empty()) curves.push_back(std::move(curve));
  }
  return curves;
}

}  // namespace dplab::tuning
