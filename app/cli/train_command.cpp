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
// The run itself, its epsilon, label, Release and summary are the engine's
// (release/train_session.h, one implementation with the Python module's dplab.train).
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/progress_line.h"
#include "cli/run_config.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/memory_check.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"
#include "release/train_session.h"

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
  // The request's rules are the engine's (release/train_session.h, shared with dplab.train).
  const release::TrainRequest request = release::read_train_request(run_config_settings(args));
  const RunConfig& config = request.run;
  if (config.out.empty()) throw UsageError("missing required flag --out");
  require_writable_folder(config.out, "--out");  // before training, not after

  const data::Dataset all = load_for_flag(config);
  const auto split = data::prepare_split(all, config.validation_fraction, 0);
  for (const auto& note : split.notes) std::cerr << "dplab-cli train: note: " << note << "\n";
  std::cerr << "dplab-cli train: note: preprocessing: " << split.preprocessing.description << "\n";
  std::cerr << "dplab-cli train: note: " << memory_budget_description() << "\n";

  const bool accuracy = release::reports_accuracy(all, config);
  training::TrainingHooks hooks;
  // The steps with rate and ETA (cli/progress_line.h); each curve point as a line above it.
  ProgressLine progress("train", "steps");
  const auto steps = static_cast<double>(config.steps);
  hooks.on_point = [&](const training::CurvePoint& p) {
    std::ostringstream line;
    line << "step " << p.iteration << "/" << config.steps << "  train loss " << p.train_loss
         << (accuracy ? "  val acc " : "  val mse ") << (accuracy ? p.val_accuracy : p.val_mse)
         << "  eps " << p.epsilon;
    progress.note(line.str());
  };
  hooks.on_step = [&](std::int64_t queries) {
    progress.update(static_cast<double>(queries), steps);
  };
  const InterruptScope interrupt;  // Ctrl-C / SIGTERM: stop within a step, keep the curve so far
  hooks.cancel = interrupt.flag();
  const release::TrainSession session = release::run_train_session(all, split, request, hooks);
  const training::TrainingResult& result = session.result;
  progress.finish(static_cast<double>(result.queries), steps);
  // Silent failures made loud (training/training_guards.h): lots off q n, frozen parameters.
  for (const auto& warning : result.warnings)
    std::cerr << "dplab-cli train: warning: " << warning << "\n";

  // curve.csv and release.json through the engine's one release writer (release/), then
  // summary.json.
  const std::filesystem::path out_dir(config.out);
  release::write_train_session(session, out_dir.string());
  std::cout << json_text(session.summary, 2) << "\n";
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
  auto args = std::make_shared<Arguments>();
  on_run(*add_train_flags(cli, *args), [args] { return run_train(*args); });
}

}  // namespace dplab::cli
