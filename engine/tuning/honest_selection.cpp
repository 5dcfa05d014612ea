// Honest selection: candidate scores, the LT random-stopping algorithm, the section 5.2
// random-subset protocol, and the epsilons of the search. See honest_selection.h.
#include "tuning/honest_selection.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/error.h"
#include "core/mean_interval.h"
#include "core/random.h"
#include "tuning/accounting.h"
#include "tuning/best_of_k.h"

namespace dplab::tuning {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Stream ids for derive_seed (experiment seed, stream, scope index).
constexpr std::uint64_t kLtStream = 0x4C54;  // "LT"
// Two-sided 95% normal quantile for the protocol's confidence interval.

// Finished and diverged runs are scored (results.h: a diverged run scores the worst value).
bool finished(const JobResult& job) {
  return is_scored(job);
}

}  // namespace

double CandidateScore::metric() const {
  return regression ? mean_final_val_mse : mean_final_accuracy;
}

std::vector<CandidateScore> score_candidates(const SearchResults& results,
                                             const std::vector<int>& pool) {
  std::vector<CandidateScore> out;
  for (int c : pool) {
    CandidateScore s;
    s.candidate = c;
    s.regression = results.is_regression;
    double accuracy = 0, loss = 0, mse = 0;
    for (int r = 0; r < results.config.repeats; ++r) {
      const JobResult& job = results.job(c, r);
      if (!finished(job)) continue;
      ++s.repeats_finished;
      accuracy += scored_accuracy(job);
      loss += scored_train_loss(job);
      mse += scored_val_mse(job);
    }
    if (s.repeats_finished == 0) continue;
    s.mean_final_accuracy = results.is_regression ? kNaN : accuracy / s.repeats_finished;
    s.mean_final_train_loss = loss / s.repeats_finished;
    s.mean_final_val_mse = results.is_regression ? mse / s.repeats_finished : kNaN;
    s.score = results.is_regression ? -s.mean_final_val_mse : s.mean_final_accuracy;
    // A diverged run (NaN loss) must never win.
    if (std::isnan(s.score)) s.score = -std::numeric_limits<double>::infinity();
    out.push_back(s);
  }
  return out;
}

const CandidateScore* best_score(const std::vector<CandidateScore>& scores) {
  const CandidateScore* best = nullptr;
  for (const auto& s : scores) {
    if (!best || s.score > best->score) best = &s;
  }
  return best;
}

LtRun run_liu_talwar(const SearchResults& results, const std::vector<int>& pool, double gamma,
                     double delta2, std::uint64_t seed) {
  if (!(gamma > 0 && gamma <= 1)) throw InvalidArgument("gamma must be in (0, 1]");
  if (!(delta2 > 0 && delta2 < 1)) throw InvalidArgument("delta2 must be strictly between 0 and 1");
  LtRun run;
  run.hard_stop = static_cast<std::int64_t>(std::ceil(std::log(1.0 / delta2) / gamma));
  // Q(D): the finished (candidate, repeat) runs, grouped by candidate.
  std::vector<std::vector<const JobResult*>> runs;
  std::vector<int> ids;
  for (int c : pool) {
    std::vector<const JobResult*> done;
    for (int r = 0; r < results.config.repeats; ++r) {
      if (finished(results.job(c, r))) done.push_back(&results.job(c, r));
    }
    if (!done.empty()) {
      runs.push_back(std::move(done));
      ids.push_back(c);
    }
  }
  if (runs.empty()) return run;
  Rng rng(seed);
  double best = -std::numeric_limits<double>::infinity();
  for (std::int64_t j = 1; j <= run.hard_stop; ++j) {
    const std::size_t pick = rng.below(runs.size());
    const auto& repeats = runs[pick];
    const JobResult& job = *repeats[rng.below(repeats.size())];
    ++run.draws;
    run.drawn.push_back(ids[pick]);
    const double score = selection_score(job, results.is_regression);
    if (run.selected_candidate < 0 || score > best) {
      best = score;
      run.selected_candidate = ids[pick];
      run.selected_metric = scored_metric(job, results.is_regression);
    }
    if (rng.uniform() < gamma) return run;  // the gamma-biased coin says stop
  }
  run.stopped_by_hard_limit = true;
  return run;
}

