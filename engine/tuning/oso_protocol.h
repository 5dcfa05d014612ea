// The OSO paper's tuning protocol (Galli et al. 2023, "Experiments"): for each strategy a grid
// search whose WHOLE grid meets a budget epsilon, per granularity k:
//   FixedThreshold (dpsgd)      rho x C        k^2 runs
//   FixedQuantile               rho x gamma    5k runs   (gamma in {0.1, 0.3, 0.5, 0.7, 0.9}, C_0)
//   Online (oso-dpsgd)          rho            k runs    (C_0)
//   AdamWOSM (dpadamwosm)       C              k runs    (alpha = 1e-3 in its ESS)
// with rho k log-spaced values in [10^-2.5, 10^1.5], C in [1e-2, 1e2], C_0 = 0.1.
// Budget: the K runs of a grid compose (moments accountant = RDP composition of K T steps of
// the same subsampled Gaussian), so each run's sigma is the accountant's calibration for
// (epsilon, delta) over K * T steps (privacy::calibrate_noise_multiplier). Seeds are not
// charged (as in the paper: "Runs with different seeds are not accounted"), so the released
// epsilon covers ONE seed's grid and the selection is over the non-private mean of the seeds:
// dplab labels the numbers accordingly (a plan-level comparison, not an honest release).
// Each run is validated every eval_every steps; its score is the best checkpoint (max accuracy
// or min MSE); a configuration's score is the mean over seeds; the grid's result the best one.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/limits.h"
#include "data/dataset.h"
#include "models/model.h"
#include "optim/optimizer.h"

