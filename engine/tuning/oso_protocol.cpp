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

// Runs a name lookup (model, optimizer) and reports its error under the key path.
template <class F>
void named(const std::string& path, F lookup) {
  try {
    lookup();
  } catch (const Error& e) {
    json_fail(path, e.what());
  }
}

// The preset's keys into `c` (a missing key keeps its default); the rules are
// invalid_oso_field's. Throws ParseError "<key>: <what>".
void read_preset(const json& j, OsoProtocolConfig& c) {
  // Counts held in an int: read whole (never truncated), their rules checked afterwards.
  constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
  JsonReader r(j, "");
  r.optional_choice("protocol", {"oso"}, "protocol");
  c.name = r.string_or("name", c.name);
  c.dataset = r.string_or("dataset", c.dataset);
  c.validation_fraction = r.number_or("validation_fraction", c.validation_fraction);
  if (auto n = r.optional_integer("train_subset")) c.train_subset = *n;
  if (auto n = r.optional_integer("validation_subset")) c.validation_subset = *n;
  if (auto model = r.optional_string("model"))
    named(r.key_path("model"), [&] { c.model = models::parse_model_kind(*model); });
  if (auto epsilons = r.optional_numbers("epsilons")) c.epsilons = *epsilons;
  c.delta = r.number_or("delta", c.delta);
  if (auto ks = r.optional_integers("granularities", 0, kIntMax))
    c.granularities.assign(ks->begin(), ks->end());
  if (auto names = r.optional_strings("strategies")) {
    c.strategies.clear();
    for (std::size_t i = 0; i < names->size(); ++i) {
      named(r.element_path("strategies", i),
            [&] { c.strategies.push_back(optim::parse_optimizer_kind((*names)[i])); });
    }
  }
  c.lot_size = r.number_or("lot_size", c.lot_size);
  if (auto steps = r.optional_integer("steps")) c.steps = *steps;
  if (auto seeds = r.optional_integer("seeds", 0, kIntMax)) c.seeds = static_cast<int>(*seeds);
  if (auto every = r.optional_integer("eval_every")) c.eval_every = *every;
  if (auto range = r.optional_low_high("clip_range")) std::tie(c.clip_low, c.clip_high) = *range;
  if (auto range = r.optional_low_high("learning_rate_log10"))
    std::tie(c.learning_rate_log10_low, c.learning_rate_log10_high) = *range;
  if (auto quantiles = r.optional_numbers("target_quantiles")) c.target_quantiles = *quantiles;
  c.initial_clip = r.number_or("initial_clip", c.initial_clip);
  if (auto seed = r.optional_seed("seed")) c.seed = *seed;
  r.reject_unknown();
}

std::vector<double> log_grid(double low_log10, double high_log10, int k) {
  std::vector<double> values;
  for (int i = 0; i < k; ++i) {
    const double exponent = k == 1 ? low_log10 : low_log10 + (high_log10 - low_log10) * i / (k - 1);
    values.push_back(std::pow(10.0, exponent));
  }
  return values;
}

struct Configuration {
  double learning_rate = 0, clip = 0, target_quantile = 0;
};

std::vector<Configuration> grid_of(const OsoProtocolConfig& c, optim::OptimizerKind kind, int k) {
  const auto rates = log_grid(c.learning_rate_log10_low, c.learning_rate_log10_high, k);
  const auto clips = log_grid(std::log10(c.clip_low), std::log10(c.clip_high), k);
  std::vector<Configuration> grid;
  switch (kind) {
    case optim::OptimizerKind::kOsoDpSgd:
      for (double r : rates) grid.push_back({r, c.initial_clip, 0});
      break;
    case optim::OptimizerKind::kFixedQuantile:
      for (double r : rates)
        for (double g : c.target_quantiles) grid.push_back({r, c.initial_clip, g});
      break;
    case optim::OptimizerKind::kDpAdamWosm:
      for (double clip : clips) grid.push_back({1e-3, clip, 0});
      break;
    default:  // FixedThreshold and the other fixed-C optimizers: rho x C
      for (double r : rates)
        for (double clip : clips) grid.push_back({r, clip, 0});
      break;
  }
  return grid;
}

// Best checkpoint of a run's curve: max accuracy or min MSE; NaN points (divergence) skipped.
double best_checkpoint(const training::TrainingResult& run, bool higher) {
  double best = std::numeric_limits<double>::quiet_NaN();
  for (const auto& p : run.curve) {
    const double v = higher ? p.val_accuracy : p.val_mse;
    if (!std::isfinite(v)) continue;
    if (std::isnan(best) || (higher ? v > best : v < best)) best = v;
  }
  return best;
}

}  // namespace

bool higher_is_better(models::ModelKind model) {
  return models::higher_is_better(models::validation_metric({model, 100, {}}));
}

