// Logistic regression: sigmoid + binary cross-entropy (2 classes, one output) or softmax +
// cross-entropy (k >= 3); ||g_i||^2 = (||x_i||^2 + 1) ||p_i - y_i||^2.
#include "models/logistic_regression.h"

#include <string>

#include "core/error.h"

namespace dplab::models {

namespace {

detail::OutputHead head_for(int num_classes) {
  if (num_classes < 2) {
    throw InvalidArgument("logistic: num_classes = " + std::to_string(num_classes) +
                          " must be >= 2 (logistic regression needs classification data)");
  }
  return num_classes == 2 ? detail::OutputHead::kSigmoidCrossEntropy
                          : detail::OutputHead::kSoftmaxCrossEntropy;
}

}  // namespace

LogisticRegression::LogisticRegression(Index input_dim, int num_classes)
    : SingleLayerModel("logistic", input_dim, num_classes, head_for(num_classes)) {}

void LogisticRegression::initialize(std::uint64_t /*seed*/) {
  params_.setZero();
}

std::unique_ptr<Model> LogisticRegression::clone() const {
  return std::make_unique<LogisticRegression>(*this);
}

}  // namespace dplab::models
