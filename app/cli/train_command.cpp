// dplab-cli train: one DP training run; writes DIR/curve.csv, DIR/release.json (the engine's
// release of the run, release/train_release.h) and DIR/summary.json. Ctrl-C or
// SIGTERM stops it within one step: the curve so far and a summary with status "cancelled" (and
// the epsilon of the steps taken) are written, and it exits 130 / 143 (cli/interrupt.h).
// --secure draws lots and noise from the OS, as tune --secure (no seed is written).
// The epsilon covers the noisy gradients only. What else the run outputs is labelled "not
// covered" in summary.json (privacy.not_covered, privacy.epsilon_label), in release.json's
// not_covered and in curve.csv's epsilon_label column: the training losses (curve train_loss = mean
// lot loss, final.train_loss = mean loss over the training set; un-noised, private data) and,
// without public feature bounds, the min-max scaling fitted on the data (data/feature_scaling.h).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/output_files.h"
#include "cli/run_config.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/memory_check.h"
#include "core/os_entropy.h"
#include "core/validate.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"
#include "models/model_metric.h"
#include "privacy/accounting/default_delta.h"
#include "privacy/accounting/epsilon_display.h"
#include "privacy/accounting/rdp_accountant.h"
#include "release/release_writer.h"
#include "release/train_release.h"
#include "tuning/release_cost.h"

