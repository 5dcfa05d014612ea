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
// 3. What the trained runs support (issue #31): the spread over repeats. Repeat r of every
//    candidate is an independent training, so side's released accuracy at repeat r is
//      x_r = E[max over a uniform k-subset S of the pool of acc(c, r), c in S]
//          = sum_i v_(i) C(i - 1, k - 1) / C(m, k)   (v_(1) <= ... <= v_(m) the pool's acc(., r))
//    exact, no draws; a pool of at most k candidates gives the max over the pool. Over the R
//    repeats: mean, min, max and the 95% t-interval mean +- t_{0.975, R-1} s / sqrt(R). This
//    interval is what R x |pool| trainings support; the draw CI of 2. shrinks with the number of
//    draws although no new training happens (with a pool of at most k candidates every draw
//    takes all of them and that CI is nearly zero-width).
// 4. Pooled pruning (appendix G's Figure 7 scores one map over 4 data sets x 2 models x 3 sigma,
//    total 2,400 = 24 settings x 100 evaluation points): each setting's times-best scores are
//    keyed by (alpha, C) and summed over the settings; the pooled pool keeps every candidate
//    whose (alpha, C) has a pooled score >= min_times_best. With min_times_best = 1 that is the
//    union of the settings' kept (alpha, C) sets.
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

// t_{0.975, df}: the two-sided 95% quantile of Student's t with df >= 1 degrees of freedom
// (exact table for df <= 30, a Cornish-Fisher expansion above; error < 1e-4). Throws
// InvalidArgument for df < 1.
double student_t_975(int df);

struct RepeatSpread {
  int k = 0;                       // candidates per draw (min(k, pool with a finished job))
  std::vector<double> per_repeat;  // x_r for every repeat with a finished run in the pool
  double mean = 0, sd = 0, min = 0, max = 0;
  // 95% t-interval over the repeats; NaN with fewer than 2 repeats (no interval).
  double ci_low = 0, ci_high = 0;
};

// Throws InvalidArgument for regression searches, k < 1 or a pool without a finished job.
RepeatSpread repeat_spread(const SearchResults& results, const std::vector<int>& pool, int k);

// One setting's times-best scores by (alpha, C) (candidates sharing a cell add up).
struct PruningScores {
  std::string setting;                        // "Adult, logistic, sigma = 4"
  std::vector<double> learning_rates, clips;  // parallel: one entry per (alpha, C) cell
  std::vector<int> times_best;                // parallel
  int eval_points = 0;                        // sum of times_best
};
PruningScores pruning_scores(const SearchResults& results, int optimizer_index,
                             const std::string& setting);

struct PooledPruning {
  std::vector<std::string> settings;
  std::vector<double> learning_rates, clips;  // every (alpha, C) of any setting, first-seen order
  std::vector<int> pooled_score;              // parallel: sum over the settings
  std::vector<std::vector<int>> setting_scores;  // [setting][cell]: each setting's score
  int score_total = 0;                           // sum of every setting's eval_points
  int min_times_best = 1;
  std::vector<int> pool;  // the optimizer's candidates in `results`
  std::vector<int> kept;  // those whose (alpha, C) has pooled_score >= min_times_best
};
// Throws InvalidArgument when `settings` is empty.
PooledPruning prune_pooled(const SearchResults& results, int optimizer_index,
                           const std::vector<PruningScores>& settings, int min_times_best = 1);

}  // namespace dplab::tuning
