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
  if (!config.privacy.sampling_rate && config.privacy.lot_size > static_cast<double>(n)) {
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
  check_score_noise_applies(config.release, scored_by_loss(config, data));
}

void check_score_noise_applies(const experiment::ReleaseConfig& release, bool loss_scored) {
  if (loss_scored && release.mode == experiment::ReleaseMode::kPrivate &&
      release.validation == experiment::ValidationAssumption::kPrivate) {
    throw InvalidArgument(
        "release.validation = private: the noisy score is calibrated to the validation accuracy "
        "(sensitivity 1/n_val), but this search is scored by the validation MSE, whose "
        "sensitivity is unbounded; use validation public (the validation set not protected)");
  }
}

bool scored_by_loss(const experiment::ExperimentConfig& config,
                    const data::TrainValidationSplit& data) {
  return data.train.is_regression() || models::validation_metric(config.model.spec()) ==
                                           models::ValidationMetric::kMeanSquaredError;
}

}  // namespace dplab::tuning
