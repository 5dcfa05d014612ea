#include "training/trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "core/limits.h"
#include "core/memory_check.h"
#include "core/pause_gate.h"
#include "core/random.h"
#include "core/validate.h"
#include "models/batch_parallel_model.h"
#include "training/training_guards.h"

namespace dplab::training {
namespace {

// Stream ids for derive_seed: one per stochastic component of a job.
constexpr std::uint64_t kInitStream = 1;
constexpr std::uint64_t kOracleStream = 2;

void validate(const data::TrainValidationSplit& data, const TrainingConfig& config) {
  require_run_size("steps", static_cast<double>(config.steps), 1, kMaxTrainingSteps);
  require_at_least("eval_every", static_cast<double>(config.eval_every), 1);
  if (config.threads != 0) require_lot_threads("threads", config.threads);
  if (data.train.size() == 0) throw InvalidArgument("the training set is empty");
  if (data.validation.size() == 0) throw InvalidArgument("the validation set is empty");
  if (data.train.dim() != data.validation.dim()) {
    throw InvalidArgument("training and validation sets have different feature counts");
  }
}

// Sizes that come from flags or files (steps, hidden units) checked before allocating, so that a
// huge value is a message naming the field and the memory, not std::bad_alloc.
void check_memory(const data::TrainValidationSplit& data, const TrainingConfig& config) {
  const double points = static_cast<double>(config.steps / config.eval_every + 2);
  require_memory("steps / eval_every = " + std::to_string(config.steps) + " / " +
                     std::to_string(config.eval_every) + " (the learning curve)",
                 points * sizeof(CurvePoint));
  if (config.model.kind == models::ModelKind::kTwoLayerNetwork) {
    // Weights, gradient, optimizer moments and per-example activations: ~8 copies of H x (d + k).
    const double width =
        static_cast<double>(data.train.dim()) + std::max(1, data.train.num_classes) + 1;
    require_memory(
        "hidden_units = " + std::to_string(config.model.hidden_units) + " (the network's weights)",
        8.0 * static_cast<double>(config.model.hidden_units) * width * sizeof(float));
  }
}

}  // namespace

void require_lot_threads(std::string_view field, double threads) {
  static_assert(kMaxLotThreads == models::BatchParallelModel::kMaxThreads);
  if (!(threads >= 1 && threads <= kMaxLotThreads && std::floor(threads) == threads)) {
    fail_field(field, threads,
               "must be an integer from 1 to " + std::to_string(kMaxLotThreads) +
                   " (the threads of one run; a lot is cut into at most " +
                   std::to_string(kMaxLotThreads) + " chunks)");
  }
}

std::string diverged_parameters(VectorView params) {
  // Checked after every step, so one pass with eight running sums (they vectorise; one sum is a
  // chain of dependent additions: 2.5 % of a Table 3 search's CPU): ||theta||^2 in double (a
  // float's square is at most 1.2e77, so the sum is finite exactly when every entry is), then
  // the bound.
  constexpr Index kSums = 8;
  double sums[kSums] = {};
  const float* p = params.data();
  const Index n = params.size();
  Index j = 0;
  for (; j + kSums <= n; j += kSums) {
    for (Index l = 0; l < kSums; ++l) {
      const double value = p[j + l];
      sums[l] += value * value;
    }
  }
  for (; j < n; ++j) sums[0] += static_cast<double>(p[j]) * p[j];
  double squared = 0;
  for (const double sum : sums) squared += sum;
  if (!std::isfinite(squared)) return "the parameters are not finite";
  if (!(std::sqrt(squared) <= kDivergedParameterNorm)) {
    return "the parameter norm exceeds " + format_number(kDivergedParameterNorm);
  }
  return "";
}

TrainingResult train(const data::TrainValidationSplit& data, const TrainingConfig& config,
                     const TrainingHooks& hooks) {
  validate(data, config);
  check_memory(data, config);
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  };
  const auto started = Clock::now();

  TrainingInstrumentation* instrumentation = hooks.instrumentation;
  auto model = models::make_model(config.model, data.train.dim(), data.train.num_classes);
  // Innermost, so that an audit's wrapper sees the model it expects around the split one.
  if (config.threads >= 1)
    model = std::make_unique<models::BatchParallelModel>(*model, config.threads);
  if (instrumentation) model = instrumentation->wrap_model(std::move(model));
  model->initialize(derive_seed(config.seed, kInitStream));
  privacy::NoisyGradientOracle oracle(data.train, *model, config.dp,
                                      derive_seed(config.seed, kOracleStream), config.secure);
  oracle.set_divide_by_realized_lot(config.divide_by_realized_lot);
  if (instrumentation && instrumentation->clipped_sum_hook())
    oracle.set_clipped_sum_hook(instrumentation->clipped_sum_hook());
  const optim::RunShape shape{model->num_params(), config.steps, config.dp};
  auto optimizer = optim::make_optimizer(config.optimizer, shape);

