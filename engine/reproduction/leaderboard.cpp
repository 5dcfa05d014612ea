#include "reproduction/leaderboard.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/mean_interval.h"
#include "core/random.h"
#include "core/validate.h"
#include "data/dataset_catalog.h"
#include "models/model_export.h"
#include "release/search_session.h"
#include "reproduction/number_text.h"
#include "tuning/experiment_data.h"
#include "tuning/release_cost.h"

namespace dplab::reproduction {
namespace {

using nlohmann::json;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr std::uint64_t kTestSplitSeed = 0x4c4254657374ULL;  // "LBTest": fixed for every seed
constexpr std::uint64_t kRowsSeed = 0x4c42526f7773ULL;       // "LBRows"

// The families: a label and one optimizer entry each (JSON, read by the one experiment parser).
// Automatic clipping (Bu et al. 2023, eq. (4.1): g_i/(||g_i|| + 0.01), sensitivity 1) has no clip
// axis, so its family searches the learning rate only: the question it answers is whether C's grid
// was needed.
std::vector<std::pair<std::string, json>> family_entries(const std::string& scale) {
  const json lr = scale == "tiny" ? json{0.1, 1.0} : json{0.03, 0.1, 0.3, 1.0, 3.0};
  const json adam_lr = scale == "tiny" ? json{0.003, 0.03} : json{0.001, 0.003, 0.01, 0.03, 0.1};
  const json clip = scale == "tiny" ? json{1.0} : json{0.3, 1.0};
  const auto flat = [&](const char* name, const json& rates) {
    return json{{"name", name}, {"grid", {{"learning_rate", rates}, {"clip", clip}}}};
  };
  return {
      {"dpsgd", flat("dpsgd", lr)},
      {"dpadam", flat("dpadam", adam_lr)},
      {"dpadamwosm", flat("dpadamwosm", adam_lr)},
      {"dpadam-bc", flat("dpadam-bc", adam_lr)},
      {"dpsgd-auto",
       {{"name", "dpsgd"}, {"clipping", "automatic"}, {"grid", {{"learning_rate", lr}}}}},
  };
}

json task_base(const std::string& label, const json& dataset, const json& model, double lot,
               std::int64_t steps, std::int64_t eval_every) {
  return {{"name", label},
          {"dataset", dataset},
          {"model", model},
          {"privacy",
           {{"noise_multiplier", 1.0}, {"lot_size", lot}, {"steps", steps}, {"delta", 1e-5}}},
          {"optimizers", json::array({{{"name", "dpsgd"}}})},
          {"eval_every", eval_every},
          {"seed", 1}};
}

LeaderboardTask make_task(const std::string& label, const json& base, std::int64_t max_rows) {
  LeaderboardTask task;
  task.label = label;
  task.base = experiment::parse_experiment(base);
  task.max_rows = max_rows;
  return task;
}

// The data of a task: the rows the search sees and the held-out test rows (fixed seed).
struct TaskData {
  data::Dataset search;
  data::Dataset test;
};

std::vector<Index> seeded_subset(Index n, Index keep, std::uint64_t seed) {
  std::vector<Index> rows(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) rows[static_cast<std::size_t>(i)] = i;
  if (keep >= n) return rows;
  Rng rng(seed);
  for (Index i = 0; i < keep; ++i) {  // partial Fisher-Yates
    const Index j = i + static_cast<Index>(rng.below(static_cast<std::uint64_t>(n - i)));
    std::swap(rows[static_cast<std::size_t>(i)], rows[static_cast<std::size_t>(j)]);
  }
  rows.resize(static_cast<std::size_t>(keep));
  std::sort(rows.begin(), rows.end());
  return rows;
}

TaskData load_task_data(const LeaderboardSpec& spec, const LeaderboardTask& task) {
  data::Dataset all = data::load_dataset(tuning::dataset_source(task.base));
  TaskData out;
  if (all.fixed_validation_begin >= 0) {  // Adult: its own test file is the test split
    std::vector<Index> head, tail;
    for (Index i = 0; i < all.size(); ++i)
      (i < all.fixed_validation_begin ? head : tail).push_back(i);
    out.search = data::select_rows(all, head);
    out.test = data::select_rows(all, tail);
  } else {
    const data::TrainValidationSplit split =
        data::split_train_validation(all, spec.test_fraction, kTestSplitSeed);
    out.search = split.train;
    out.test = split.validation;
  }
  if (task.max_rows > 0) {
    out.search =
        data::select_rows(out.search, seeded_subset(out.search.size(), task.max_rows, kRowsSeed));
    out.test = data::select_rows(
        out.test,
        seeded_subset(out.test.size(), std::max<Index>(200, task.max_rows / 4), kRowsSeed + 1));
  }
  out.search.notes = all.notes;
  out.search.preprocessing = all.preprocessing;
  return out;
}

// Expected full-data-run equivalents of one procedure (public: from the plan, never K).
double expected_compute(const experiment::ExperimentConfig& config, const tuning::ReleaseCost& c,
                        int k) {
  const auto& r = config.release;
  if (r.linear_scaling) return 2.0 * k + 1.0;
  if (r.subsampled) return r.tuning_fraction * c.expected_runs + 1.0;
  return c.expected_runs;
}

}  // namespace

std::string to_string(LeaderboardMethod method) {
  switch (method) {
    case LeaderboardMethod::kMa:
      return "ma";
    case LeaderboardMethod::kLt:
      return "lt";
    case LeaderboardMethod::kPs:
      return "ps";
    case LeaderboardMethod::kSubsampled:
      return "subsampled";
    case LeaderboardMethod::kLinearScaling:
      return "linear-scaling";
  }
  return "?";
}

LeaderboardSpec leaderboard_spec(const std::string& scale) {
  LeaderboardSpec spec;
  spec.scale = scale;
  spec.methods.assign(std::begin(kLeaderboardMethods), std::end(kLeaderboardMethods));
  const json logistic{{"kind", "logistic"}};
  // The shape of "small" and "small-cnn": 8,000-row subsamples, L = 256, T = 300, evaluated every
  // 100 steps.
  const auto small_task = [](const std::string& label, const std::string& source,
                             const json& model) {
    return make_task(label, task_base(label, {{"source", source}}, model, 256, 300, 100), 8000);
  };
  if (scale == "tiny") {
    // CI: 1,500-row subsamples of Adult and Fashion-MNIST, T = 20: every cell in seconds.
    spec.tasks.push_back(
        make_task("adult-logistic",
                  task_base("adult-logistic", {{"source", "adult"}}, logistic, 100, 20, 20), 1500));
    spec.tasks.push_back(make_task(
        "fashion-mnist-logistic",
        task_base("fashion-mnist-logistic", {{"source", "fashion-mnist"}}, logistic, 100, 20, 20),
        1500));
    spec.seeds = {1, 2, 3, 4, 5};
    spec.tuning_fraction = 0.5;
  } else if (scale == "small") {
    // The page's table: Adult and Fashion-MNIST subsamples of 8,000 rows, logistic, T = 300.
    spec.tasks.push_back(small_task("adult-logistic", "adult", logistic));
    spec.tasks.push_back(small_task("fashion-mnist-logistic", "fashion-mnist", logistic));
    spec.seeds = {1, 2, 3, 4, 5};
  } else if (scale == "small-cnn") {
    // The CNN row at the small scale's shape (issue #47: "the CNN on Fashion-MNIST at a stated
    // scale"): the same 8,000-row Fashion-MNIST subsample, test split, L, T and grids as "small",
    // with the 26,010-parameter CNN instead of logistic regression.
    spec.tasks.push_back(small_task("fashion-mnist-cnn", "fashion-mnist", {{"kind", "cnn"}}));
    spec.seeds = {1, 2, 3, 4, 5};
  } else if (scale == "paper") {
    // The full data sets at the main paper's shape (L = 256, T = 1000) and the CNN.
    spec.tasks.push_back(
        make_task("adult-logistic",
                  task_base("adult-logistic", {{"source", "adult"}}, logistic, 256, 1000, 200), 0));
    spec.tasks.push_back(
        make_task("fashion-mnist-logistic",
                  task_base("fashion-mnist-logistic", {{"source", "fashion-mnist"}}, logistic, 256,
                            1000, 200),
                  0));
    spec.tasks.push_back(make_task("fashion-mnist-cnn",
                                   task_base("fashion-mnist-cnn", {{"source", "fashion-mnist"}},
                                             {{"kind", "cnn"}}, 256, 1000, 200),
                                   0));
    spec.seeds = {1, 2, 3, 4, 5};
  } else {
    throw InvalidArgument("leaderboard scale must be tiny, small, small-cnn or paper, got '" +
                          scale + "'");
  }
  for (const auto& [label, entry] : family_entries(scale)) {
    json probe = task_base("probe", {{"source", "synthetic-binary"}}, logistic, 10, 1, 1);
    probe["optimizers"] = json::array({entry});
    LeaderboardFamily family;
    family.name = label;
    family.entry = experiment::parse_experiment(probe).optimizers.at(0);
    spec.families.push_back(family);
  }
  return spec;
}

experiment::ExperimentConfig leaderboard_config(const LeaderboardSpec& spec,
                                                const LeaderboardTask& task,
                                                const LeaderboardFamily& family,
                                                LeaderboardMethod method, double sigma,
                                                std::uint64_t seed) {
  experiment::ExperimentConfig config = task.base;
  config.name = task.label + "-" + to_string(method) + "-" + family.name;
  config.optimizers = {family.entry};
  config.privacy.noise_multiplier = sigma;
  config.seed = seed;
  const int k = static_cast<int>(experiment::expand_candidates(config).size());
  experiment::ReleaseConfig& r = config.release;
  r = experiment::ReleaseConfig{};
  r.mode = experiment::ReleaseMode::kPrivate;
  switch (method) {
    case LeaderboardMethod::kMa:
      r.selection = experiment::PrivateSelection::kMa;
      break;
    case LeaderboardMethod::kLt:
      r.selection = experiment::PrivateSelection::kLt;
      config.tuning.strategy = experiment::Strategy::kLt;
      break;
    case LeaderboardMethod::kPs:
      r.selection = experiment::PrivateSelection::kPs;
      r.ps_mu = std::max(1.0, static_cast<double>(k));
      break;
    case LeaderboardMethod::kSubsampled:
      r.selection = experiment::PrivateSelection::kPs;
      r.subsampled = true;
      r.ps_mu = std::max(1.0, static_cast<double>(k));
      r.tuning_fraction = spec.tuning_fraction;
      break;
    case LeaderboardMethod::kLinearScaling:
      r.selection = experiment::PrivateSelection::kMa;
      r.linear_scaling = true;
      break;
  }
  experiment::check_release(r);
  r = experiment::canonical_release(r);
  return config;
}

double leaderboard_noise(const experiment::ExperimentConfig& config, std::int64_t training_size,
                         std::int64_t validation_size, double target_epsilon) {
  auto epsilon_at = [&](double sigma) {
    experiment::ExperimentConfig c = config;
    c.privacy.noise_multiplier = sigma;
    return tuning::planned_release_cost(c, training_size, validation_size).epsilon;
  };
  // epsilon falls as sigma grows: keep epsilon(hi) <= target < epsilon(lo).
  double lo = 0.3, hi = 1.0;
  while (epsilon_at(hi) > target_epsilon) {
    lo = hi;
    hi *= 2;
    if (hi > 1e4)
      throw Error("leaderboard: no noise multiplier up to 1e4 reaches eps " +
                  format_number(target_epsilon) + " for " + config.name);
  }
  if (epsilon_at(lo) <= target_epsilon) {
    while (lo > 0.05 && epsilon_at(lo) <= target_epsilon) {
      hi = lo;
      lo /= 2;
    }
  }
  while (hi / lo > 1.0 + 1e-3) {
    const double mid = std::sqrt(lo * hi);
    (epsilon_at(mid) <= target_epsilon ? hi : lo) = mid;
  }
  return hi;
}

std::vector<LeaderboardCell> run_leaderboard(const LeaderboardSpec& spec,
                                             const LeaderboardOptions& options) {
  if (spec.seeds.empty()) throw InvalidArgument("leaderboard: no seeds");
  std::vector<LeaderboardCell> cells;
  LeaderboardProgress progress;
  progress.total =
      static_cast<std::int64_t>(spec.tasks.size() * spec.total_epsilons.size() *
                                spec.methods.size() * spec.families.size() * spec.seeds.size());
  tuning::RunOptions run_options;
  run_options.threads = options.threads;
  run_options.keep_models = true;
  // The calibrated sigma depends on the method, K, n and the target only (not the family or
  // the seed): computed once per key.
  std::map<std::tuple<std::string, int, double>, double> noise_cache;
  for (const LeaderboardTask& task : spec.tasks) {
    noise_cache.clear();
    const TaskData data = load_task_data(spec, task);
    // n and n_val as the search's own split gives them (for the calibration).
    const auto probe = tuning::split_experiment_data(task.base, data.search);
    const std::int64_t n = probe->train.size(), n_val = probe->validation.size();
    for (double target : spec.total_epsilons) {
      for (LeaderboardMethod method : spec.methods) {
        for (const LeaderboardFamily& family : spec.families) {
          LeaderboardCell cell;
          cell.task = task.label;
          cell.method = to_string(method);
          cell.family = family.name;
          cell.target_epsilon = target;
          const auto base = leaderboard_config(spec, task, family, method, 1.0, spec.seeds[0]);
          cell.candidates = static_cast<int>(experiment::expand_candidates(base).size());
          const auto key = std::make_tuple(cell.method, cell.candidates, target);
          const auto cached = noise_cache.find(key);
          cell.noise_multiplier =
              cached != noise_cache.end()
                  ? cached->second
                  : (noise_cache[key] = leaderboard_noise(base, n, n_val, target));
          experiment::ExperimentConfig calibrated = base;
          calibrated.privacy.noise_multiplier = cell.noise_multiplier;
          const tuning::ReleaseCost cost = tuning::planned_release_cost(calibrated, n, n_val);
          cell.epsilon = cost.epsilon;
          cell.delta = cost.delta;
          cell.compute = expected_compute(calibrated, cost, cell.candidates);
          std::vector<double> accuracies;
          const auto started = std::chrono::steady_clock::now();
          for (std::uint64_t seed : spec.seeds) {
            if (options.cancel && options.cancel->load()) return cells;
            progress.current = task.label + " eps " + format_number(target) + " " + cell.method +
                               " " + family.name + " seed " + std::to_string(seed);
            if (options.on_progress) options.on_progress(progress);
            experiment::ExperimentConfig config = calibrated;
            config.seed = seed;
            const release::SearchSession session =
                release::run_search_session(config, run_options, {}, &data.search);
            ++cell.seeds_run;
            ++progress.done;
            if (session.release.models.empty()) continue;  // K = 0: nothing released
            const auto model = models::import_model(*session.release.models[0].model);
            accuracies.push_back(model->evaluate(data.test).accuracy);
          }
          cell.wall_seconds =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
          cell.seeds_released = static_cast<int>(accuracies.size());
          const MeanInterval interval = normal_mean_interval(accuracies);
          cell.mean_accuracy = interval.mean;
          cell.ci_low = interval.low();
          cell.ci_high = interval.high();
          cells.push_back(cell);
        }
      }
    }
  }
  if (options.on_progress) options.on_progress(progress);
  mark_best(cells);
  return cells;
}

void mark_best(std::vector<LeaderboardCell>& cells) {
  std::map<std::pair<std::string, double>, std::size_t> best;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    cells[i].best = cells[i].tied_with_best = false;
    if (!std::isfinite(cells[i].mean_accuracy)) continue;
    const auto key = std::make_pair(cells[i].task, cells[i].target_epsilon);
    const auto it = best.find(key);
    if (it == best.end() || cells[i].mean_accuracy > cells[it->second].mean_accuracy) best[key] = i;
  }
  for (auto& cell : cells) {
    const auto it = best.find({cell.task, cell.target_epsilon});
    if (it == best.end()) continue;
    const LeaderboardCell& top = cells[it->second];
    cell.best = &cell == &top;
    // Overlapping 95% intervals (a single seed has none: only equal means tie).
    const bool overlap = std::isfinite(cell.ci_high) && std::isfinite(top.ci_low)
                             ? cell.ci_high >= top.ci_low
                             : cell.mean_accuracy == top.mean_accuracy;
    cell.tied_with_best = !cell.best && overlap;
  }
}