std::vector<ProtocolRow> random_subset_protocol(const SearchResults& results,
                                                const std::vector<int>& pool, int trials) {
  if (trials < 2)
    throw InvalidArgument("protocol trials = " + std::to_string(trials) + " must be >= 2");
  std::vector<ScoredValue> values;
  for (const CandidateScore& s : score_candidates(results, pool))
    values.push_back({s.score, s.metric()});
  std::vector<ProtocolRow> rows;
  for (const BestOfKMoments& m : best_of_k_moments(std::move(values))) {
    ProtocolRow row;
    row.k = m.k;
    row.trials = trials;
    row.mean = m.mean;
    // The interval the paper's `trials` repetitions have around their mean (normal
    // approximation), with the exact standard deviation of one best-of-k draw.
    const double half = kZ95 * m.sd() / std::sqrt(static_cast<double>(trials));
    row.ci_low = row.mean - half;
    row.ci_high = row.mean + half;
    rows.push_back(row);
  }
  return rows;
}

namespace {

SelectionReport select(const SearchResults& results, const std::vector<int>& pool,
                       const std::string& scope, std::uint64_t scope_id,
                       const SelectionOptions& options) {
  SelectionReport report;
  report.scope = scope;
  report.pool = pool;
  report.num_candidates = static_cast<int>(pool.size());
  report.regression = results.is_regression;
  if (pool.empty()) throw InvalidArgument("honest selection over an empty pool (" + scope + ")");
  const RunMechanism& m = results.mechanism;
  report.delta = m.delta;
  report.delta2 = results.config.tuning.delta2;
  report.gamma = options.gamma                 ? *options.gamma
                 : results.config.tuning.gamma ? *results.config.tuning.gamma
                                               : 1.0 / report.num_candidates;

  const auto scores = score_candidates(results, pool);
  report.best_accuracy = kNaN;
  report.best_train_loss = kNaN;
  report.best_val_mse = kNaN;
  if (const CandidateScore* best = best_score(scores)) {
    report.best_candidate = best->candidate;
    report.best_score = best->score;
    report.best_accuracy = best->mean_final_accuracy;
    report.best_train_loss = best->mean_final_train_loss;
    report.best_val_mse = best->mean_final_val_mse;
  }
  const experiment::AccountingConfig& accounting = results.config.accounting;
  report.epsilon_single_run =
      epsilon_single_run(m.noise_multiplier, m.sampling_rate, m.steps, m.delta, accounting);
  report.epsilon_ma = epsilon_moments_accountant(m.noise_multiplier, m.sampling_rate, m.steps,
                                                 report.num_candidates, m.delta, accounting);
  report.epsilon_lt = epsilon_liu_talwar(m.noise_multiplier, m.sampling_rate, m.steps, report.gamma,
                                         m.delta, report.delta2, accounting);
  report.lt = run_liu_talwar(results, pool, report.gamma, report.delta2,
                             derive_seed(results.config.seed, kLtStream, scope_id));
  if (options.run_protocol) {
    report.protocol = random_subset_protocol(results, pool, options.protocol_trials);
  }
  return report;
}

}  // namespace

SelectionReport honest_selection(const SearchResults& results, const std::vector<int>& pool,
                                 const std::string& scope, const SelectionOptions& options) {
  return select(results, pool, scope, 0xFFFF, options);
}

std::vector<SelectionReport> honest_selection_per_optimizer(const SearchResults& results,
                                                            const SelectionOptions& options) {
  std::vector<SelectionReport> out;
  for (std::size_t oi = 0; oi < results.config.optimizers.size(); ++oi) {
    const auto pool = experiment::candidates_of(results.candidates, static_cast<int>(oi));
    const std::string scope = experiment::entry_name(results.config.optimizers[oi]);
    out.push_back(select(results, pool, scope, oi, options));
  }
  return out;
}

SelectionReport honest_selection_all(const SearchResults& results,
                                     const SelectionOptions& options) {
  std::vector<int> pool(results.candidates.size());
  std::iota(pool.begin(), pool.end(), 0);
  return select(results, pool, "all", 0xFFFF, options);
}

}  // namespace dplab::tuning
