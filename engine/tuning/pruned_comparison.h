// Main paper section 5.2 ("prioritising privacy") as a computation on a finished search:
//
// 1. Pruning (supplement, appendix G, Figure 7): every DPSGD candidate gets its "times best"
//    score, the number of evaluation points (every eval_every iterations) at which its
//    repeat-averaged validation accuracy was the best of the optimizer's pool (aggregates.h).
//    The pruned pool keeps the candidates with a score >= min_times_best (the paper: >= 1, "it
//    only awards a hyperparameter set a point if it appeared as the best candidate"). Pruning
//    looks at the validation data of every run, so it is NOT private: the paper states it favours
//    DPSGD; dplab reports it the same way.
// 2. Equal-cost comparison: at the same privacy cost (MA over k runs), DPAdam's k candidates
//    against k candidates drawn uniformly without replacement from the (pruned) DPSGD pool. One
//    draw of a side: its k candidates, each represented by one of its finished repeats drawn
//    uniformly (a fresh training run, as the paper's 100 repetitions retrain), and the released
//    accuracy is that of the best of the k runs by validation accuracy. Over `draws` independent
//    draws per side: mean, and a 95% CI mean +- 1.96 s / sqrt(draws) (normal approximation);
//    the difference of the means has CI +- 1.96 sqrt(s_a^2 + s_b^2) / sqrt(draws).
//    These CIs cover the randomness of the draws GIVEN the trained runs (repeats x candidates);
//    they do not cover retraining beyond the finished repeats. `separated` says whether the two
//    95% CIs are disjoint.
// Classification only (accuracy). Pure functions, seeded; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tuning/results.h"

namespace dplab::tuning {

struct TimesBestPruning {
  int optimizer_index = 0;
  int min_times_best = 1;
  std::vector<int> pool;        // the optimizer's candidates (candidates_of order)
  std::vector<int> times_best;  // parallel to pool
  std::vector<int> kept;        // candidates with times_best >= min_times_best (pool order)
  int eval_points = 0;          // sum of times_best
};

TimesBestPruning prune_by_times_best(const SearchResults& results, int optimizer_index,
                                     int min_times_best = 1);

struct BestOfKSide {
  std::string label;      // e.g. "dpadam (4 candidates)"
  std::vector<int> pool;  // candidates drawn from
  int k = 0;              // candidates per draw (min(k, pool with a finished job))
  double mean = 0;        // mean released accuracy
  double sd = 0;          // standard deviation over draws
  double ci_low = 0, ci_high = 0;
};

struct BestOfKComparison {
  BestOfKSide a, b;
  int draws = 0;
  double difference = 0;  // a.mean - b.mean
  double difference_ci_low = 0, difference_ci_high = 0;
  bool separated = false;  // the two 95% CIs are disjoint
};

// Throws InvalidArgument for regression searches, draws < 2, k < 1 or a pool without a finished
// job.
BestOfKComparison compare_best_of_k(const SearchResults& results, const std::string& label_a,
                                    const std::vector<int>& pool_a, int k_a,
                                    const std::string& label_b, const std::vector<int>& pool_b,
                                    int k_b, int draws, std::uint64_t seed);

}  // namespace dplab::tuning