csv::CsvTable leaderboard_table(const std::vector<LeaderboardCell>& cells) {
  csv::CsvTable table;
  table.header = {"task",
                  "target_epsilon",
                  "method",
                  "family",
                  "epsilon",
                  "delta",
                  "noise_multiplier",
                  "candidates",
                  "seeds_run",
                  "seeds_released",
                  "mean_test_accuracy",
                  "ci95_low",
                  "ci95_high",
                  "compute_full_runs",
                  "wall_seconds",
                  "best",
                  "tied_with_best"};
  for (const auto& c : cells) {
    table.rows.push_back(
        {c.task, general(c.target_epsilon), c.method, c.family, fixed(c.epsilon, 4),
         general(c.delta), general(c.noise_multiplier), std::to_string(c.candidates),
         std::to_string(c.seeds_run), std::to_string(c.seeds_released), fixed(c.mean_accuracy, 4),
         fixed(c.ci_low, 4), fixed(c.ci_high, 4), fixed(c.compute, 2), fixed(c.wall_seconds, 2),
         c.best ? "1" : "0", c.tied_with_best ? "1" : "0"});
  }
  return table;
}

figures::Plot leaderboard_plot(const std::vector<LeaderboardCell>& cells, const std::string& task,
                               const std::string& scale) {
  figures::Plot plot;
  plot.title = "Test accuracy at a total epsilon that includes the search";
  plot.subtitle = task + ", scale " + scale + "; each method at its best optimizer family";
  plot.x_label = "total epsilon (search + release)";
  plot.y_label = "test accuracy";
  plot.log_x = true;
  std::size_t colour = 0;
  for (LeaderboardMethod method : kLeaderboardMethods) {
    figures::Series series;
    series.label = to_string(method);
    series.color = figures::palette(colour++);
    series.marker = 3;
    std::map<double, const LeaderboardCell*> best;  // per epsilon: the best family
    for (const auto& c : cells) {
      if (c.task != task || c.method != series.label || !std::isfinite(c.mean_accuracy)) continue;
      auto& slot = best[c.target_epsilon];
      if (!slot || c.mean_accuracy > slot->mean_accuracy) slot = &c;
    }
    for (const auto& [eps, c] : best) {
      series.x.push_back(eps);
      series.y.push_back(c->mean_accuracy);
      series.y_low.push_back(std::isfinite(c->ci_low) ? c->ci_low : c->mean_accuracy);
      series.y_high.push_back(std::isfinite(c->ci_high) ? c->ci_high : c->mean_accuracy);
    }
    if (!series.x.empty()) plot.series.push_back(series);
  }
  return plot;
}

}  // namespace dplab::reproduction
