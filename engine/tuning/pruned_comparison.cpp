// Section 5.2's pruning and equal-cost comparison (see pruned_comparison.h).
#include "tuning/pruned_comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/error.h"
#include "core/mean_interval.h"
#include "core/random.h"
#include "experiment/experiment_config.h"
#include "tuning/aggregates.h"
#include "tuning/best_of_k.h"

namespace dplab::tuning {
namespace {

constexpr std::uint64_t kSideStream = 0x3532;  // "52"

// The finished repeats' final validation accuracies of each candidate in `pool` that has one.
std::vector<std::vector<double>> finished_accuracies(const SearchResults& results,
                                                     const std::vector<int>& pool) {
  std::vector<std::vector<double>> out;
  for (int c : pool) {
    std::vector<double> runs;
    for (int r = 0; r < results.config.repeats; ++r) {
      const JobResult& job = results.job(c, r);
      if (job.status == JobStatus::kFinished) runs.push_back(job.final_val_accuracy);
    }
    if (!runs.empty()) out.push_back(std::move(runs));
  }
  return out;
}

BestOfKSide draw_side(const SearchResults& results, const std::string& label,
                      const std::vector<int>& pool, int k, int draws, std::uint64_t seed) {
  if (k < 1) throw InvalidArgument("section 5.2: k = " + std::to_string(k) + " must be >= 1");
  const auto runs = finished_accuracies(results, pool);
  if (runs.empty())
    throw InvalidArgument("section 5.2: no finished run among the candidates of " + label);
  BestOfKSide side;
  side.label = label;
  side.pool = pool;
  side.k = std::min<int>(k, static_cast<int>(runs.size()));
  Rng rng(seed);
  std::vector<std::size_t> order(runs.size());
  double sum = 0, sum_sq = 0;
  for (int t = 0; t < draws; ++t) {
    // Partial Fisher-Yates: the first k entries are a uniform k-subset.
    std::iota(order.begin(), order.end(), std::size_t{0});
    double best = -1;
    for (int i = 0; i < side.k; ++i) {
      const std::size_t j = static_cast<std::size_t>(i) + rng.below(order.size() - i);
      std::swap(order[static_cast<std::size_t>(i)], order[j]);
      const auto& repeats = runs[order[static_cast<std::size_t>(i)]];
      best = std::max(best, repeats[rng.below(repeats.size())]);
    }
    sum += best;
    sum_sq += best * best;
  }
  side.mean = sum / draws;
  side.sd = std::sqrt(std::max(0.0, (sum_sq - draws * side.mean * side.mean) / (draws - 1)));
  const double half = kZ95 * side.sd / std::sqrt(static_cast<double>(draws));
  side.ci_low = side.mean - half;
  side.ci_high = side.mean + half;
  return side;
}

// Same (alpha, C) cell: the values come from the same JSON text, so equal up to rounding.
bool same_value(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(a));
}

}  // namespace

double student_t_975(int df) {
  if (df < 1) throw InvalidArgument("t quantile: df = " + std::to_string(df) + " must be >= 1");
  static constexpr double kTable[] = {12.7062047, 4.30265273, 3.18244631, 2.77644511, 2.57058184,
                                      2.44691185, 2.36462425, 2.30600414, 2.26215716, 2.22813885,
                                      2.20098516, 2.17881283, 2.16036866, 2.14478669, 2.13144955,
                                      2.11990530, 2.10981558, 2.10092204, 2.09302405, 2.08596345,
                                      2.07961384, 2.07387307, 2.06865761, 2.06389856, 2.05953855,
                                      2.05552944, 2.05183052, 2.04840714, 2.04522964, 2.04227246};
  if (df <= 30) return kTable[df - 1];
  // Cornish-Fisher expansion of t in powers of 1/df around the normal quantile z.
  const double z = kZ95, v = df, z2 = z * z;
  const double g1 = (z2 + 1) * z / 4;
  const double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  const double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  return z + g1 / v + g2 / (v * v) + g3 / (v * v * v);
}

RepeatSpread repeat_spread(const SearchResults& results, const std::vector<int>& pool, int k) {
  if (results.is_regression)
    throw InvalidArgument("section 5.2 needs a classification search (accuracy)");
  if (k < 1) throw InvalidArgument("section 5.2: k = " + std::to_string(k) + " must be >= 1");
  RepeatSpread out;
  int with_runs = 0;
  for (int c : pool) {
    for (int r = 0; r < results.config.repeats; ++r) {
      if (results.job(c, r).status == JobStatus::kFinished) {
        ++with_runs;
        break;
      }
    }
  }
  if (with_runs == 0) throw InvalidArgument("section 5.2: no finished run in the pool");
  out.k = std::min(k, with_runs);
  for (int r = 0; r < results.config.repeats; ++r) {
    std::vector<double> values;
    for (int c : pool) {
      const JobResult& job = results.job(c, r);
      if (job.status == JobStatus::kFinished) values.push_back(job.final_val_accuracy);
    }
    if (values.empty()) continue;
    out.per_repeat.push_back(
        expected_best_of_k(values, std::min(out.k, static_cast<int>(values.size()))));
  }
  const auto n = static_cast<double>(out.per_repeat.size());
  out.mean = std::accumulate(out.per_repeat.begin(), out.per_repeat.end(), 0.0) / n;
  out.min = *std::min_element(out.per_repeat.begin(), out.per_repeat.end());
  out.max = *std::max_element(out.per_repeat.begin(), out.per_repeat.end());
  if (out.per_repeat.size() < 2) {
    out.ci_low = out.ci_high = std::numeric_limits<double>::quiet_NaN();
    return out;
  }
  double squares = 0;
  for (double x : out.per_repeat) squares += (x - out.mean) * (x - out.mean);
  out.sd = std::sqrt(squares / (n - 1));
  const double half =
      student_t_975(static_cast<int>(out.per_repeat.size()) - 1) * out.sd / std::sqrt(n);
  out.ci_low = out.mean - half;
  out.ci_high = out.mean + half;
  return out;
}

