#include "audit/label_canary.h"

#include <algorithm>

#include "core/error.h"
#include "core/limits.h"
#include "core/random.h"
#include "core/validate.h"
#include "data/feature_rows.h"
#include "dp_gradient/noisy_gradient.h"

namespace dplab::audit {
namespace {

double rank_against(double loss, const std::vector<double>& references, std::size_t skip) {
  std::size_t greater = 0, count = 0;
  for (std::size_t j = 0; j < references.size(); ++j) {
    if (j == skip) continue;
    ++count;
    if (references[j] > loss) ++greater;
  }
  return static_cast<double>(greater) / static_cast<double>(count);
}

}  // namespace

std::vector<double> example_losses(models::Model& model, const data::Dataset& set) {
  std::vector<double> losses;
  Matrix row;  // a pixel row as floats
  for (Index i = 0; i < set.size(); ++i)
    losses.push_back(model.loss_sum(data::feature_rows(set, i, 1, row), set.targets.segment(i, 1)));
  return losses;
}

data::Dataset make_mislabelled_pool(const data::Dataset& source, int classes, std::uint64_t seed) {
  if (classes < 2) throw InvalidArgument("mislabelled canaries need at least 2 classes");
  const auto pool = source.size();
  Rng rng(seed);
  std::vector<Index> rows(static_cast<std::size_t>(pool));
  for (Index i = 0; i < pool; ++i) rows[i] = i;
  for (Index i = 0; i < pool; ++i)  // Fisher-Yates
    std::swap(rows[i],
              rows[i + static_cast<Index>(rng.below(static_cast<std::uint64_t>(pool - i)))]);
  data::Dataset chosen = data::select_rows(source, rows);
  for (Index i = 0; i < chosen.size(); ++i) {  // a wrong label, uniform among the others
    const int truth = static_cast<int>(chosen.targets[i]);
    int wrong = static_cast<int>(rng.below(static_cast<std::uint64_t>(classes - 1)));
    if (wrong >= truth) ++wrong;
    chosen.targets[i] = static_cast<float>(wrong);
  }
  return chosen;
}

LabelCanaryResult run_label_canary_audit(const data::TrainValidationSplit& data,
                                         const training::TrainingConfig& config,
                                         const LabelCanaryOptions& options) {
  require_run_size("steps", static_cast<double>(config.steps), 1, kMaxTrainingSteps);
  require_at_least("canaries", options.canaries, 2);
  require_at_least("canary_repeats", options.repeats, 0);
  if (data.train.is_regression())
    throw InvalidArgument("the label canary audit needs a classification data set");
  const int classes = std::max(2, data.train.num_classes);
  const auto pool = data.validation.size();
  if (pool < 4 * options.canaries) {
    throw InvalidArgument("the validation set has " + std::to_string(pool) + " rows; at least " +
                          std::to_string(4 * options.canaries) +
                          " (4 per canary) are needed for canaries and references");
  }
  const data::Dataset chosen = make_mislabelled_pool(data.validation, classes, options.seed);
  std::vector<Index> canary_rows, reference_rows;
  for (Index i = 0; i < pool; ++i)
    (i < options.canaries ? canary_rows : reference_rows).push_back(i);
  const data::Dataset canaries = data::select_rows(chosen, canary_rows);
  const data::Dataset references = data::select_rows(chosen, reference_rows);
  std::vector<Index> repeated;
  for (int r = 0; r < options.repeats; ++r)
    for (Index i = 0; i < options.canaries; ++i) repeated.push_back(i);
  data::Dataset train =
      repeated.empty()
          ? data.train
          : data::concatenate(data.train, data::select_rows(canaries, repeated), data.train.name);
  train.num_classes = data.train.num_classes;

  auto model = models::make_model(config.model, train.dim(), train.num_classes);
  model->initialize(derive_seed(config.seed, 1));
  privacy::NoisyGradientOracle oracle(train, *model, config.dp, derive_seed(config.seed, 2));
  auto optimizer =
      optim::make_optimizer(config.optimizer, {model->num_params(), config.steps, config.dp});
  while (oracle.queries_made() + optimizer->queries_per_step() <= config.steps)
    optimizer->step(*model, oracle);

  LabelCanaryResult result;
  const auto reference_losses = example_losses(*model, references);
  const auto canary_losses = example_losses(*model, canaries);
  for (const double loss : canary_losses)
    result.ranks.push_back(rank_against(loss, reference_losses, reference_losses.size()));
  for (std::size_t j = 0; j < reference_losses.size(); ++j)
    result.reference_ranks.push_back(rank_against(reference_losses[j], reference_losses, j));
  result.histogram = rank_histogram(result.ranks);
  result.final_validation_loss = model->evaluate(data.validation).mean_loss;
  return result;
}

}  // namespace dplab::audit