std::optional<OsoFieldError> invalid_oso_field(const OsoProtocolConfig& c) {
  const auto bad = [](const char* key, std::string rule) {
    return std::optional<OsoFieldError>(OsoFieldError{key, std::move(rule)});
  };
  const auto finite = [](double x) { return std::isfinite(x); };
  if (!(c.validation_fraction > 0 && c.validation_fraction < 1))
    return bad("validation_fraction", "must be in (0, 1)");
  if (c.train_subset && *c.train_subset < 2) return bad("train_subset", "must be >= 2");
  if (c.validation_subset && *c.validation_subset < 1)
    return bad("validation_subset", "must be >= 1");
  const auto list_rule = [](std::size_t n) { return n == 0 || n > kMaxOsoListLength; };
  const std::string list_size = "needs 1 to " + std::to_string(kMaxOsoListLength) + " values";
  if (list_rule(c.epsilons.size())) return bad("epsilons", list_size);
  for (double e : c.epsilons)
    if (!(e > 0) || !finite(e)) return bad("epsilons", "must be finite and > 0");
  if (!(c.delta > 0 && c.delta < 1)) return bad("delta", "must be in (0, 1)");
  if (list_rule(c.granularities.size())) return bad("granularities", list_size);
  for (int k : c.granularities)
    if (k < 1 || k > kMaxOsoGranularity)
      return bad("granularities", "must be in [1, " + std::to_string(kMaxOsoGranularity) + "]");
  if (list_rule(c.strategies.size())) return bad("strategies", list_size);
  if (!(c.lot_size >= 1) || !finite(c.lot_size)) return bad("lot_size", "must be >= 1");
  if (c.steps < 1 || c.steps > kMaxTrainingSteps)
    return bad("steps", "must be in [1, " + std::to_string(kMaxTrainingSteps) + "]");
  if (c.seeds < 1 || c.seeds > kMaxTrainingJobs)
    return bad("seeds", "must be in [1, " + std::to_string(kMaxTrainingJobs) + "]");
  if (c.eval_every < 1) return bad("eval_every", "must be >= 1");
  if (!(c.clip_low > 0 && c.clip_high >= c.clip_low) || !finite(c.clip_high))
    return bad("clip_range", "expected 0 < low <= high");
  if (!(c.learning_rate_log10_high >= c.learning_rate_log10_low) ||
      !finite(c.learning_rate_log10_low) || !finite(c.learning_rate_log10_high))
    return bad("learning_rate_log10", "expected finite low <= high");
  if (list_rule(c.target_quantiles.size())) return bad("target_quantiles", list_size);
  for (double g : c.target_quantiles)
    if (!(g > 0 && g < 1)) return bad("target_quantiles", "must be in (0, 1)");
  if (!(c.initial_clip > 0) || !finite(c.initial_clip)) return bad("initial_clip", "must be > 0");
  // With every list capped the count cannot overflow: over <= 100 k's and <= 100 strategies,
  // K (<= max(k^2, 100 k) = 5,000) x seeds (<= 10^6) x |epsilons| (<= 100) sums to <= 5e15.
  const std::int64_t runs = plan_oso_protocol(c).total_runs;
  if (runs > kMaxTrainingJobs)
    return bad("seeds", "gives " + std::to_string(runs) +
                            " training runs (K per grid x seeds x budgets); at most " +
                            std::to_string(kMaxTrainingJobs) + " are allowed");
  return std::nullopt;
}

OsoProtocolConfig parse_oso_protocol(const std::string& json_text, const std::string& origin) {
  const json j = parse_json_text(json_text, origin);  // depth-capped, errors name line and byte
  OsoProtocolConfig c;
  try {
    read_preset(j, c);
  } catch (const ParseError& e) {
    throw InvalidArgument(origin + ": " + e.what());
  }
  if (auto bad = invalid_oso_field(c))
    throw InvalidArgument(origin + ": " + bad->key + ": " + bad->rule);
  return c;
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

OsoProtocolPlan plan_oso_protocol(const OsoProtocolConfig& config) {
  OsoProtocolPlan plan;
  for (int k : config.granularities) {
    for (auto strategy : config.strategies) {
      const int runs = static_cast<int>(grid_of(config, strategy, k).size());
      plan.grids.push_back({k, strategy, runs});
      plan.total_runs += static_cast<std::int64_t>(runs) * config.seeds *
                         static_cast<std::int64_t>(config.epsilons.size());
    }
  }
  plan.example_gradients =
      static_cast<double>(plan.total_runs) * static_cast<double>(config.steps) * config.lot_size;
  return plan;
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
      const auto grid = grid_of(config, strategy, k);
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
        // scores[g * seeds + s]: run (g, s)'s best checkpoint.
        const auto seeds = static_cast<std::size_t>(config.seeds);
        std::vector<double> scores(grid.size() * seeds);
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
          scores[index] = best_checkpoint(run, higher);
          const std::lock_guard lock(progress_mutex);
          ++done;
          if (progress) progress(done, total);
        };
        // One run per task (simple_partitioner, grain 1): a run is minutes long. A Cancelled
        // thrown by a task cancels the others and is rethrown here.
        arena.execute([&] {
          tbb::parallel_for(
              tbb::blocked_range<std::size_t>(0, scores.size(), 1),
              [&](const tbb::blocked_range<std::size_t>& range) {
                for (std::size_t i = range.begin(); i != range.end(); ++i) run_one(i);
              },
              tbb::simple_partitioner());
        });
        for (std::size_t g = 0; g < grid.size(); ++g) {
          double sum = 0, sum_sq = 0;
          int finite = 0;
          for (int s = 0; s < config.seeds; ++s) {
            const double score = scores[g * seeds + s];
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
