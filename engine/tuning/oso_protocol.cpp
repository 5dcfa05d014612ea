// The OSO paper's grid protocol (see oso_protocol.h).
#include "tuning/oso_protocol.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <numeric>
#include <tuple>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "core/limits.h"
#include "core/random.h"
#include "core/thread_priority.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"
#include "models/model_metric.h"
#include "privacy/accounting/rdp_accountant.h"
#include "training/trainer.h"

namespace dplab::tuning {
namespace {

using nlohmann::json;

// Best checkpoint of a run's curve: max accuracy or min MSE, and its step; NaN points
// (divergence) skipped; {NaN, 0} when no point is finite.
struct Checkpoint {
  double value = std::numeric_limits<double>::quiet_NaN();
  std::int64_t step = 0;
};
Checkpoint best_checkpoint(const training::TrainingResult& run, bool higher) {
  Checkpoint best;
  for (const auto& p : run.curve) {
    const double v = higher ? p.val_accuracy : p.val_mse;
    if (!std::isfinite(v)) continue;
    if (std::isnan(best.value) || (higher ? v > best.value : v < best.value))
      best = {v, p.iteration};
  }
  return best;
}

}  // namespace

bool higher_is_better(models::ModelKind model) {
  return models::higher_is_better(models::validation_metric({model, 100, {}}));
}

data::TrainValidationSplit load_oso_protocol_data(const OsoProtocolConfig& config) {
  data::DatasetSource source = data::source_for(config.dataset);
  source.seed = config.seed;
  const data::Dataset all = data::load_dataset(source);
  data::TrainValidationSplit split =
      data::prepare_split(all, config.validation_fraction, config.seed);
  // The first n rows, whatever the storage (pixels or floats): data::select_rows.
  const auto keep_first = [](data::Dataset& d, std::optional<std::int64_t> n) {
    if (!n || *n >= d.size()) return;
    std::vector<Index> rows(static_cast<std::size_t>(*n));
    std::iota(rows.begin(), rows.end(), Index{0});
    d = data::select_rows(d, rows);
  };
  keep_first(split.train, config.train_subset);
  keep_first(split.validation, config.validation_subset);
  return split;
}

bool oso_grid_has_learning_rate(optim::OptimizerKind kind) {
  return kind != optim::OptimizerKind::kDpAdamWosm;
}

bool oso_grid_has_quantile(optim::OptimizerKind kind) {
  return kind == optim::OptimizerKind::kFixedQuantile;
}

std::string oso_strategy_label(optim::OptimizerKind kind) {
  switch (kind) {
    case optim::OptimizerKind::kOsoDpSgd:
      return "Online (oso-dpsgd)";
    case optim::OptimizerKind::kDpSgd:
      return "FixedThreshold (dpsgd)";
    case optim::OptimizerKind::kFixedQuantile:
      return "FixedQuantile";
    case optim::OptimizerKind::kDpAdamWosm:
      return "AdamWOSM";
    default:
      return optim::to_string(kind);
  }
}

std::string oso_epsilon_note(double delta) {
  char text[320];
  std::snprintf(text, sizeof text,
                "epsilon is a per-GRID plan (delta = %g): each run's sigma is calibrated so the "
                "grid's K runs composed (MA) meet it; seeds are not charged (as in the paper), so "
                "it does not cover the selection over seeds.",
                delta);
  return text;
}

std::vector<OsoGridResult> run_oso_protocol(
    const OsoProtocolConfig& config, const data::TrainValidationSplit& data,
    const std::function<void(std::int64_t, std::int64_t)>& progress,
    const std::atomic<bool>* cancel, const OsoRunOptions& options) {
  if (auto bad = invalid_oso_field(config)) throw InvalidArgument(bad->key + ": " + bad->rule);
  if (options.threads < 0) throw InvalidArgument("threads: must be >= 0 (0: all cores)");
  const bool higher = higher_is_better(config.model);
  const double n = static_cast<double>(data.train.size());
  if (config.lot_size > n) {
    char text[160];
    std::snprintf(text, sizeof text, "lot_size: L = %g exceeds the %.0f training rows",
                  config.lot_size, n);
    throw InvalidArgument(text);
  }
  const double q = config.lot_size / n;
  const std::int64_t total = plan_oso_protocol(config).total_runs;
  // The runs of a grid are independent (each seeded by its seed index alone, single-threaded), so
  // they run side by side, one per arena slot, and every score is the same float on any thread
  // count; the selection below reads them in grid order, as a sequential loop would.
  tbb::task_arena arena(options.threads > 0 ? options.threads
                                            : tbb::this_task_arena::max_concurrency());
  std::mutex progress_mutex;  // progress() is called from the arena's threads, one at a time
  std::int64_t done = 0;
  training::TrainingHooks hooks;
  hooks.cancel = cancel;

  std::vector<OsoGridResult> results;
  for (int k : config.granularities) {
    for (auto strategy : config.strategies) {
      const auto grid = oso_grid(config, strategy, k);
      const auto runs = static_cast<std::int64_t>(grid.size());
      for (double epsilon : config.epsilons) {
        OsoGridResult r;
        r.strategy = strategy;
        r.epsilon = epsilon;
        r.granularity = k;
        r.runs = static_cast<int>(runs);
        // The grid's K runs compose to K T steps of the same subsampled Gaussian (MA).
        r.noise_multiplier =
            privacy::calibrate_noise_multiplier(epsilon, config.delta, q, runs * config.steps);
        r.score = std::numeric_limits<double>::quiet_NaN();
        // all_runs[g * seeds + s]: run (g, s), with its best checkpoint.
        const auto seeds = static_cast<std::size_t>(config.seeds);
        r.all_runs.resize(grid.size() * seeds);
        const auto run_one = [&](std::size_t index) {
          const std::size_t g = index / seeds;
          const int s = static_cast<int>(index % seeds);
          training::TrainingConfig tc;
          tc.model.kind = config.model;
          tc.optimizer = optim::default_spec(strategy);
          if (strategy != optim::OptimizerKind::kDpAdamWosm)
            tc.optimizer.learning_rate = grid[g].learning_rate;
          tc.optimizer.target_quantile =
              grid[g].target_quantile > 0 ? grid[g].target_quantile : 0.5;
          tc.dp = {grid[g].clip, r.noise_multiplier, config.lot_size};
          tc.steps = config.steps;
          tc.eval_every = config.eval_every;
          tc.seed = derive_seed(config.seed, static_cast<std::uint64_t>(s));
          if (cancel && cancel->load()) throw Cancelled();
          if (options.background_priority) lower_this_thread_priority();
          const auto run = training::train(data, tc, hooks);
          if (run.cancelled) throw Cancelled();
          const Checkpoint best = best_checkpoint(run, higher);
          r.all_runs[index] = {grid[g].learning_rate,
                               grid[g].clip,
                               grid[g].target_quantile,
                               s,
                               best.value,
                               best.step,
                               run.wall_seconds};
          const std::lock_guard lock(progress_mutex);
          ++done;
          if (progress) progress(done, total);
        };
        // One run per task (simple_partitioner, grain 1): a run is minutes long. A Cancelled
        // thrown by a task cancels the others and is rethrown here.
        arena.execute([&] {
          tbb::parallel_for(
              tbb::blocked_range<std::size_t>(0, r.all_runs.size(), 1),
              [&](const tbb::blocked_range<std::size_t>& range) {
                for (std::size_t i = range.begin(); i != range.end(); ++i) run_one(i);
              },
              tbb::simple_partitioner());
        });
        for (std::size_t g = 0; g < grid.size(); ++g) {
          double sum = 0, sum_sq = 0;
          int finite = 0;
          for (int s = 0; s < config.seeds; ++s) {
            const double score = r.all_runs[g * seeds + s].best;
            if (!std::isfinite(score)) continue;  // diverged: no finite checkpoint
            sum += score;
            sum_sq += score * score;
            ++finite;
          }
          if (finite < config.seeds) continue;  // a configuration that diverges is not selected
          const double mean = sum / finite;
          if (std::isnan(r.score) || (higher ? mean > r.score : mean < r.score)) {
            r.score = mean;
            // Sample standard deviation; one seed has none (NaN, printed as such, not as 0).
            r.score_std =
                finite > 1
                    ? std::sqrt(std::max(0.0, (sum_sq - finite * mean * mean) / (finite - 1)))
                    : std::numeric_limits<double>::quiet_NaN();
            r.learning_rate = grid[g].learning_rate;
            r.clip = grid[g].clip;
            r.target_quantile = grid[g].target_quantile;
          }
        }
        results.push_back(r);
      }
    }
  }
  return results;
}

}  // namespace dplab::tuning
