// Release mode private-subsampled run FOR REAL (Koskela & Kulkarni 2023; accounting in
// privacy/selection/subsampled_tuning.h, settings in experiment/release_config.h):
//   1. draw_tuning_subset: X1 = a Poisson(q) subsample of the training rows, from a seed derived
//      from the experiment seed (never from the data); X2 = the other rows;
//   2. tuning_phase_config: the experiment as a plain private Papernot-Steinke search on X1, its
//      lots drawn at exactly the rate the accountant charges, gamma_sub =
//      privacy::subset_sampling_rate(gamma, q, batching), gamma = L/n the final run's rate (n =
//      the FULL training size), and its noisy sums divided by the expected lot on the EXPECTED
//      subset, L1 = gamma_sub q n;
//   3. final_run_config: ONE run of the tuning winner's hyperparameters, the learning rate times
//      experiment::learning_rate_multiplier (a heuristic), on X (variant 1: rate L/n, divided by
//      L) or X2 (variant 2: rate L/n, divided by L2 = (L/n)(1 - q) n, the expected lot on the
//      expected |X2|), with its own seed stream (no noise shared with the tuning runs, which the
//      composition assumes). It keeps release = private-subsampled, so tuning::release_cost of
//      its results is the two-phase epsilon.
// Public sizes only (issue #42 finding 6): every rate and every normaliser is computed from L, n
// and q (PrivacyConfig::sampling_rate carries the rate, lot_size the normaliser), never from the
// realised |X1| or |X2| = n - |X1|, which depend on whether a given example fell into X1 (add/
// remove adjacency), like a realised lot size. Dividing by such a public constant is post-
// processing; dividing by a realised size would not be (docs/privacy-model.md). The realised
// sizes only decide which rows the phases sample from.
// Both sub-configs carry delta explicitly (the full data's), so every epsilon uses the same one.
// Pure functions of their inputs; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "experiment/experiment_config.h"
#include "tuning/private_search.h"
#include "tuning/runner.h"

namespace dplab::tuning {

// Seed streams of the two draws (derive_seed(experiment seed, stream)).
inline constexpr std::uint64_t kTuningSubsetStream = 0x4b4b32335375ULL;  // "KK23Su"
inline constexpr std::uint64_t kFinalRunStream = 0x4b4b32334669ULL;      // "KK23Fi"
inline constexpr std::uint64_t kReplicateStream = 0x4b4b32335265ULL;     // "KK23Re"

// The seed of replicate r's whole procedure: the experiment seed for r = 0 (so one replicate is
// exactly the single procedure), derive_seed(seed, kReplicateStream, r) after it.
std::uint64_t subsampled_replicate_seed(std::uint64_t experiment_seed, int replicate);

struct SubsampledSplits {
  std::shared_ptr<const data::TrainValidationSplit> tuning;  // X1 + the validation set
  std::shared_ptr<const data::TrainValidationSplit> final;   // X or X2 + the validation set
  std::int64_t full_training_size = 0;                       // n
};

// Row indices of X1 (sorted): each of the n rows kept independently with probability q.
std::vector<Index> draw_tuning_subset(Index n, double tuning_fraction, std::uint64_t seed);

// The splits of step 1 for config.release (subsampled); throws InvalidArgument when X1 or the
// final data is empty.
SubsampledSplits split_for_subsampled_tuning(const experiment::ExperimentConfig& config,
                                             const data::TrainValidationSplit& data);

// The final run's normaliser, the expected lot on the expected final data: L on the full data
// (variant 1); gamma (1 - q) n on X2 (variant 2), gamma = L/n. Its rate is gamma either way.
// Throws InvalidArgument when it is below 1.
double final_lot_size(const experiment::ExperimentConfig& config, std::int64_t full_training_size);

// Step 2: `config` with release = plain private ps (same law), lots at the rate gamma_sub =
// subset_sampling_rate(L/n, q, batching) (privacy.sampling_rate) divided by gamma_sub q n
// (privacy.lot_size). Throws InvalidArgument when that expected lot is below 1.
experiment::ExperimentConfig tuning_phase_config(const experiment::ExperimentConfig& config,
                                                 std::int64_t full_training_size);

// Step 3: a one-candidate config for `winner` (a candidate of the tuning phase).
experiment::ExperimentConfig final_run_config(const experiment::ExperimentConfig& config,
                                              const experiment::Candidate& winner,
                                              std::int64_t full_training_size);

// The whole procedure, steps 1-3, as `dplab-cli tune --release private-subsampled` and the GUI
// run it (one implementation).
struct SubsampledRunHooks {
  // Called with each phase's Runner before it runs (add listeners, keep a pointer to cancel or
  // pause it) and with nullptr once it has run (an exception included). `final_phase` tells the
  // two apart. May be empty.
  std::function<void(Runner* runner, bool final_phase)> on_runner;
};

// One replicate's tuning phase. CURATOR ONLY, like the fields of SubsampledRun below.
struct SubsampledReplicate {
  std::int64_t subset_size = 0;   // |X1|
  std::int64_t runs_trained = 0;  // K
  double lot_size_on_subset = 0.0;
  int winner_candidate = -1;
  std::string winner_label;
  double winner_score = 0.0;
  bool has_final = false;
};

struct SubsampledRun {
  // CURATOR ONLY (docs/privacy-model.md): neither epsilon covers them; never shown nor exported
  // beside the released result. With R replicates: replicate 0's, runs_trained the sum over R.
  std::vector<SubsampledReplicate> replicates;  // one per replicate run
  std::int64_t subset_size = 0;                 // |X1|
  std::int64_t runs_trained = 0;                // K
  double lot_size_on_subset = 0.0;              // follows |X1|
  int winner_candidate = -1;                    // the tuning winner (-1: K = 0 or cancelled)
  std::string winner_label;
  double winner_score = 0.0;
  // CURATOR ONLY: the first training-guard warning of any run of the procedure, the tuning
  // phase's included (tuning/search_warnings.h shows it without a count); "" if none warned.
  std::string first_warning;
  // RELEASED (when has_final): the final runs' results, training_size = n (never |X2|), their
  // config keeps release = private-subsampled and repeats = R so release_cost gives the
  // two-phase epsilon composed over the R replicates. R = 1: the one final run. R > 1: one
  // candidate (and optimizer entry) per replicate that trained a final run, in replicate order.
  bool has_final = false;
  SearchResults final_results;
  PrivatePlan final_plan;  // R replicates, one job each (none for K = 0)
  bool cancelled = false;
};

// Steps 1-3 on `data` (classification only; throws InvalidArgument otherwise). K = 0 or a
// cancelled tuning phase releases nothing (has_final = false): no final run is trained.
// config.repeats = R > 1: R independent whole procedures (replicate r from
// subsampled_replicate_seed(seed, r): its own X1, search, and final run); a cancelled phase
// stops the replicates after it. The hooks are called for every phase of every replicate.
SubsampledRun run_subsampled_search(const experiment::ExperimentConfig& config,
                                    std::shared_ptr<const data::TrainValidationSplit> data,
                                    const RunOptions& options,
                                    const SubsampledRunHooks& hooks = {});

}  // namespace dplab::tuning