  TrainingResult result;
  result.curve.reserve(static_cast<std::size_t>(config.steps / config.eval_every + 2));
  double window_loss = 0;
  std::int64_t window_steps = 0;
  std::int64_t next_point = config.eval_every;
  // The validation metrics at the last curve point and its query count: when training ends there,
  // they are the final metrics (the parameters have not moved since), not a second pass.
  models::Evaluation last_validation;
  std::int64_t last_validation_at = -1;

  auto record_point = [&](std::int64_t queries) {
    const auto evaluation_started = Clock::now();
    const models::Evaluation validation = model->evaluate(data.validation);
    result.evaluation_seconds += seconds_since(evaluation_started);
    last_validation = validation;
    last_validation_at = queries;
    CurvePoint point;
    point.iteration = queries;
    point.train_loss = window_steps > 0 ? window_loss / static_cast<double>(window_steps)
                                        : std::numeric_limits<double>::quiet_NaN();
    point.val_loss = validation.mean_loss;
    point.val_accuracy = validation.accuracy;
    point.val_mse = validation.mse;
    point.epsilon = hooks.epsilon_after ? hooks.epsilon_after(queries)
                                        : std::numeric_limits<double>::quiet_NaN();
    point.step_size = optimizer->effective_step_size();
    const double live_clip = optimizer->clip_threshold();
    point.clip = std::isnan(live_clip) ? config.dp.clip : live_clip;
    result.curve.push_back(point);
    if (hooks.on_point) hooks.on_point(point);
    window_loss = 0;
    window_steps = 0;
  };

  // The guards (training_guards.h): theta_0 once (the frozen-parameter test at the end) and,
  // per step, the size of its last lot (two additions): each lot is Binomial(n, q) whichever
  // query of the step drew it.
  const Vector initial_params = model->params();
  std::int64_t lots = 0;
  double lot_rows = 0;

  const int queries_per_step = optimizer->queries_per_step();
  while (oracle.queries_made() + queries_per_step <= config.steps) {
    if (hooks.pause) hooks.pause->wait_while_paused(hooks.cancel);
    if (hooks.cancel && hooks.cancel->load(std::memory_order_relaxed)) {
      result.cancelled = true;
      break;
    }
    const auto step_started = Clock::now();
    const double step_loss = optimizer->step(*model, oracle);
    result.step_seconds += seconds_since(step_started);
    const std::int64_t queries = oracle.queries_made();
    // Divergence from the parameters only (trainer.h), never from the un-noised lot loss.
    if (const std::string why = diverged_parameters(model->params()); !why.empty()) {
      result.diverged = true;
      result.divergence = why + " at step " + std::to_string(queries);
      break;
    }
    ++lots;
    lot_rows += static_cast<double>(oracle.last_lot_size());
    window_loss += step_loss;
    ++window_steps;
    if (hooks.on_step) hooks.on_step(queries);
    if (queries >= next_point) {
      record_point(queries);
      while (next_point <= queries) next_point += config.eval_every;
    }
  }
  result.queries = oracle.queries_made();
  if (!result.cancelled && !result.diverged &&
      (result.curve.empty() || result.curve.back().iteration != result.queries)) {
    record_point(result.queries);
  }
  for (std::string warning :
       {lot_size_drift_warning(lots, lot_rows, static_cast<double>(data.train.size()),
                               oracle.sampling_rate()),
        result.diverged || result.cancelled
            ? std::string()
            : frozen_parameters_warning(initial_params, model->params(), result.queries)}) {
    if (!warning.empty()) result.warnings.push_back(std::move(warning));
  }
  if (instrumentation) instrumentation->on_trained(*model);
  const auto evaluation_started = Clock::now();
  result.final_validation =
      last_validation_at == result.queries ? last_validation : model->evaluate(data.validation);
  result.final_train_loss = model->evaluate(data.train).mean_loss;
  result.evaluation_seconds += seconds_since(evaluation_started);
  result.model = std::make_shared<const models::ExportedModel>(
      models::export_model(*model, config.model, data.train.num_classes));
  result.wall_seconds = seconds_since(started);
  return result;
}

}  // namespace dplab::training
