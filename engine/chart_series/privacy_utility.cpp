#include "chart_series/privacy_utility.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "tuning/honest_selection.h"
#include "tuning/release_cost.h"

namespace dplab::tuning {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Expected runs 1/gamma of the LT sweep.
constexpr double kSweepRuns[] = {1, 2, 3, 5, 10, 20, 50, 100};

// The search restricted to a pool of candidates: what release_cost needs (K = the pool, the
// pool's jobs with their queries); candidates keep their global indices.
SearchResults restrict_to(const SearchResults& results, const std::vector<int>& pool) {
  SearchResults sub;
  sub.config = results.config;
  sub.mechanism = results.mechanism;
  sub.training_size = results.training_size;
  sub.validation_size = results.validation_size;
  sub.is_regression = results.is_regression;
  for (int c : pool) {
    sub.candidates.push_back(results.candidates[static_cast<std::size_t>(c)]);
    for (int r = 0; r < results.config.repeats; ++r) sub.jobs.push_back(results.job(c, r));
  }
  return sub;
}

}  // namespace

double expected_best_of_random_draws(const std::vector<double>& sorted_scores,
                                     const std::function<double(double)>& pgf) {
  const std::size_t k = sorted_scores.size();
  if (k == 0) return kNaN;
  double e = 0;
  double below = 0;  // G((i-1)/K), G(0) = 0
  for (std::size_t i = 1; i <= k; ++i) {
    const double at = i == k ? 1.0 : pgf(static_cast<double>(i) / static_cast<double>(k));
    e += sorted_scores[i - 1] * (at - below);
    below = at;
  }
  return e;
}

double truncated_geometric_pgf(double x, double gamma, std::int64_t hard_stop) {
  if (hard_stop < 1) throw InvalidArgument("hard stop must be >= 1");
  const double r = (1.0 - gamma) * x;  // < 1 for gamma > 0 and x <= 1
  const double tail = std::pow(r, static_cast<double>(hard_stop - 1));  // ((1-gamma) x)^(U-1)
  const double head = r < 1.0 ? gamma * x * (1.0 - tail) / (1.0 - r)
                              : gamma * x * static_cast<double>(hard_stop - 1);
  return head + tail * x;
}

double poisson_pgf_at_least_one(double x, double mu) {
  const double nothing = std::exp(-mu);
  return (std::exp(mu * (x - 1.0)) - nothing) / -std::expm1(-mu);
}

PrivacyUtility privacy_utility(const SearchResults& results) {
  if (results.config.release.mode != experiment::ReleaseMode::kExplore) {
    throw InvalidArgument(
        "the privacy-utility chart needs an explore run (a private run released one winner)");
  }
  PrivacyUtility out;
  out.regression = results.is_regression;
  const double sign = results.is_regression ? -1.0 : 1.0;  // score -> metric
  const int num_optimizers = static_cast<int>(results.config.optimizers.size());
  const double mu = results.config.release.ps_mu;
  out.ps_probability_nothing = std::exp(-mu);

  auto point = [&](int optimizer, const SearchResults& sub,
                   const experiment::ReleaseConfig& release, bool plan, double metric) {
    SearchResults priced = sub;
    priced.config.release = release;
    const ReleaseCost cost = release_cost(priced);
    PrivacyUtilityPoint p;
    p.optimizer_index = optimizer;
    p.mode = experiment::describe_release(release);
    p.plan = plan;
    p.epsilon = cost.epsilon;
    p.delta = cost.delta;
    p.expected_runs = cost.expected_runs;
    p.gamma = cost.gamma;
    p.hard_stop = cost.hard_stop;
    p.metric = metric;
    p.label = epsilon_label(cost);
    return p;
  };

  experiment::ReleaseConfig explore = results.config.release;
  experiment::ReleaseConfig ma = explore;
  ma.mode = experiment::ReleaseMode::kPrivate;
  ma.selection = experiment::PrivateSelection::kMa;
  experiment::ReleaseConfig lt = ma;
  lt.selection = experiment::PrivateSelection::kLt;
  experiment::ReleaseConfig ps = ma;
  ps.selection = experiment::PrivateSelection::kPs;
  ps.ps_distribution = experiment::RunCountDistribution::kPoisson;

  for (int o = 0; o < num_optimizers; ++o) {
    const std::vector<int> pool = experiment::candidates_of(results.candidates, o);
    if (pool.empty()) continue;
    const SearchResults sub = restrict_to(results, pool);
    const auto scores = score_candidates(results, pool);
    std::vector<double> sorted;
    for (const CandidateScore& s : scores) {
      if (std::isfinite(s.score)) sorted.push_back(s.score);
    }
    std::sort(sorted.begin(), sorted.end());
    const CandidateScore* winner = best_score(scores);
    const double best = winner ? winner->metric() : kNaN;
    out.points.push_back(point(o, sub, explore, false, best));
    out.points.push_back(point(o, sub, ma, true, best));
    // LT at the experiment's gamma (or 1/K), then the sweep.
    auto lt_point = [&](std::optional<double> gamma) {
      SearchResults priced = sub;
      priced.config.tuning.gamma = gamma;
      PrivacyUtilityPoint p = point(o, priced, lt, true, kNaN);
      p.metric = sign * expected_best_of_random_draws(sorted, [&](double x) {
                   return truncated_geometric_pgf(x, p.gamma, p.hard_stop);
                 });
      return p;
    };
    out.points.push_back(lt_point(results.config.tuning.gamma));
    out.points.push_back(
        point(o, sub, ps, true, sign * expected_best_of_random_draws(sorted, [&](double x) {
                                  return poisson_pgf_at_least_one(x, mu);
                                })));
    for (double runs : kSweepRuns) out.lt_sweep.push_back(lt_point(1.0 / runs));
  }
  // The whole search as it ran: every run released.
  std::vector<int> all(results.candidates.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  const auto all_scores = score_candidates(results, all);
  const CandidateScore* best_all = best_score(all_scores);
  out.points.push_back(point(-1, results, explore, false, best_all ? best_all->metric() : kNaN));
  return out;
}

}  // namespace dplab::tuning
