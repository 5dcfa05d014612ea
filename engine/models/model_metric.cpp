// Which validation metric a model has (see model_metric.h).
#include "models/model_metric.h"

#include "models/network_description.h"

namespace dplab::models {

ValidationMetric validation_metric(const ModelSpec& spec) {
  switch (spec.kind) {
    case ModelKind::kLinearRegression:
    case ModelKind::kConvAutoencoder:
      return ValidationMetric::kMeanSquaredError;
    case ModelKind::kCustom:
      return parse_network_description(spec.network).loss == NetworkLoss::kReconstruction
                 ? ValidationMetric::kMeanSquaredError
                 : ValidationMetric::kAccuracy;
    case ModelKind::kLogisticRegression:
    case ModelKind::kTwoLayerNetwork:
    case ModelKind::kCnn:
    case ModelKind::kWideCnn:
      return ValidationMetric::kAccuracy;
  }
  return ValidationMetric::kAccuracy;
}

std::string metric_name(ValidationMetric metric) {
  return metric == ValidationMetric::kAccuracy ? "accuracy" : "MSE";
}

double metric_value(ValidationMetric metric, const Evaluation& evaluation) {
  return metric == ValidationMetric::kAccuracy ? evaluation.accuracy : evaluation.mse;
}

}  // namespace dplab::models
