// dplab-cli oso-protocol: runs the OSO paper's grid protocol (tuning/oso_protocol.h) from a
// preset file and prints dplab's Figure 4 (best score per strategy and epsilon) and Table 3
// (the best hyperparameters), per granularity k. Flags scale a preset down for a quick run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/output_files.h"
#include "cli/progress_line.h"
#include "core/error.h"
#include "data/file_reader.h"
#include "data/path_beside.h"
#include "data/preset_files.h"
#include "tuning/oso_protocol.h"

namespace dplab::cli {
namespace {

int run_oso_protocol_command(const Arguments& args) {
  std::string path, text;
  try {
    path = data::resolve_preset_path(args.required_text("preset"));
    // The one reader (regular files only, size-capped, UTF-8, within the memory budget): a FIFO
    // or /dev/zero as --preset used to be read for ever.
    text = data::read_file_text(path, data::kJsonFile);
  } catch (const Error& e) {
    throw UsageError(std::string("--preset: ") + e.what());
  }
  tuning::OsoProtocolConfig config;
  try {
    config = tuning::parse_oso_protocol(text, path);
  } catch (const Error& e) {  // not JSON, nested too deep, or a value breaks a rule
    throw UsageError(std::string("--preset: ") + e.what());
  }
  // A data file named in the preset is read from the preset's folder (as experiment files).
  config.dataset = data::source_beside(path, config.dataset);
  // Flags override preset fields; the engine's rules (invalid_oso_field) then check the result,
  // and a broken one is named by its flag (the preset itself passed them when parsed).
  if (auto v = args.text("epsilons")) config.epsilons = parse_number_list("epsilons", *v);
  if (auto v = args.text("granularities"))
    config.granularities = parse_int_list("granularities", *v);
  config.seeds = args.int_or("seeds", config.seeds);
  config.steps = args.integer_or("steps", config.steps);
  if (auto v = args.text("train-subset")) config.train_subset = parse_integer("train-subset", *v);
  if (auto v = args.text("validation-subset"))
    config.validation_subset = parse_integer("validation-subset", *v);
  if (auto v = args.text("lot-size")) config.lot_size = parse_number("lot-size", *v);
  config.eval_every = args.integer_or("eval-every", config.eval_every);
  if (auto bad = tuning::invalid_oso_field(config)) {
    std::string flag = bad->key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    throw UsageError("--" + flag + " " + bad->rule);
  }

  const int threads = args.threads();  // checked before the data load, as every flag above
  const data::TrainValidationSplit data = tuning::load_oso_protocol_data(config);
  const bool quiet = args.has("quiet");
  // One (k, strategy, epsilon) grid at a time: each grid's runs are seeded by the seed index
  // alone, so the results are those of one call with the whole config, and a Ctrl-C / SIGTERM
  // (cli/interrupt.h) keeps the grids already finished: they are printed and written.
  const InterruptScope interrupt;
  const std::int64_t total = tuning::plan_oso_protocol(config).total_runs;
  std::int64_t done_before = 0;
  std::vector<tuning::OsoGridResult> results;
  // After every run (a paper-scale run takes about 20 minutes): runs done, time spent and the
  // time left at the mean pace so far (cli/progress_line.h).
  std::optional<ProgressLine> line;
  if (!quiet) line.emplace("oso-protocol", "runs");
  for (int k : config.granularities) {
    for (auto strategy : config.strategies) {
      for (double epsilon : config.epsilons) {
        if (interrupt.interrupted()) break;
        tuning::OsoProtocolConfig one = config;
        one.granularities = {k};
        one.strategies = {strategy};
        one.epsilons = {epsilon};
        const auto progress = [&](std::int64_t done, std::int64_t) {
          if (line)
            line->update(static_cast<double>(done_before + done), static_cast<double>(total));
        };
        try {
          for (auto& r : tuning::run_oso_protocol(one, data, progress, interrupt.flag(),
                                                  {.threads = threads}))
            results.push_back(r);
        } catch (const Cancelled&) {
          break;
        }
        done_before += tuning::plan_oso_protocol(one).total_runs;
      }
    }
  }
  if (line) line->finish();
  const bool higher = tuning::higher_is_better(config.model);
  const char* metric = higher ? "accuracy" : "MSE";
  std::printf(
      "%s: %s, n_train = %lld, n_validation = %lld, L = %.0f, T = %lld, %d seed(s), best "
      "checkpoint every %lld steps on the validation split\n",
      config.name.c_str(), models::to_string(config.model).c_str(),
      static_cast<long long>(data.train.size()), static_cast<long long>(data.validation.size()),
      config.lot_size, static_cast<long long>(config.steps), config.seeds,
      static_cast<long long>(config.eval_every));
  std::printf("%s\n", tuning::oso_epsilon_note(config.delta).c_str());
  nlohmann::json out = nlohmann::json::array();
  for (int k : config.granularities) {
    std::printf("\nk = %d — best %s (mean ± sd over seeds) and its hyperparameters\n", k, metric);
    std::printf("%-24s %5s %4s %9s %18s %10s %9s %6s\n", "strategy", "eps", "K", "sigma", metric,
                "rho", "C", "gamma");
    for (const auto& r : results) {
      if (r.granularity != k) continue;
      char score[64];
      if (std::isnan(r.score)) {
        std::snprintf(score, sizeof score, "all diverged");
      } else if (std::isnan(r.score_std)) {
        std::snprintf(score, sizeof score, "%.4f (1 seed)", r.score);
      } else {
        std::snprintf(score, sizeof score, "%.4f ± %.4f", r.score, r.score_std);
      }
      const bool has_rho = tuning::oso_grid_has_learning_rate(r.strategy);
      const bool has_gamma = tuning::oso_grid_has_quantile(r.strategy);
      std::printf(
          "%-24s %5g %4d %9.4g %18s %10s %9s %6s\n", tuning::oso_strategy_label(r.strategy).c_str(),
          r.epsilon, r.runs, r.noise_multiplier, score,
          has_rho && !std::isnan(r.score) ? std::to_string(r.learning_rate).substr(0, 8).c_str()
                                          : "-",
          std::isnan(r.score) ? "-" : std::to_string(r.clip).substr(0, 8).c_str(),
          has_gamma && !std::isnan(r.score) ? std::to_string(r.target_quantile).substr(0, 4).c_str()
                                            : "-");
      nlohmann::json row;
      row["strategy"] = optim::to_string(r.strategy);
      row["epsilon"] = r.epsilon;
      row["granularity"] = r.granularity;
      row["runs"] = r.runs;
      row["noise_multiplier"] = r.noise_multiplier;
      row["score"] = std::isnan(r.score) ? nlohmann::json(nullptr) : nlohmann::json(r.score);
      row["score_std"] = r.score_std;
      row["learning_rate"] = r.learning_rate;
      row["clip"] = r.clip;
      row["target_quantile"] = r.target_quantile;
      // Every run of the grid (the raw record the choice above was made from).
      nlohmann::json runs = nlohmann::json::array();
      for (const auto& run : r.all_runs) {
        runs.push_back(
            {{"learning_rate", run.learning_rate},
             {"clip", run.clip},
             {"target_quantile", run.target_quantile},
             {"seed", run.seed},
             {"best", std::isnan(run.best) ? nlohmann::json(nullptr) : nlohmann::json(run.best)},
             {"best_step", run.best_step},
             {"seconds", run.seconds}});
      }
      row["all_runs"] = runs;
      out.push_back(row);
    }
  }
  // Atomic (temp file + rename): a full disk is an error with its reason, never a 0-byte file.
  if (auto v = args.text("json-out")) write_json_file(*v, out);
  if (interrupt.interrupted()) {
    std::fprintf(
        stderr,
        "\ndplab-cli oso-protocol: %s; kept the %zu finished grids of %zu (%lld of %lld "
        "runs)%s\n",
        interrupt.what_happened().c_str(), results.size(),
        config.granularities.size() * config.strategies.size() * config.epsilons.size(),
        static_cast<long long>(done_before), static_cast<long long>(total),
        args.has("json-out") ? ", in the table above and --json-out" : ", in the table above");
    return interrupt.exit_status();
  }
  return 0;
}

}  // namespace

void add_oso_protocol_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_oso_protocol_flags(cli, *args), [args] { return run_oso_protocol_command(*args); });
}

}  // namespace dplab::cli
