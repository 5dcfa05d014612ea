#include "tuning/data_checks.h"

#include <string>

#include "core/error.h"
#include "core/validate.h"
#include "models/model_metric.h"

namespace dplab::tuning {

void validate_against_data(const experiment::ExperimentConfig& config,
                           const data::TrainValidationSplit& data) {
  const Index n = data.train.size();
  if (n == 0)
    throw InvalidArgument("the training set is empty (dataset.source = " + config.dataset.source +
                          ")");
  if (data.validation.size() == 0) {
    throw InvalidArgument("the validation set is empty (dataset.validation_fraction too small?)");
  }
  if (config.privacy.lot_size > static_cast<double>(n)) {
    throw InvalidArgument("privacy.lot_size = " + format_number(config.privacy.lot_size) +
                          " must be <= the training-set size n = " + std::to_string(n));
  }
  const bool regression = data.train.is_regression();
  if (config.model.kind == models::ModelKind::kLinearRegression && !regression) {
    throw InvalidArgument("model.kind = linear needs a regression data set, but " +
                          config.dataset.source + " has " + std::to_string(data.train.num_classes) +
                          " classes");
  }
  if (config.model.kind != models::ModelKind::kLinearRegression && regression) {
    throw InvalidArgument("model.kind = " + models::to_string(config.model.kind) +
                          " needs a classification data set, but " + config.dataset.source +
                          " is a regression data set (use model.kind = linear)");
  }
}

bool scored_by_loss(const experiment::ExperimentConfig& config,
                    const data::TrainValidationSplit& data) {
  return data.train.is_regression() || models::validation_metric(config.model.spec()) ==
                                           models::ValidationMetric::kMeanSquaredError;
}

}  // namespace dplab::tuning