PruningScores pruning_scores(const SearchResults& results, int optimizer_index,
                             const std::string& setting) {
  const TimesBestPruning own = prune_by_times_best(results, optimizer_index);
  PruningScores out;
  out.setting = setting;
  out.eval_points = own.eval_points;
  for (std::size_t i = 0; i < own.pool.size() && i < own.times_best.size(); ++i) {
    const auto& c = results.candidates[static_cast<std::size_t>(own.pool[i])];
    std::size_t cell = 0;
    while (cell < out.learning_rates.size() &&
           !(same_value(out.learning_rates[cell], c.optimizer.learning_rate) &&
             same_value(out.clips[cell], c.clip)))
      ++cell;
    if (cell == out.learning_rates.size()) {
      out.learning_rates.push_back(c.optimizer.learning_rate);
      out.clips.push_back(c.clip);
      out.times_best.push_back(0);
    }
    out.times_best[cell] += own.times_best[i];
  }
  return out;
}

PooledPruning prune_pooled(const SearchResults& results, int optimizer_index,
                           const std::vector<PruningScores>& settings, int min_times_best) {
  if (settings.empty()) throw InvalidArgument("section 5.2: pooled pruning needs a setting");
  PooledPruning out;
  out.min_times_best = min_times_best;
  auto cell_of = [&](double alpha, double clip) {
    for (std::size_t i = 0; i < out.learning_rates.size(); ++i)
      if (same_value(out.learning_rates[i], alpha) && same_value(out.clips[i], clip)) return i;
    return out.learning_rates.size();
  };
  std::vector<std::vector<std::pair<std::size_t, int>>> by_setting;  // (cell, score)
  for (const auto& s : settings) {
    out.settings.push_back(s.setting);
    out.score_total += s.eval_points;
    by_setting.emplace_back();
    for (std::size_t i = 0; i < s.learning_rates.size(); ++i) {
      const std::size_t cell = cell_of(s.learning_rates[i], s.clips[i]);
      if (cell == out.learning_rates.size()) {
        out.learning_rates.push_back(s.learning_rates[i]);
        out.clips.push_back(s.clips[i]);
        out.pooled_score.push_back(0);
      }
      out.pooled_score[cell] += s.times_best[i];
      by_setting.back().emplace_back(cell, s.times_best[i]);
    }
  }
  for (const auto& scores : by_setting) {
    out.setting_scores.emplace_back(out.learning_rates.size(), 0);
    for (const auto& [cell, score] : scores) out.setting_scores.back()[cell] += score;
  }
  out.pool = experiment::candidates_of(results.candidates, optimizer_index);
  for (int c : out.pool) {
    const auto& candidate = results.candidates[static_cast<std::size_t>(c)];
    const std::size_t cell = cell_of(candidate.optimizer.learning_rate, candidate.clip);
    if (cell < out.pooled_score.size() && out.pooled_score[cell] >= min_times_best)
      out.kept.push_back(c);
  }
  return out;
}

TimesBestPruning prune_by_times_best(const SearchResults& results, int optimizer_index,
                                     int min_times_best) {
  if (results.is_regression)
    throw InvalidArgument("section 5.2 pruning needs a classification search (accuracy)");
  const OptimizerAggregates aggregates = aggregate_optimizer(results, optimizer_index);
  TimesBestPruning out;
  out.optimizer_index = optimizer_index;
  out.min_times_best = min_times_best;
  out.pool = experiment::candidates_of(results.candidates, optimizer_index);
  out.times_best = aggregates.times_best_per_candidate;
  out.eval_points = aggregates.eval_points;
  for (std::size_t k = 0; k < out.pool.size() && k < out.times_best.size(); ++k) {
    if (out.times_best[k] >= min_times_best) out.kept.push_back(out.pool[k]);
  }
  return out;
}

BestOfKComparison compare_best_of_k(const SearchResults& results, const std::string& label_a,
                                    const std::vector<int>& pool_a, int k_a,
                                    const std::string& label_b, const std::vector<int>& pool_b,
                                    int k_b, int draws, std::uint64_t seed) {
  if (results.is_regression)
    throw InvalidArgument("section 5.2 needs a classification search (accuracy)");
  if (draws < 2)
    throw InvalidArgument("section 5.2: draws = " + std::to_string(draws) + " must be >= 2");
  BestOfKComparison out;
  out.draws = draws;
  out.a = draw_side(results, label_a, pool_a, k_a, draws, derive_seed(seed, kSideStream, 0));
  out.b = draw_side(results, label_b, pool_b, k_b, draws, derive_seed(seed, kSideStream, 1));
  out.difference = out.a.mean - out.b.mean;
  const double half = kZ95 * std::sqrt((out.a.sd * out.a.sd + out.b.sd * out.b.sd) / draws);
  out.difference_ci_low = out.difference - half;
  out.difference_ci_high = out.difference + half;
  out.separated = out.a.ci_low > out.b.ci_high || out.b.ci_low > out.a.ci_high;
  return out;
}

}  // namespace dplab::tuning
