// dplab-cli train: one DP training run; writes DIR/curve.csv and DIR/summary.json.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "cli/run_config.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/validate.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"
#include "models/model_metric.h"
#include "privacy/default_delta.h"
#include "privacy/rdp_accountant.h"

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
  const training::TrainingResult result = training::train(split, training_config, hooks);

  const std::filesystem::path out_dir(config.out);
  write_curve_csv(out_dir / "curve.csv", result.curve);
  nlohmann::json summary;
  summary["config"] = config.to_json();
  summary["data"] = {{"name", all.name},      {"examples", all.size()},
                     {"train_examples", n},   {"validation_examples", split.validation.size()},
                     {"features", all.dim()}, {"classes", all.num_classes}};
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
  write_json_file(out_dir / "summary.json", summary);
  std::cout << summary.dump(2) << "\n";
  if (result.diverged) {
    std::cerr << "dplab-cli train: error: training diverged: " << result.divergence
              << " (try a smaller --lr, --clip or --noise-multiplier)\n";
    return 1;
  }
  return 0;
}

}  // namespace

void add_train_command(CLI::App& cli) {
  CLI::App* cmd = cli.add_subcommand(
      "train", "train one model with a DP optimizer, write curve.csv and summary.json");
  auto args = std::make_shared<Arguments>();
  add_value(*cmd, *args, "config",
            "JSON object of settings, keys = the flag names with '_' for '-'; flags override it",
            "FILE");
  for (const auto& flag : run_config_flag_list())
    add_value(*cmd, *args, flag.name, flag.help, flag.value_name);
  add_value(*cmd, *args, "accountant",
            "pld (default) or rdp: the accountant of the epsilon column and of the summary",
            "rdp|pld");
  add_value(*cmd, *args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  on_run(*cmd, [args] { return run_train(*args); });
}

}  // namespace dplab::cli
