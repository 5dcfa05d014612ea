// Section 5.2's pruning and equal-cost comparison (see pruned_comparison.h).
#include "tuning/pruned_comparison.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"
#include "core/random.h"
#include "tuning/aggregates.h"

namespace dplab::tuning {
namespace {

constexpr double kZ95 = 1.959963984540054;
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

}  // namespace

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
