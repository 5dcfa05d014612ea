#include "audit/one_run_audit.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "audit/black_box_canaries.h"
#include "audit/dirac_canaries.h"
#include "audit/last_iterate_heuristic.h"
#include "audit/reserved_coordinates_model.h"
#include "core/error.h"
#include "core/memory_check.h"
#include "core/random.h"
#include "core/validate.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/model.h"
#include "optim/optimizer.h"

namespace dplab::audit {
namespace {

// Seed streams: the trainer's (training/trainer.cpp: init 1, oracle 2) for the run, so an audited
// run draws the same model initialisation and lots as `train` with the same seed.
constexpr std::uint64_t kInitStream = 1;
constexpr std::uint64_t kOracleStream = 2;

struct TrainedRun {
  std::int64_t queries = 0;
  bool diverged = false;
};

// The trainer's loop (training/trainer.cpp) without curve points: T queries of the optimizer.
TrainedRun run_steps(models::Model& model, privacy::NoisyGradientOracle& oracle,
                     const training::TrainingConfig& config, const std::atomic<bool>* cancel,
                     const std::function<void(std::int64_t)>& on_step) {
  auto optimizer =
      optim::make_optimizer(config.optimizer, {model.num_params(), config.steps, config.dp});
  TrainedRun run;
  while (oracle.queries_made() + optimizer->queries_per_step() <= config.steps) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
    if (!std::isfinite(optimizer->step(model, oracle))) {
      run.diverged = true;
      break;
    }
    if (on_step) on_step(oracle.queries_made());
  }
  run.queries = oracle.queries_made();
  return run;
}

void check_common(const data::TrainValidationSplit& data, const training::TrainingConfig& config,
                  const OneRunAuditOptions& options) {
  require_at_least("canaries", options.canaries, 2);
  require_open_interval("confidence", options.confidence, 0, 1);
  require_non_negative("delta", options.delta);
  require_non_negative("canary_norm", options.canary_norm);
  require_at_least("steps", static_cast<double>(config.steps), 1);
  if (config.secure)
    throw InvalidArgument("the one-run audit needs seeded noise: turn secure mode off");
  if (config.divide_by_realized_lot)
    throw InvalidArgument("the one-run audit does not support the divide-by-realised-lot variant");
  if (data.train.size() == 0) throw InvalidArgument("the training set is empty");
}

AuditBound bound_of(const std::vector<double>& scores, const std::vector<bool>& included,
                    const OneRunAuditOptions& options) {
  const auto sets = options.guess_sets.empty()
                        ? default_guess_sets(static_cast<std::int64_t>(scores.size()))
                        : options.guess_sets;
  return best_bound_over_guess_sets(scores, included, sets, options.delta, options.confidence);
}

// Non-finite scores (a diverged run) rank as the least likely "in": they carry no evidence.
void sanitize(std::vector<double>& scores) {
  for (double& s : scores)
    if (!std::isfinite(s)) s = -std::numeric_limits<double>::max();
}

OneRunAuditResult white_box(const data::TrainValidationSplit& data,
                            const training::TrainingConfig& config,
                            const OneRunAuditOptions& options, const std::atomic<bool>* cancel) {
  const bool reserved = options.whitebox_canaries == WhiteBoxCanaries::kReservedCoordinates;
  std::unique_ptr<models::Model> model =
      models::make_model(config.model, data.train.dim(), data.train.num_classes);
  if (reserved) {
    // Dirac canaries (Steinke, Nasr & Jagielski 2023, white-box): canary i is C e_{d+i} on the
    // i-th of m coordinates appended to the model and never read by it.
    model = std::make_unique<ReservedCoordinatesModel>(std::move(model), options.canaries);
  } else {
    require_memory("canaries x parameters = " + std::to_string(options.canaries) + " x " +
                       std::to_string(model->num_params()) + " (the canary directions)",
                   static_cast<double>(options.canaries) *
                       static_cast<double>(model->num_params()) * sizeof(float));
  }
  // The same initialisation as the unpadded run (the reserved coordinates start at 0).
  model->initialize(derive_seed(config.seed, kInitStream));
  const double norm = options.canary_norm > 0         ? options.canary_norm
                      : std::isfinite(config.dp.clip) ? config.dp.clip
                                                      : 1.0;
  std::optional<DiracCanaries> canaries;
  if (reserved) {
    const auto& padded = static_cast<const ReservedCoordinatesModel&>(*model);
    std::vector<Index> coordinates;
    for (Index i = 0; i < padded.reserved(); ++i)
      coordinates.push_back(padded.reserved_coordinate(i));
    canaries.emplace(std::move(coordinates), model->num_params(), norm, config.dp.noise_multiplier,
                     config.dp.lot_size, options.seed);
  } else {
    canaries.emplace(options.canaries, model->num_params(), norm, config.dp.noise_multiplier,
                     config.dp.lot_size, options.seed);
  }
  privacy::NoisyGradientOracle oracle(data.train, *model, config.dp,
                                      derive_seed(config.seed, kOracleStream));
  oracle.set_clipped_sum_hook(&*canaries);
  const Vector initial = model->params();
  const TrainedRun run = run_steps(*model, oracle, config, cancel, options.on_step);
  oracle.set_clipped_sum_hook(nullptr);

  OneRunAuditResult result;
  result.mode = AuditMode::kWhiteBox;
  result.whitebox_canaries = options.whitebox_canaries;
  result.included = canaries->included();
  result.scores = canaries->all_iterate_scores();
  sanitize(result.scores);
  result.bound = bound_of(result.scores, result.included, options);
  auto final_scores = canaries->final_model_scores(initial, model->params());
  sanitize(final_scores);
  result.final_model_bound = bound_of(final_scores, result.included, options);
  result.canaries_included = canaries->included_count();
  result.sampling_rate = oracle.sampling_rate();
  result.queries = run.queries;
  result.diverged = run.diverged;
  result.final_validation_accuracy = model->evaluate(data.validation).accuracy;
  return result;
}

OneRunAuditResult black_box(const data::TrainValidationSplit& data,
                            const training::TrainingConfig& config,
                            const OneRunAuditOptions& options, const std::atomic<bool>* cancel) {
  const BlackBoxCanarySet set = make_black_box_canaries(
      data, options.canaries, options.blackbox_canaries, config.model, options.seed);
  const data::Dataset& train = set.data.train;
  auto model = models::make_model(config.model, train.dim(), train.num_classes);
  model->initialize(derive_seed(config.seed, kInitStream));
  privacy::NoisyGradientOracle oracle(train, *model, config.dp,
                                      derive_seed(config.seed, kOracleStream));
  const TrainedRun run = run_steps(*model, oracle, config, cancel, options.on_step);

  OneRunAuditResult result;
  result.mode = AuditMode::kBlackBox;
  result.blackbox_canaries = set.kind;
  result.included = set.included;
  result.scores = black_box_scores(*model, set.canaries);
  result.bound = bound_of(result.scores, result.included, options);
  result.canaries_included =
      static_cast<int>(std::count(set.included.begin(), set.included.end(), true));
  result.sampling_rate = oracle.sampling_rate();
  result.queries = run.queries;
  result.diverged = run.diverged;
  result.final_validation_accuracy = model->evaluate(set.data.validation).accuracy;
  return result;
}

}  // namespace

double predicted_last_iterate_epsilon(const training::TrainingConfig& config,
                                      std::int64_t train_size, double delta) {
  if (!config.dp.is_private() || !std::isfinite(config.dp.clip))
    return std::numeric_limits<double>::infinity();
  if (train_size < 1) throw InvalidArgument("the training set is empty");
  // The oracle's rate (dp_gradient/noisy_gradient.cpp): the set rate, else L / n capped at 1.
  const double q = config.dp.sampling_rate > 0
                       ? config.dp.sampling_rate
                       : std::min(1.0, config.dp.lot_size / static_cast<double>(train_size));
  return last_iterate_epsilon(config.dp.noise_multiplier, q, config.steps, delta);
}

OneRunAuditResult run_one_run_audit(const data::TrainValidationSplit& data,
                                    const training::TrainingConfig& config,
                                    const OneRunAuditOptions& options,
                                    const std::atomic<bool>* cancel) {
  check_common(data, config, options);
  const auto started = std::chrono::steady_clock::now();
  OneRunAuditResult result = options.mode == AuditMode::kWhiteBox
                                 ? white_box(data, config, options, cancel)
                                 : black_box(data, config, options, cancel);
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace dplab::audit
