#include "chart_series/parallel_coordinates.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tuning/honest_selection.h"
#include "tuning/winners.h"

namespace dplab::tuning {
namespace {

using experiment::Param;
using experiment::ParamSpec;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The order: alpha, C, beta1, beta2, m.
constexpr Param kAxes[] = {Param::kLearningRate, Param::kClip, Param::kBeta1, Param::kBeta2,
                           Param::kMomentum};

// Whether the experiment samples `p` log-spaced for some optimizer that has it.
bool log_spaced_in_config(const experiment::ExperimentConfig& config, Param p) {
  for (const auto& o : config.optimizers) {
    if (!experiment::optimizer_takes(o.kind, p)) continue;
    const auto& spec = o.grid[static_cast<int>(p)];
    if (!spec) continue;
    if (spec->kind == ParamSpec::Kind::kLog10Grid || spec->kind == ParamSpec::Kind::kLogUniform)
      return true;
    if (spec->kind == ParamSpec::Kind::kValues && is_geometric(spec->values)) return true;
  }
  return false;
}

void set_range(ParallelAxis& axis) {
  bool any = false;
  bool positive = true;
  for (double v : axis.values) {
    if (!std::isfinite(v)) continue;
    axis.low = any ? std::min(axis.low, v) : v;
    axis.high = any ? std::max(axis.high, v) : v;
    positive = positive && v > 0;
    any = true;
  }
  if (!positive) axis.log = false;
}

}  // namespace

bool is_geometric(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.size() < 3 || !(values.front() > 0)) return false;
  const double ratio = values[1] / values[0];
  for (std::size_t i = 2; i < values.size(); ++i) {
    if (std::abs(values[i] / values[i - 1] - ratio) > 1e-6 * ratio) return false;
  }
  return true;
}

double axis_fraction(const ParallelAxis& axis, double value) {
  if (!std::isfinite(value)) return kNaN;
  if (!(axis.high > axis.low)) return 0.5;
  if (axis.log) {
    return (std::log10(value) - std::log10(axis.low)) /
           (std::log10(axis.high) - std::log10(axis.low));
  }
  return (value - axis.low) / (axis.high - axis.low);
}

ParallelCoordinates parallel_coordinates(const SearchResults& results) {
  ParallelCoordinates pc;
  pc.regression = results.is_regression;
  std::vector<int> all(results.candidates.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  const std::vector<int> winners = winners_per_optimizer(results);
  std::vector<double> scores;
  for (const CandidateScore& s : score_candidates(results, all)) {
    const auto& cand = results.candidates[static_cast<std::size_t>(s.candidate)];
    pc.candidates.push_back(s.candidate);
    pc.optimizer_index.push_back(cand.optimizer_index);
    pc.winner.push_back(winners[static_cast<std::size_t>(cand.optimizer_index)] == s.candidate);
    scores.push_back(s.metric());
  }
  for (Param p : kAxes) {
    ParallelAxis axis;
    axis.name = experiment::param_name(p);
    bool any = false;
    for (int c : pc.candidates) {
      const auto& cand = results.candidates[static_cast<std::size_t>(c)];
      const bool has = experiment::optimizer_takes(cand.optimizer.kind, p);
      axis.values.push_back(has ? cand.value(p) : kNaN);
      any = any || has;
    }
    if (!any) continue;
    axis.log = log_spaced_in_config(results.config, p);
    set_range(axis);
    pc.axes.push_back(std::move(axis));
  }
  ParallelAxis score;
  score.name = results.is_regression ? "final validation MSE" : "accuracy";
  score.is_score = true;
  score.values = scores;
  set_range(score);
  pc.axes.push_back(std::move(score));
  return pc;
}

}  // namespace dplab::tuning
