// The validation metric a model has: accuracy for classifiers; mean squared error for regression
// (linear) and reconstruction (conv-autoencoder, custom networks with "loss": "reconstruction"),
// which have no accuracy. One rule for every place that prints or selects on a model's quality
// (dplab-cli train, tune's scoring, the OSO protocol, GUI labels), so none prints "val acc nan".
#pragma once

#include <string>

#include "models/model.h"

namespace dplab::models {

enum class ValidationMetric { kAccuracy, kMeanSquaredError };

// From the spec alone (no data needed). A custom network's description is parsed for its loss;
// InvalidArgument if it is not a valid description.
ValidationMetric validation_metric(const ModelSpec& spec);

// Larger is better for accuracy, smaller for MSE.
inline bool higher_is_better(ValidationMetric metric) {
  return metric == ValidationMetric::kAccuracy;
}

// "accuracy" | "MSE": the word printed beside a number.
std::string metric_name(ValidationMetric metric);

// The metric's value in an evaluation: accuracy or mse.
double metric_value(ValidationMetric metric, const Evaluation& evaluation);

}  // namespace dplab::models