namespace dplab::cli {
namespace {

// For a path-like --dataset the loader's error names the file; say which flag brought it.
data::Dataset load_for_flag(const RunConfig& config) {
  data::DatasetSource source = data::source_for(config.dataset);
  try {
    source.format = data::parse_data_format(config.format);
  } catch (const Error& e) {
    throw UsageError(std::string("--format: ") + e.what());
  }
  source.label_column = config.label_column;
  config.apply_data_limits(source);
  source.regression = config.model == "linear";
  source.feature_bounds = config.feature_bounds;
  try {
    return data::load_dataset(source);
  } catch (const ParseError& e) {
    throw;  // malformed content: a run-time error naming file and line (exit 1)
  } catch (const Error& e) {
    throw UsageError(std::string("--dataset: ") + e.what());
  }
}

int run_train(const Arguments& args) {
  const RunConfig config = parse_run_config(args);
  if (config.out.empty()) throw UsageError("missing required flag --out");
  const AccountantFlags accountants =
      parse_accountant_flags(args.text_or("accountant", ""), args.text_or("pld-precision", ""));
  require_writable_folder(config.out, "--out");  // before training, not after

  const data::Dataset all = load_for_flag(config);
  const auto split = data::prepare_split(all, config.validation_fraction, 0);
  for (const auto& note : split.notes) std::cerr << "dplab-cli train: note: " << note << "\n";
  std::cerr << "dplab-cli train: note: preprocessing: " << split.preprocessing.description << "\n";
  std::cerr << "dplab-cli train: note: " << memory_budget_description() << "\n";
  const auto n = split.train.size();
  if (config.lot_size > static_cast<double>(n)) {
    throw UsageError("--lot-size = " + format_number(config.lot_size) +
                     " exceeds the training set size n = " + std::to_string(n));
  }
  training::TrainingConfig training_config;
  try {
    training_config = config.training_config();
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }

  const bool secure = args.has("secure");
  if (secure) {
    if (!config.is_private())
      throw UsageError("--secure needs a private optimizer (" + config.optimizer +
                       " adds no noise)");
    if (args.has("seed") || config.seed != 0)  // a seed from the flag or from --config
      throw UsageError("--secure draws every seed from the operating system; drop the seed");
    training_config.secure = true;
    training_config.seed = os_random_u64();  // never printed nor written
  }

  const double delta = config.delta > 0 ? config.delta : privacy::default_delta(n);
  const double sampling_rate = config.lot_size / static_cast<double>(n);
  training::TrainingHooks hooks;
  if (config.is_private()) {
    hooks.epsilon_after = [&](std::int64_t queries) {
      return privacy::run_epsilon({config.noise_multiplier, sampling_rate, queries}, 1, delta,
                                  accountants.run, accountants.pld)
          .epsilon;
    };
  }
  // The metric the model has: accuracy, or MSE for regression and reconstruction.
  const models::ValidationMetric metric = all.is_regression()
                                              ? models::ValidationMetric::kMeanSquaredError
                                              : models::validation_metric(training_config.model);
  const bool accuracy = metric == models::ValidationMetric::kAccuracy;
  hooks.on_point = [&](const training::CurvePoint& p) {
    std::cerr << "step " << p.iteration << "/" << config.steps << "  train loss " << p.train_loss
              << (accuracy ? "  val acc " : "  val mse ") << (accuracy ? p.val_accuracy : p.val_mse)
              << "  eps " << p.epsilon << "\n";
  };
  const InterruptScope interrupt;  // Ctrl-C / SIGTERM: stop within a step, keep the curve so far
  hooks.cancel = interrupt.flag();
  const training::TrainingResult result = training::train(split, training_config, hooks);

  // What the epsilon does not cover: field names and label clauses (same texts as tune's).
  nlohmann::json not_covered = {"curve.csv:train_loss", "final.train_loss"};
  std::string clauses = std::string("; ") + tuning::kTrainingLossNotCovered;
  if (split.preprocessing.fitted_on_private_data) {
    not_covered.push_back("data.preprocessing");
    clauses += std::string("; ") + data::kPreprocessingNotCovered;
  }
  const double reported_epsilon =
      config.is_private()
          ? privacy::run_epsilon({config.noise_multiplier, sampling_rate, result.queries}, 1, delta,
                                 accountants.run, accountants.pld)
                .epsilon
          : INFINITY;
  char delta_text[32];
  std::snprintf(delta_text, sizeof delta_text, "%g", delta);
  const std::string label =
      (config.is_private()
           ? "eps <= " + privacy::format_epsilon_up(reported_epsilon) + " (one run of " +
                 std::to_string(result.queries) + " noisy-gradient queries; delta = " + delta_text
           : std::string("no eps (non-private baseline")) +
      clauses + ")";

  const std::filesystem::path out_dir(config.out);
  nlohmann::json summary;
  summary["config"] = config.to_json();
  if (secure) {
    summary["config"].erase("seed");  // drawn from the OS, never written
    summary["config"]["secure"] = true;
  }
  summary["data"] = {{"name", all.name},      {"examples", all.size()},
                     {"train_examples", n},   {"validation_examples", split.validation.size()},
                     {"features", all.dim()}, {"classes", all.num_classes}};
  summary["data"]["preprocessing"] = {
      {"fitted_on_private_data", split.preprocessing.fitted_on_private_data},
      {"description", split.preprocessing.description}};
  if (!all.encoding.empty()) summary["data"]["encoding"] = all.encoding;
  summary["privacy"] = {{"private", config.is_private()},
                        {"sampling_rate", sampling_rate},
                        {"delta", delta},
                        {"noise_gradient_queries", result.queries}};
  if (config.is_private()) {
    const auto eps =
        privacy::epsilon_for_delta({config.noise_multiplier, sampling_rate, result.queries}, delta);
    summary["privacy"]["epsilon"] = eps.epsilon;
    summary["privacy"]["best_order"] = eps.best_order;  // of the RDP bound
    const auto chosen =
        privacy::run_epsilon({config.noise_multiplier, sampling_rate, result.queries}, 1, delta,
                             accountants.run, accountants.pld);
    if (chosen.accountant == privacy::Accountant::kPld) {
      summary["privacy"]["epsilon"] = chosen.epsilon;
      summary["privacy"]["epsilon_rdp"] = eps.epsilon;
    }
    put_accountant_fields(summary["privacy"], chosen);
  }
  summary["privacy"]["epsilon_label"] = label;
  summary["privacy"]["not_covered"] = not_covered;
  summary["final"] = {{"validation_loss", result.final_validation.mean_loss},
                      {"train_loss", result.final_train_loss}};
  if (accuracy) {
    summary["final"]["validation_accuracy"] = result.final_validation.accuracy;
  } else {
    summary["final"]["validation_mse"] = result.final_validation.mse;
  }
  summary["wall_seconds"] = result.wall_seconds;
  summary["status"] = result.diverged ? "diverged" : result.cancelled ? "cancelled" : "finished";
  if (result.diverged) summary["divergence"] = result.divergence;
  // curve.csv and release.json through the engine's one release writer (release/).
  release::TrainRun run;
  run.name = all.name;
  run.training_size = static_cast<std::int64_t>(n);
  run.validation_size = static_cast<std::int64_t>(split.validation.size());
  run.lot_size = config.lot_size;
  run.sampling_rate = sampling_rate;
  run.noise_multiplier = config.noise_multiplier;
  run.is_private = config.is_private();
  run.secure = secure;
  run.delta = delta;
  run.delta_given = config.delta > 0;
  run.queries = result.queries;
  run.epsilon = reported_epsilon;
  run.accountant = privacy::to_string(accountants.run);
  run.epsilon_label = label;
  run.preprocessing = split.preprocessing;
  run.cancelled = result.cancelled;
  run.status = summary["status"].get<std::string>();
  run.final_metrics = summary["final"];
  run.final_metrics.erase(
      "train_loss");  // not covered: summary.json labels it, no release holds it
  run.curve = &result.curve;
  run.model = result.model;
  run.input = data::input_encoding(split);
  release::write_release(release::train_release(run), out_dir.string());
  write_json_file(out_dir / "summary.json", summary);
  std::cout << summary.dump(2) << "\n";
  if (result.cancelled) {
    std::cerr << "dplab-cli train: " << interrupt.what_happened() << " after " << result.queries
              << " of " << config.steps << " steps; kept the curve so far (" << result.curve.size()
              << " points) in " << (out_dir / "curve.csv").string() << " and "
              << (out_dir / "summary.json").string()
              << " (status \"cancelled\"; epsilon covers the steps taken)\n";
    return interrupt.exit_status();
  }
  if (result.diverged) {
    std::cerr << "dplab-cli train: error: training diverged: " << result.divergence
              << " (try a smaller --lr, --clip or --noise-multiplier)\n";
    return 1;
  }
  return 0;
}

}  // namespace

void add_train_command(CLI::App& cli) {
  CLI::App* cmd = add_command(
      cli, "train",
      "train one model with a DP optimizer, write curve.csv, release.json and summary.json");
  auto args = std::make_shared<Arguments>();
  add_run_config_flags(*cmd, *args);
  add_value(
      *cmd, *args, "accountant",
      "rdp or pld (default: " + std::string(privacy::to_string(privacy::kDefaultRunAccountant)) +
          "): the accountant of the epsilon column and of the summary",
      "rdp|pld");
  add_value(*cmd, *args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  add_switch(*cmd, *args, "secure",
             "secure noise: lots and Gaussian noise from the operating system's entropy "
             "(getrandom, ChaCha20, discrete Gaussian on an integer grid), as tune --secure; no "
             "seed is used or written, two runs differ (private optimizers only)");
  set_footer(
      *cmd,
      "Exit status: 0 ok; 1 run-time error (unreadable data, an output that cannot be written, a "
      "diverged run); 2 bad usage; 130 Ctrl-C, 143 SIGTERM (curve.csv and summary.json keep "
      "the steps taken, status \"cancelled\").");
  on_run(*cmd, [args] { return run_train(*args); });
}

}  // namespace dplab::cli
