// Release mode private-linear-scaling run FOR REAL (Panda et al. 2024; accounting and the fit in
// privacy/selection/linear_scaling_tuning.h, settings in experiment/release_config.h):
//   1. the budgets: eps_f of the final run (sigma_f = privacy.noise_multiplier, q, T, delta), the
//      trial budgets eps_i = f_i eps_f and their noise multipliers sigma_i;
//   2. two trial rounds, each a private ma search of the WHOLE grid (every candidate once) at
//      sigma_i, same data, q, T and delta, with its own seed stream (no noise shared between
//      rounds or with the final run, which the composition assumes);
//   3. the fit: the round-2 winner w2 (best validation score over the grid; ties: the earlier
//      candidate) fixes the optimizer and every hyperparameter but the learning rate; the
//      round-1 winner w1 is the best among the candidates of round 1 on w2's line of the grid
//      (same optimizer entry, same values of every other hyperparameter), so r_1 and r_2 are
//      two points of one line r(eps) (ours: the paper tunes one optimizer, a grid may hold
//      several); r_i = eta_i T, r_f = extrapolate_radius(eps_1, r_1, eps_2, r_2, eps_f);
//   4. ONE final run of w2 with eta_f = r_f / T at sigma_f, released with the fit (the trial
//      budgets, r_1, r_2, r_f): all of it is covered by the composed epsilon.
// The trial rounds' scores, curves and models are CURATOR ONLY (not released: what the mode
// releases is the final run and the fit). Classification data sets only (the score is the
// validation accuracy); no objpert entries; repeats 1. Pure functions of their inputs apart from
// the training itself; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "data/dataset.h"
#include "experiment/experiment_config.h"
#include "privacy/selection/linear_scaling_tuning.h"
#include "tuning/private_search.h"
#include "tuning/runner.h"

namespace dplab::tuning {

// Seed streams of the two trial rounds and the final run (derive_seed(experiment seed, stream)).
inline constexpr std::uint64_t kTrialRoundStream[2] = {0x4c5354726931ULL,      // "LSTri1"
                                                       0x4c5354726932ULL};     // "LSTri2"
inline constexpr std::uint64_t kLinearScalingFinalStream = 0x4c5346696e6cULL;  // "LSFinl"

// Step 1 for `config` on n training examples (delta: the experiment's or the default for n).
privacy::LinearScalingBudgets linear_scaling_budgets_for(const experiment::ExperimentConfig& config,
                                                         std::int64_t training_size);

// Step 2: round i (0 or 1) as a plain private ma search at sigma = budgets.trial_noise[i].
experiment::ExperimentConfig trial_round_config(const experiment::ExperimentConfig& config,
                                                const privacy::LinearScalingBudgets& budgets,
                                                int round, std::int64_t training_size);

// The released fit (public: covered by the composed epsilon).
struct LinearScalingFit {
  privacy::LinearScalingBudgets budgets;  // eps_f, the trial budgets and their sigma_i
  double radius[2] = {0, 0};              // r_1, r_2 = eta_i* T
  double learning_rate[2] = {0, 0};
  double final_radius = 0.0;         // r_f
  double final_learning_rate = 0.0;  // eta_f = r_f / T
  std::int64_t steps = 0;            // T
  bool extrapolated = true;          // false: the line gave r_f <= 0, r_2 kept
  std::string winner_label;          // w2's label (its learning rate the round's)
};

// Step 4's config: one candidate, w2's hyperparameters with eta_f, seed stream of the final run,
// release.trial_candidates = K (so release_cost charges the 2K trials without the grid).
experiment::ExperimentConfig linear_scaling_final_config(const experiment::ExperimentConfig& config,
                                                         const experiment::Candidate& winner,
                                                         double final_learning_rate,
                                                         int trial_candidates,
                                                         std::int64_t training_size);

struct LinearScalingRunHooks {
  // Called with each phase's Runner before it runs (round 0, 1, then 2 = the final run) and
  // with nullptr once it has run (an exception included). May be empty.
  std::function<void(Runner* runner, int phase)> on_runner;
};

struct LinearScalingRun {
  // CURATOR ONLY: the trial rounds' winners and scores (the fit below is what is released).
  int round_winner[2] = {-1, -1};
  double round_score[2] = {0, 0};
  std::int64_t trial_runs = 0;  // 2K (public: K is the grid size)
  // CURATOR ONLY: the first training-guard warning of any run, the trial rounds' included
  // (tuning/search_warnings.h shows it without a count); "" if none warned.
  std::string first_warning;
  // RELEASED (when has_final): the fit and the final run's results (their config keeps release
  // = private-linear-scaling with trial_candidates = K, so release_cost gives the whole
  // procedure's epsilon).
  LinearScalingFit fit;
  bool has_final = false;
  SearchResults final_results;
  PrivatePlan final_plan;
  bool cancelled = false;
};

// Steps 1-4 on `data`. A cancelled round releases nothing (has_final = false). Throws
// InvalidArgument for what the mode cannot run (regression, objpert entries, sigma = 0,
// repeats != 1, a grid whose learning rates are not > 0).
LinearScalingRun run_linear_scaling_search(const experiment::ExperimentConfig& config,
                                           std::shared_ptr<const data::TrainValidationSplit> data,
                                           const RunOptions& options,
                                           const LinearScalingRunHooks& hooks = {});

}  // namespace dplab::tuning
