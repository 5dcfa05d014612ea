// Aggregates over a finished search: max/median curves, the alpha-C grid and "times best"
// (paper Figures 2, 4/5, 7). See aggregates.h.
#include "tuning/aggregates.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "tuning/honest_selection.h"

namespace dplab::tuning {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The validation metric of a curve point: accuracy, or validation MSE for a search scored by
// loss (never the point's train_loss, the un-noised lot loss; issue #42 finding 5).
double point_metric(const SearchResults& results, const training::CurvePoint& p) {
  return results.is_regression ? p.val_mse : p.val_accuracy;
}

// Strictly better under the direction; NaN is never better.
bool better(double a, double b, bool higher) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  return higher ? a > b : a < b;
}

double median_of(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
               values.end());
  if (values.empty()) return kNaN;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::size_t index_of(const std::vector<double>& sorted, double value) {
  return static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), value) -
                                  sorted.begin());
}

}  // namespace

const char* curve_metric_column(bool regression) {
  return regression ? "val_mse" : "val_accuracy";
}

OptimizerAggregates aggregate_optimizer(const SearchResults& results, int optimizer_index) {
  OptimizerAggregates out;
  out.optimizer_index = optimizer_index;
  out.optimizer = experiment::entry_name(
      results.config.optimizers.at(static_cast<std::size_t>(optimizer_index)));
  const bool higher = !results.is_regression;
  out.curves.higher_is_better = higher;
  const std::vector<int> pool = experiment::candidates_of(results.candidates, optimizer_index);

  // Mean-over-repeats curve per candidate: iteration -> (sum, count).
  std::vector<std::map<std::int64_t, std::pair<double, int>>> per_candidate(pool.size());
  std::map<std::int64_t, int> all_iterations;
  for (std::size_t k = 0; k < pool.size(); ++k) {
    for (int r = 0; r < results.config.repeats; ++r) {
      const JobResult& job = results.job(pool[k], r);
      if (job.status != JobStatus::kFinished) continue;
      for (const auto& p : job.curve) {
        auto& cell = per_candidate[k][p.iteration];
        cell.first += point_metric(results, p);
        cell.second += 1;
        all_iterations[p.iteration] = 0;
      }
    }
  }
  out.times_best_per_candidate.assign(pool.size(), 0);
  for (const auto& [iteration, unused] : all_iterations) {
    (void)unused;
    std::vector<double> values;
    int best_k = -1;
    double best_value = kNaN;
    for (std::size_t k = 0; k < pool.size(); ++k) {
      const auto it = per_candidate[k].find(iteration);
      if (it == per_candidate[k].end()) continue;
      const double v = it->second.first / it->second.second;
      values.push_back(v);
      if (best_k < 0 || better(v, best_value, higher)) {
        best_k = static_cast<int>(k);
        best_value = v;
      }
    }
    out.curves.iterations.push_back(iteration);
    out.curves.best.push_back(best_value);
    out.curves.median.push_back(median_of(values));
    out.curves.best_candidate.push_back(pool[static_cast<std::size_t>(best_k)]);
    ++out.times_best_per_candidate[static_cast<std::size_t>(best_k)];
    ++out.eval_points;
  }

  // The winner and its curve.
  const std::vector<CandidateScore> scores = score_candidates(results, pool);
  if (const CandidateScore* w = best_score(scores)) {
    out.winner = w->candidate;
    const auto k =
        static_cast<std::size_t>(std::find(pool.begin(), pool.end(), w->candidate) - pool.begin());
    for (const std::int64_t iteration : out.curves.iterations) {
      const auto it = per_candidate[k].find(iteration);
      out.winner_curve.push_back(
          it == per_candidate[k].end() ? kNaN : it->second.first / it->second.second);
    }
  }

  // The alpha-C grid.
  AlphaClipGrid& g = out.grid;
  for (int c : pool) {
    g.learning_rates.push_back(
        results.candidates[static_cast<std::size_t>(c)].optimizer.learning_rate);
    g.clips.push_back(results.candidates[static_cast<std::size_t>(c)].clip);
  }
  for (auto* axis : {&g.learning_rates, &g.clips}) {
    std::sort(axis->begin(), axis->end());
    axis->erase(std::unique(axis->begin(), axis->end()), axis->end());
  }
  const std::size_t cells = g.learning_rates.size() * g.clips.size();
  std::vector<double> loss_sum(cells, 0), accuracy_sum(cells, 0);
  std::vector<int> count(cells, 0);
  g.times_best.assign(cells, 0);
  g.diverged.assign(cells, 0);
  for (std::size_t k = 0; k < pool.size(); ++k) {
    const auto& cand = results.candidates[static_cast<std::size_t>(pool[k])];
    const std::size_t cell = g.cell(index_of(g.learning_rates, cand.optimizer.learning_rate),
                                    index_of(g.clips, cand.clip));
    g.times_best[cell] += out.times_best_per_candidate[k];
    for (int r = 0; r < results.config.repeats; ++r) {
      const JobResult& job = results.job(pool[k], r);
      g.diverged[cell] += job.status == JobStatus::kDiverged ? 1 : 0;
      if (job.status != JobStatus::kFinished) continue;
      loss_sum[cell] += job.final_train_loss;
      accuracy_sum[cell] += job.final_val_accuracy;
      ++count[cell];
    }
  }
  g.final_train_loss.assign(cells, kNaN);
  g.final_accuracy.assign(cells, kNaN);
  for (std::size_t i = 0; i < cells; ++i) {
    if (count[i] == 0) continue;
    g.final_train_loss[i] = loss_sum[i] / count[i];
    g.final_accuracy[i] = results.is_regression ? kNaN : accuracy_sum[i] / count[i];
  }
  return out;
}

std::vector<OptimizerAggregates> aggregate_all(const SearchResults& results) {
  std::vector<OptimizerAggregates> out;
  for (std::size_t i = 0; i < results.config.optimizers.size(); ++i) {
    out.push_back(aggregate_optimizer(results, static_cast<int>(i)));
  }
  return out;
}

}  // namespace dplab::tuning
