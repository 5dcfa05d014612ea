// Honest hyperparameter selection (main paper sections 3 and 5.2, appendix E): choose the best
// candidate of a finished search and report what the *whole search* cost in privacy, next to
// the "dishonest" epsilon of the single best run that most papers report.
//
// Score of a candidate: mean over its scored repeats of the final validation accuracy
// (regression and reconstruction: of the final validation MSE, lower is better; results.h
// selection_score — never the training loss, which no epsilon covers). Finished and diverged
// jobs count (a diverged one at the worst score).
// Privacy of a pool of K candidates, each a (sigma, q, T) Poisson-subsampled Gaussian run:
//   single run : epsilon at delta of one run (what a paper reports when tuning is ignored);
//   MA         : K-fold RDP composition (sec. 3.2);
//   LT         : Liu & Talwar 2019 Thm 3.4 with gamma (default 1/K) and delta_2 (sec. 3.1).
// The LT random-stopping algorithm (appendix E, Alg. 1) is also run on the finished pool: draw a
// candidate uniformly with replacement (and one of its finished repeats, as a fresh run would
// be), stop with probability gamma after each draw, stop at the latest after
// Upsilon = ceil(ln(1/delta_2) / gamma) draws, output the best seen. Seeded.
// Section 5.2 protocol: for k = 1..K, the best (by score) of k distinct candidates drawn uniformly
// at random. The paper repeats the draw `trials` (100) times and plots the mean with a 95% CI;
// dplab computes the mean EXACTLY (tuning/best_of_k.h: E = sum_i s_(i) C(i-1, k-1) / C(K, k),
// O(K log K) for every k together, no draws, no seed) and the interval the paper's `trials`
// repetitions have around it: mean +- 1.96 sd_k / sqrt(trials), sd_k the exact standard
// deviation of one best-of-k draw (normal approximation). Until issue #45 this was a
// Monte-Carlo of `trials` draws per k, O(K^2 trials): 143 s for 20,000 candidates.
//
// All functions are pure and thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tuning/results.h"

namespace dplab::tuning {

struct CandidateScore {
  int candidate = 0;
  int repeats_finished = 0;          // repeats scored: finished, or diverged (scored worst)
  bool regression = false;           // scored by validation MSE (SearchResults::is_regression)
  double mean_final_accuracy = 0;    // NaN for regression; a diverged repeat counts as 0
  double mean_final_val_mse = 0;     // regression only (NaN otherwise); a diverged repeat: +inf
  double mean_final_train_loss = 0;  // shown, never selected on (not covered by epsilon)
  double score = 0;                  // higher is better: accuracy, or -validation MSE (regression)
  double metric() const;             // the reported number: accuracy, or validation MSE
};

// Scores of the candidates in `pool` that have at least one scored job (pool order): finished
// jobs, and diverged ones at the worst score (results.h is_scored / scored_accuracy).
std::vector<CandidateScore> score_candidates(const SearchResults& results,
                                             const std::vector<int>& pool);
// The selection rule: the highest score, the first one on ties (pool order); null if none. Every
// "best" / "winner" dplab shows is this (honest_selection, tuning/winners.h, the history).
const CandidateScore* best_score(const std::vector<CandidateScore>& scores);

struct LtRun {
  int selected_candidate = -1;  // -1: the pool has no finished job
  double selected_metric = 0;   // the final accuracy (or validation MSE) of the chosen draw
  std::int64_t draws = 0;
  std::int64_t hard_stop = 0;  // Upsilon
  bool stopped_by_hard_limit = false;
  std::vector<int> drawn;  // candidates in draw order
};

LtRun run_liu_talwar(const SearchResults& results, const std::vector<int>& pool, double gamma,
                     double delta2, std::uint64_t seed);

struct ProtocolRow {
  int k = 0;
  double mean = 0;    // mean metric of the best of k random candidates
  double ci_low = 0;  // 95% interval of the mean of `trials` repetitions (see above)
  double ci_high = 0;
  int trials = 0;  // the repetitions the interval is for (paper: 100); none are drawn
};

std::vector<ProtocolRow> random_subset_protocol(const SearchResults& results,
                                                const std::vector<int>& pool, int trials);

struct SelectionOptions {
  std::optional<double> gamma;  // empty: the experiment's tuning.gamma, else 1/K
  int protocol_trials = 100;    // paper section 5.2: 100 repetitions
  bool run_protocol = true;
};

struct SelectionReport {
  std::string scope;       // optimizer name, or "all"
  std::vector<int> pool;   // candidate indices
  int num_candidates = 0;  // K (the planned pool: every candidate is charged)
  bool regression = false;
  int best_candidate = -1;     // -1 if nothing finished
  double best_accuracy = 0;    // mean final validation accuracy (NaN for regression)
  double best_val_mse = 0;     // mean final validation MSE (regression; NaN otherwise)
  double best_train_loss = 0;  // mean final training loss (shown; not covered by epsilon)
  double best_score = 0;       // the selection score (accuracy, or -validation MSE)
  double delta = 0;            // delta_f
  double gamma = 0;
  double delta2 = 0;
  double epsilon_single_run = 0;  // "dishonest": the best run alone
  double epsilon_ma = 0;          // honest, moments-accountant composition over K
  double epsilon_lt = 0;          // honest, Liu-Talwar
  LtRun lt;
  std::vector<ProtocolRow> protocol;
};

SelectionReport honest_selection(const SearchResults& results, const std::vector<int>& pool,
                                 const std::string& scope, const SelectionOptions& options = {});
// One report per optimizer (K = that optimizer's candidate count), in config order.
std::vector<SelectionReport> honest_selection_per_optimizer(const SearchResults& results,
                                                            const SelectionOptions& options = {});
// The whole search as one pool (K = all candidates).
SelectionReport honest_selection_all(const SearchResults& results,
                                     const SelectionOptions& options = {});

}  // namespace dplab::tuning
