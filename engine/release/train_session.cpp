#include "release/train_session.h"
#include "core/json_text.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/os_entropy.h"
#include "core/validate.h"
#include "models/model_metric.h"
#include "privacy/accounting/default_delta.h"
#include "privacy/accounting/epsilon_display.h"
#include "privacy/accounting/rdp_accountant.h"
#include "release/release_writer.h"
#include "release/train_release.h"
#include "tuning/release_cost.h"

namespace dplab::release {

TrainRequest read_train_request(const Settings& settings) {
  TrainRequest request;
  request.spelling = settings.spelling();
  request.run = experiment::parse_run_settings(settings);
  request.accountants = privacy::read_accountant_settings(settings);
  if (auto threads = settings.text("threads")) {
    const double value = parse_setting_number(settings.field("threads"), *threads);
    training::require_lot_threads(settings.field("threads"), value);
    request.threads = static_cast<int>(value);
  }
  request.secure = settings.has("secure");
  if (request.secure) {
    if (!request.run.is_private()) {
      throw InvalidArgument(settings.field("secure") + " needs a private optimizer (" +
                            request.run.optimizer + " adds no noise)");
    }
    if (settings.has("seed") || request.run.seed != 0) {  // a seed given at all
      throw InvalidArgument(settings.field("secure") +
                            " draws every seed from the operating system; drop the seed");
    }
  }
  return request;
}

bool reports_accuracy(const data::Dataset& all, const experiment::RunSettings& settings) {
  return !all.is_regression() && models::validation_metric(settings.training_config().model) ==
                                     models::ValidationMetric::kAccuracy;
}

TrainSession run_train_session(const data::Dataset& all, const data::TrainValidationSplit& split,
                               const TrainRequest& request, training::TrainingHooks hooks) {
  const experiment::RunSettings& config = request.run;
  const auto& accountants = request.accountants;
  const auto n = split.train.size();
  if (config.lot_size > static_cast<double>(n)) {
    throw InvalidArgument(setting_field(request.spelling, "lot-size") + " = " +
                          format_number(config.lot_size) +
                          " exceeds the training set size n = " + std::to_string(n));
  }
  training::TrainingConfig training_config = config.training_config();
  training_config.threads = request.threads;
  if (request.secure) {
    training_config.secure = true;
    training_config.seed = os_random_u64();  // never printed nor written
  }

  const double delta = config.delta > 0 ? config.delta : privacy::default_delta(n);
  const double sampling_rate = config.lot_size / static_cast<double>(n);
  auto epsilon_after = [&](std::int64_t queries) {
    return privacy::run_epsilon({config.noise_multiplier, sampling_rate, queries}, 1, delta,
                                accountants.run, accountants.pld);
  };
  if (config.is_private()) {
    hooks.epsilon_after = [epsilon_after](std::int64_t queries) {
      return epsilon_after(queries).epsilon;
    };
  }
  TrainSession session;
  session.accuracy = reports_accuracy(all, config);
  session.result = training::train(split, training_config, hooks);
  const training::TrainingResult& result = session.result;

  // What the epsilon does not cover: field names and label clauses (same texts as tune's).
  nlohmann::json not_covered = {"curve.csv:train_loss", "final.train_loss"};
  std::string clauses = std::string("; ") + tuning::kTrainingLossNotCovered;
  if (split.preprocessing.fitted_on_private_data) {
    not_covered.push_back("data.preprocessing");
    clauses += std::string("; ") + data::kPreprocessingNotCovered;
  }
  session.epsilon = config.is_private() ? epsilon_after(result.queries).epsilon : INFINITY;
  char delta_text[32];
  std::snprintf(delta_text, sizeof delta_text, "%g", delta);
  session.epsilon_label =
      (config.is_private()
           ? "eps <= " + privacy::format_epsilon_up(session.epsilon) + " (one run of " +
                 std::to_string(result.queries) + " noisy-gradient queries; delta = " + delta_text
           : std::string("no eps (non-private baseline")) +
      clauses + ")";

  nlohmann::json& summary = session.summary;
  summary["config"] = config.to_json();
  if (request.secure) {
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
  summary["data"]["notes"] = split.notes;  // rows dropped, values imputed, the encoding
  summary["privacy"] = {{"private", config.is_private()},
                        {"sampling_rate", sampling_rate},
                        {"delta", delta},
                        {"noise_gradient_queries", result.queries}};
  if (config.is_private()) {
    const auto eps =
        privacy::epsilon_for_delta({config.noise_multiplier, sampling_rate, result.queries}, delta);
    summary["privacy"]["epsilon"] = eps.epsilon;
    summary["privacy"]["best_order"] = eps.best_order;  // of the RDP bound
    const auto chosen = epsilon_after(result.queries);
    if (chosen.accountant == privacy::Accountant::kPld) {
      summary["privacy"]["epsilon"] = chosen.epsilon;
      summary["privacy"]["epsilon_rdp"] = eps.epsilon;
    }
    privacy::put_accountant_fields(summary["privacy"], chosen);
  }
  summary["privacy"]["epsilon_label"] = session.epsilon_label;
  summary["privacy"]["not_covered"] = not_covered;
  summary["final"] = {{"validation_loss", result.final_validation.mean_loss},
                      {"train_loss", result.final_train_loss}};
  if (session.accuracy) {
    summary["final"]["validation_accuracy"] = result.final_validation.accuracy;
  } else {
    summary["final"]["validation_mse"] = result.final_validation.mse;
  }
  summary["wall_seconds"] = result.wall_seconds;
  if (request.threads > 0) summary["threads"] = request.threads;  // changes no float of the run
  summary["status"] = result.diverged ? "diverged" : result.cancelled ? "cancelled" : "finished";
  if (result.diverged) summary["divergence"] = result.divergence;

  // The run's Release (train_release.h): what curve.csv and release.json hold.
  TrainRun run;
  run.name = all.name;
  run.training_size = static_cast<std::int64_t>(n);
  run.validation_size = static_cast<std::int64_t>(split.validation.size());
  run.lot_size = config.lot_size;
  run.sampling_rate = sampling_rate;
  run.noise_multiplier = config.noise_multiplier;
  run.is_private = config.is_private();
  run.automatic_clipping = config.clipping == models::ClippingMode::kAutomatic;
  run.secure = request.secure;
  run.delta = delta;
  run.delta_given = config.delta > 0;
  run.queries = result.queries;
  run.epsilon = session.epsilon;
  run.accountant = privacy::to_string(accountants.run);
  run.epsilon_label = session.epsilon_label;
  run.preprocessing = split.preprocessing;
  run.cancelled = result.cancelled;
  run.status = summary["status"].get<std::string>();
  run.final_metrics = summary["final"];
  run.final_metrics.erase(
      "train_loss");  // not covered: summary.json labels it, no release holds it
  run.curve = &result.curve;
  run.model = result.model;
  run.input = data::input_encoding(split);
  session.release = train_release(run);
  return session;
}

void write_train_session(const TrainSession& session, const std::string& dir) {
  write_release(session.release, dir);
  write_file_atomically((std::filesystem::path(dir) / "summary.json").string(),
                        json_text(session.summary, 2) + "\n");
}

}  // namespace dplab::release
