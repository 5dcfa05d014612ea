// The privacy–utility trade-off of a search: for each optimizer (and for the whole search), the
// score of what a release would publish against the epsilon it costs, for every release mode.
//
//   explore        every run trained is released (tuning/release_cost.h explore_release_cost):
//                  epsilon of the runs actually trained, score of the best candidate. For the
//                  whole search this is the epsilon of this search (plan = false).
//   private ma     plan: one run per candidate, only the winner released (K runs composed).
//   private lt     plan: Liu & Talwar random stopping (main paper Theorem 1, Alg. 1) with
//                  gamma = tuning.gamma or 1/K, and as a sweep over gamma (expected runs 1/gamma
//                  = 1, 2, 3, 5, 10, 20, 50, 100): the trade-off curve.
//   private ps     plan: Papernot & Steinke 2022 Theorem 6 (Poisson, mean release.ps_mu).
// Every epsilon comes from tuning::private_release_cost / explore_release_cost (one
// implementation of each rule), at the run's delta.
//
// Score of a private release (plans): the EXPECTED score of the released winner when the number
// of runs J follows the mode's law (tuning/run_count_laws.h) and each run is a candidate drawn
// uniformly with replacement from the K' candidates that have a finished score s_(1) <= ... <=
// s_(K'), scored by its finished mean (honest_selection.h score_candidates). The best of j draws
// is <= s_(i) with probability (i/K')^j, so with G(x) = E[x^J] the probability generating
// function of J:
//   E[winner] = sum_i s_(i) [ G(i/K') - G((i-1)/K') ]            (exact, O(K'))
//   LT:      G(x) = gamma x (1 - ((1-gamma) x)^(U-1)) / (1 - (1-gamma) x) + ((1-gamma) x)^(U-1) x
//            for J = min(Geometric(gamma), U), U the integer hard stop;
//   Poisson: conditioned on J >= 1 (J = 0 releases nothing; P[J = 0] = e^-mu is reported):
//            G(x) = (e^(mu (x-1)) - e^-mu) / (1 - e^-mu).
// MA trains every candidate once: its winner is the best candidate (as the explore winner).
// These are expectations over the selection's randomness under the assumption that a fresh run
// scores its candidate's mean; they are labelled as plans. Regression: the score is the final
// training loss (lower is better) and "best" is the minimum.
// Explore runs only (a private run's jobs are its drawn runs: nothing to plan from them).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tuning/results.h"

namespace dplab::tuning {

struct PrivacyUtilityPoint {
  int optimizer_index = -1;  // -1: the whole search
  std::string mode;          // "explore", "private ma", "private lt", "private ps (poisson mu=10)"
  bool plan = true;          // a planning figure: this search did not run this mode
  double epsilon = 0;        // at delta, not rounded (labels round up)
  double delta = 0;
  double expected_runs = 0;
  double gamma = 0;            // lt: the stopping probability
  std::int64_t hard_stop = 0;  // lt: the integer hard stop U
  double metric = 0;  // expected accuracy (or training loss) of what is released; NaN if none
  std::string label;  // tuning::epsilon_label of the cost
};

struct PrivacyUtility {
  bool regression = false;
  std::vector<PrivacyUtilityPoint> points;    // per optimizer: explore, ma, lt, ps; then "all"
  std::vector<PrivacyUtilityPoint> lt_sweep;  // per optimizer, gamma varied, increasing runs
  double ps_probability_nothing = 0;          // P[J = 0] of the Poisson plan
};

// Throws InvalidArgument for a private-mode run.
PrivacyUtility privacy_utility(const SearchResults& results);

// E[max of J uniform draws with replacement] for scores sorted ascending, J with the probability
// generating function `pgf` (pgf(0) = 0: J >= 1, pgf(1) = 1). NaN for no scores.
double expected_best_of_random_draws(const std::vector<double>& sorted_scores,
                                     const std::function<double(double)>& pgf);
// The generating functions above.
double truncated_geometric_pgf(double x, double gamma, std::int64_t hard_stop);
double poisson_pgf_at_least_one(double x, double mu);

}  // namespace dplab::tuning
