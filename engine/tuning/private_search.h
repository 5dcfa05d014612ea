// Private release modes run FOR REAL (release_config.h): the selection algorithm decides, before
// any training, how many runs to train and which candidate each one is; the runs are then
// trained afresh (new lots, new noise: every run has its own seed) in parallel by the Runner
// (RunOptions::plan), and only the best run's result is released.
//
// Why up front is exact: in Liu & Talwar's Alg. 1 (main paper Theorem 1) and in Papernot &
// Steinke's random stopping, the stopping time and the candidate draws never look at the data
// or the scores; only the final argmax does. Drawing them first and training the drawn runs in
// any order gives the same output distribution as the sequential algorithm.
//   ma  each candidate once;
//   lt  K = min(Geometric(gamma), Upsilon) (the sequential gamma-coin, integer hard stop);
//   ps  K ~ Poisson(mu) (K = 0 releases nothing) or truncated negative binomial (eta, gamma);
//   lt/ps draw each run's candidate uniformly, with replacement.
// `repeats` R = R independent replicate searches, each with its own draws and runs; the summary
// is the distribution of the released accuracy over replicates (mean, 95% CI).
// Score: final validation accuracy; with validation private, the accuracy plus Gaussian noise of
// std validation_noise_multiplier / n_val, and that noisy score is what is released. A search
// scored by loss (reconstruction models; results.h selection_score) is scored by the final
// validation MSE, lower is better, released as that MSE; validation private is refused for it
// (data_checks.h check_score_noise_applies).
// Seeds: everything from derive_seed(experiment seed, stream, index), or from OS entropy when
// release.secure (then nothing can be replayed). Pure functions of their inputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiment/experiment_config.h"
#include "tuning/results.h"
#include "tuning/runner.h"

namespace dplab::tuning {

struct ReplicatePlan {
  std::vector<int> candidates;  // the runs to train, in draw order
  std::int64_t first_job = 0;   // index of its first run in PrivatePlan::jobs
  bool hit_hard_stop = false;   // lt: stopped by Upsilon rather than by the coin
};

struct PrivatePlan {
  experiment::PrivateSelection selection = experiment::PrivateSelection::kMa;
  double gamma = 0.0;          // lt
  std::int64_t hard_stop = 0;  // lt: Upsilon
  std::vector<ReplicatePlan> replicates;
  std::vector<PlannedJob> jobs;  // all runs of all replicates; repeat = global run index
};

// The draws of every replicate (config.repeats of them) over `num_candidates` candidates.
// Throws InvalidArgument if config.release.mode is not private.
PrivatePlan draw_private_plan(const experiment::ExperimentConfig& config, int num_candidates,
                              std::uint64_t seed);

// A private release's runs as the runner's jobs: the stopping times and candidate draws do not
// depend on the data, so they are drawn up front (draw_private_plan over every candidate, from
// config.seed) and set as options.plan. Refuses, with InvalidArgument, what cannot run privately
// yet: objective-perturbation entries, and a regression data set (its score, the final training
// loss, is computed on the private training set and no epsilon covers it). Every door that runs a
// private MA / LT / PS search locally (tune, the Python module) draws its jobs here.
PrivatePlan draw_private_jobs(const experiment::ExperimentConfig& config,
                              const data::TrainValidationSplit& data, RunOptions& options);

struct ReplicateRelease {
  std::int64_t runs_trained = 0;
  bool complete = false;         // every run finished (a cancelled search releases nothing)
  int winner_candidate = -1;     // -1: nothing released (K = 0 or incomplete)
  std::int64_t winner_job = -1;  // index into SearchResults::jobs
  double released_score = 0.0;   // the (noisy, if validation private) accuracy released, or the
                                 // validation MSE of a search scored by loss
  bool hit_hard_stop = false;
};

struct PrivateRelease {
  std::vector<ReplicateRelease> replicates;
  std::int64_t runs_trained = 0;       // over all replicates
  int released = 0;                    // replicates that released a winner
  double mean_score = 0.0;             // over the released replicates
  double ci_low = 0.0, ci_high = 0.0;  // mean +- 1.96 s / sqrt(R) (NaN for R < 2)
  // What the release mode releases beside its winners, as the text of one JSON object ("" =
  // nothing): private-linear-scaling's {"linear_scaling_fit": ...}. Kept with the winners, so
  // every door that writes this release (tune, history export, the GUI's report) writes it.
  std::string released_facts;
};

// The seed of the validation-score noise of a search with this experiment seed (the CLI and the
// GUI use the same stream, so both release the same winner for the same config).
std::uint64_t score_noise_seed(std::uint64_t experiment_seed);

// The winner of each replicate: the best score among ITS runs (ties: the earlier draw).
// score_noise_seed seeds the validation-score noise (ignored for validation public).
PrivateRelease select_private_winners(const SearchResults& results, const PrivatePlan& plan,
                                      std::uint64_t score_noise_seed);

}  // namespace dplab::tuning
