// Model factory: maps a ModelSpec and a data set's shape to a model. Linear regression needs
// regression data (num_classes = 0); logistic regression and the TLNN need classification data
// (num_classes >= 2; 2 classes use one sigmoid output, more a softmax).
#include <string>

#include "core/error.h"
#include "models/linear_regression.h"
#include "models/logistic_regression.h"
#include "models/model.h"
#include "models/network_description.h"
#include "models/two_layer_network.h"

namespace dplab::models {

std::unique_ptr<Model> make_model(const ModelSpec& spec, Index input_dim, int num_classes) {
  const std::string kind = to_string(spec.kind);
  if (input_dim < 1) {
    throw InvalidArgument(kind + ": input_dim = " + std::to_string(input_dim) +
                          " must be >= 1 (the data set has no features)");
  }
  if (num_classes < 0 || num_classes == 1) {
    throw InvalidArgument(kind + ": num_classes = " + std::to_string(num_classes) +
                          " must be 0 (regression) or >= 2 (classification)");
  }
  if (spec.kind != ModelKind::kLogisticRegression &&
      (spec.binary_output != BinaryOutput::kSigmoid || spec.linear_init != LinearInit::kZeros)) {
    throw InvalidArgument(kind +
                          ": binary_output and linear_init variants apply to 'logistic' only");
  }
  switch (spec.kind) {
    case ModelKind::kCnn:
    case ModelKind::kConvAutoencoder:
    case ModelKind::kWideCnn:
      return make_network(builtin_network_json(kind), input_dim, num_classes);
    case ModelKind::kCustom:
      return make_network(spec.network, input_dim, num_classes);
    case ModelKind::kLinearRegression:
      if (num_classes != 0) {
        throw InvalidArgument(
            "linear: linear regression needs a regression data set "
            "(num_classes = 0) but the data set has " +
            std::to_string(num_classes) + " classes; use 'logistic' or 'tlnn' for classification");
      }
      return std::make_unique<LinearRegression>(input_dim);
    case ModelKind::kLogisticRegression:
    case ModelKind::kTwoLayerNetwork:
      if (num_classes == 0) {
        throw InvalidArgument(kind + ": " +
                              (spec.kind == ModelKind::kLogisticRegression
                                   ? std::string("logistic regression")
                                   : std::string("the two-layer network")) +
                              " needs a classification data set (num_classes >= 2) but the "
                              "data set has regression targets; use 'linear' for regression");
      }
      if (spec.kind == ModelKind::kLogisticRegression) {
        return std::make_unique<LogisticRegression>(input_dim, num_classes, spec.binary_output,
                                                    spec.linear_init);
      }
      return std::make_unique<TwoLayerNetwork>(input_dim, num_classes, spec.hidden_units);
  }
  throw InvalidArgument("unknown model kind " + std::to_string(static_cast<int>(spec.kind)));
}

}  // namespace dplab::models
