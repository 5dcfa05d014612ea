// dplab-cli train: one DP training run; writes DIR/curve.csv and DIR/summary.json.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "cli/run_config.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"
#include "privacy/rdp_accountant.h"
#include "privacy/default_delta.h"

namespace dplab::cli {
namespace {

constexpr const char* kTrainUsage = R"(usage: dplab-cli train [--config FILE] [flags] --out DIR
  --dataset NAME|PATH     fashion-mnist | synthetic-linear | synthetic-binary | a file (default fashion-mnist)
  --format F              auto | idx | csv | libsvm (for a PATH; default auto)
  --label-column NAME     CSV label column (default: the last column)
  --validation-fraction F share held out for validation (default 0.2, paper appendix H)
  --model M               linear | logistic | tlnn (default logistic)
  --hidden-units H        TLNN hidden layer width (default 100)
  --optimizer O           dpsgd | dpmomentum | dpadam | adadp | dpadamwosm, or the non-private
                          baselines sgd | momentum | adam (sigma = 0, no clipping)
  --lr A                  learning rate alpha (ADADP: initial; DPAdamWOSM: the alpha of its ESS)
  --clip C                per-example clipping norm C (default 1)
  --noise-multiplier S    sigma; noise std on the clipped sum is sigma*C (default 1)
  --lot-size L            expected lot size; each example joins a lot with q = L/n (default 250)
  --steps T               noisy-gradient queries (default 1000)
  --momentum M            DPMomentum (default 0.9)
  --beta1 B1 --beta2 B2   DPAdam (defaults 0.9, 0.999)
  --eval-every K          a curve point every K queries (default 100)
  --delta D               delta for the epsilon column (default 1/n rounded down to a power of 10)
  --seed N                seed of initialisation, sampling and noise (default 0)
  --out DIR               output folder (created)
)";

// For a path-like --dataset the loader's error names the file; say which flag brought it.
data::Dataset load_for_flag(const RunConfig& config) {
  data::DatasetSource source = data::source_for(config.dataset);
  try {
    source.format = data::parse_data_format(config.format);
  } catch (const Error& e) {
    throw UsageError(std::string("--format: ") + e.what());
  }
  source.label_column = config.label_column;
  source.regression = config.model == "linear";
  try {
    return data::load_dataset(source);
  } catch (const ParseError& e) {
    throw;  // malformed content: a run-time error naming file and line (exit 1)
  } catch (const Error& e) {
    throw UsageError(std::string("--dataset: ") + e.what());
  }
}

}  // namespace

int run_train(int argc, char** argv, int first) {
  Arguments args(argc, argv, first, {"help"});
  if (args.has("help")) {
    std::cout << kTrainUsage;
    return 0;
  }
  std::set<std::string> known = run_config_flags();
  known.insert({"config", "help"});
  args.reject_unknown(known);
  const RunConfig config = parse_run_config(args);
  if (config.out.empty()) throw UsageError("missing required flag --out");
  require_writable_folder(config.out, "--out");  // before training, not after

  const data::Dataset all = load_for_flag(config);
  const auto split = data::prepare_split(all, config.validation_fraction, 0);
  for (const auto& note : split.notes) std::cerr << "dplab-cli train: note: " << note << "\n";
  const auto n = split.train.size();
  if (config.lot_size > static_cast<double>(n)) {
    throw UsageError("--lot-size = " + std::to_string(static_cast<long long>(config.lot_size)) +
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
      return privacy::epsilon_for_delta({config.noise_multiplier, sampling_rate, queries}, delta)
          .epsilon;
    };
  }
  hooks.on_point = [&](const training::CurvePoint& p) {
    std::cerr << "step " << p.iteration << "/" << config.steps << "  train loss " << p.train_loss
              << "  val acc " << p.val_accuracy << "  eps " << p.epsilon << "\n";
  };
  const training::TrainingResult result = training::train(split, training_config, hooks);

  const std::filesystem::path out_dir(config.out);
  write_curve_csv(out_dir / "curve.csv", result.curve);
  nlohmann::json summary;
  summary["config"] = config.to_json();
  summary["data"] = {{"name", all.name},
                     {"examples", all.size()},
                     {"train_examples", n},
                     {"validation_examples", split.validation.size()},
                     {"features", all.dim()},
                     {"classes", all.num_classes}};
  summary["privacy"] = {{"private", config.is_private()},
                        {"sampling_rate", sampling_rate},
                        {"delta", delta},
                        {"noise_gradient_queries", result.queries}};
  if (config.is_private()) {
    const auto eps = privacy::epsilon_for_delta({config.noise_multiplier, sampling_rate, result.queries}, delta);
    summary["privacy"]["epsilon"] = eps.epsilon;
    summary["privacy"]["best_order"] = eps.best_order;
  }
  summary["final"] = {{"validation_loss", result.final_validation.mean_loss},
                      {"train_loss", result.final_train_loss}};
  if (all.is_regression()) {
    summary["final"]["validation_mse"] = result.final_validation.mse;
  } else {
    summary["final"]["validation_accuracy"] = result.final_validation.accuracy;
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

}  // namespace dplab::cli