namespace dplab::tuning {

struct OsoProtocolConfig {
  std::string name = "oso-protocol";
  std::string dataset = "fashion-mnist";
  double validation_fraction = 0.2;
  std::optional<std::int64_t> train_subset;       // first n training rows only (a scaled run)
  std::optional<std::int64_t> validation_subset;  // first n validation rows only (a scaled run)
  models::ModelKind model = models::ModelKind::kConvAutoencoder;
  std::vector<double> epsilons{1, 2, 3, 4};
  double delta = 1e-5;
  std::vector<int> granularities{5, 7, 9};
  std::vector<optim::OptimizerKind> strategies{
      optim::OptimizerKind::kOsoDpSgd, optim::OptimizerKind::kDpSgd,
      optim::OptimizerKind::kFixedQuantile, optim::OptimizerKind::kDpAdamWosm};
  double lot_size = 512;
  std::int64_t steps = 1170;  // 10 epochs of 60,000 at 512
  int seeds = 5;
  std::int64_t eval_every = 50;
  double clip_low = 1e-2, clip_high = 1e2;
  double learning_rate_log10_low = -2.5, learning_rate_log10_high = 1.5;
  std::vector<double> target_quantiles{0.1, 0.3, 0.5, 0.7, 0.9};
  double initial_clip = 0.1;
  std::uint64_t seed = 1;
};

// Reads a preset (JSON object with the fields above; unknown keys rejected, errors are
// InvalidArgument "<origin>: <key>: <what>" naming the key and showing a bad value as an excerpt,
// values checked by invalid_oso_field).
OsoProtocolConfig parse_oso_protocol(const std::string& json_text, const std::string& origin);

// The protocol's rules, in one place: the preset parser, dplab-cli's flags and the GUI's
// overrides all check a config with invalid_oso_field, which returns the first field that breaks
// one (its preset key, e.g. "seeds", and the rule) or nothing. Lists hold 1 to
// kMaxOsoListLength values, k is at most kMaxOsoGranularity, and the whole protocol at most
// kMaxTrainingJobs training runs.
inline constexpr std::size_t kMaxOsoListLength = 100;
inline constexpr int kMaxOsoGranularity = 50;
struct OsoFieldError {
  std::string key;
  std::string rule;
};
std::optional<OsoFieldError> invalid_oso_field(const OsoProtocolConfig& config);

struct OsoGridResult {
  optim::OptimizerKind strategy = optim::OptimizerKind::kOsoDpSgd;
  double epsilon = 0;
  int granularity = 0;
  int runs = 0;                 // K, runs charged to the grid's budget
  double noise_multiplier = 0;  // sigma of every run of the grid (calibrated for K T steps)
  double score = 0;      // best configuration's mean best-checkpoint metric (NaN: all diverged)
  double score_std = 0;  // its standard deviation over seeds (NaN with one seed)
  double learning_rate = 0, clip = 0, target_quantile = 0;  // its hyperparameters
  // Every run of the grid, in grid order then seed order, so the choice above can be checked:
  // its hyperparameters, seed index, best checkpoint (NaN: diverged, no finite checkpoint), the
  // step of that checkpoint (0 when diverged) and the run's wall time.
  struct Run {
    double learning_rate = 0, clip = 0, target_quantile = 0;
    int seed = 0;
    double best = 0;
    std::int64_t best_step = 0;
    double seconds = 0;
  };
  std::vector<Run> all_runs;
};

// One configuration of a strategy's grid at granularity k (the table at the top): the learning
// rates and clips log-spaced over the config's ranges; target_quantile for FixedQuantile only.
struct OsoGridPoint {
  double learning_rate = 0, clip = 0, target_quantile = 0;
};
std::vector<OsoGridPoint> oso_grid(const OsoProtocolConfig& config, optim::OptimizerKind kind,
                                   int k);

// What a config will run, before running it: per (granularity k, strategy) the grid's K runs;
// in all total_runs = sum_k sum_strategy K x seeds x |epsilons| training runs of T steps, about
// example_gradients = total_runs x T x L per-example gradients (L the expected lot size).
struct OsoGridPlan {
  int granularity = 0;
  optim::OptimizerKind strategy = optim::OptimizerKind::kOsoDpSgd;
  int runs = 0;  // K
};
struct OsoProtocolPlan {
  std::vector<OsoGridPlan> grids;  // granularity-major, in the config's strategy order
  std::int64_t total_runs = 0;
  double example_gradients = 0;
};
OsoProtocolPlan plan_oso_protocol(const OsoProtocolConfig& config);

// How the protocol's runs are executed (not what they compute).
struct OsoRunOptions {
  // A grid's runs go side by side on this many threads (0: all cores), each run on one; the
  // results do not depend on the count.
  int threads = 1;
  // Train at a lower scheduling priority (core/thread_priority.h, on every thread that runs a
  // run), so that the GUI thread gets a core at once while all cores train (as RunOptions).
  bool background_priority = false;
};

// Runs the protocol; progress(done, total) after each training run (may be empty; called from
// worker threads, never two at once). `cancel` (may be null) is checked before every run and,
// inside a run, before every step (training hooks); when set the protocol throws
// dplab::Cancelled.
std::vector<OsoGridResult> run_oso_protocol(
    const OsoProtocolConfig& config, const data::TrainValidationSplit& data,
    const std::function<void(std::int64_t, std::int64_t)>& progress = {},
    const std::atomic<bool>* cancel = nullptr, const OsoRunOptions& options = {});

// Which hyperparameters a strategy's grid searches (grid_of in oso_protocol.cpp): a learning rate
// rho for every strategy but AdamWOSM (fixed alpha = 1e-3); a target quantile gamma only for
// FixedQuantile. What a result table shows for a grid, and what it leaves as "-".
bool oso_grid_has_learning_rate(optim::OptimizerKind kind);
bool oso_grid_has_quantile(optim::OptimizerKind kind);

// The paper's strategy names: "Online (oso-dpsgd)", "FixedThreshold (dpsgd)", "FixedQuantile",
// "AdamWOSM" (other optimizers: their option name).
std::string oso_strategy_label(optim::OptimizerKind kind);

// What the protocol's epsilon is, for every place that prints one: a per-grid PLAN (seeds not
// charged, selection over seeds not paid for), at the config's delta.
std::string oso_epsilon_note(double delta);

// Loads and splits the preset's data set (seeded by config.seed), trimming to train_subset and
// validation_subset.
data::TrainValidationSplit load_oso_protocol_data(const OsoProtocolConfig& config);

// Whether a larger score is better (accuracy) or a smaller one (MSE, for the autoencoder).
bool higher_is_better(models::ModelKind model);

}  // namespace dplab::tuning
