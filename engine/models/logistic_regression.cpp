// Logistic regression: sigmoid + binary cross-entropy (2 classes, one output) or softmax +
// cross-entropy (k >= 3); ||g_i||^2 = (||x_i||^2 + 1) ||p_i - y_i||^2.
#include "models/logistic_regression.h"

#include <cmath>
#include <string>

#include "core/error.h"
#include "core/random.h"

namespace dplab::models {

namespace {

detail::OutputHead head_for(int num_classes, BinaryOutput output) {
  if (num_classes < 2) {
    throw InvalidArgument("logistic: num_classes = " + std::to_string(num_classes) +
                          " must be >= 2 (logistic regression needs classification data)");
  }
  return num_classes == 2 && output == BinaryOutput::kSigmoid
             ? detail::OutputHead::kSigmoidCrossEntropy
             : detail::OutputHead::kSoftmaxCrossEntropy;
}

}  // namespace

LogisticRegression::LogisticRegression(Index input_dim, int num_classes, BinaryOutput output,
                                       LinearInit init)
    : SingleLayerModel("logistic", input_dim, num_classes, head_for(num_classes, output)),
      init_(init) {}

void LogisticRegression::initialize(std::uint64_t seed) {
  params_.setZero();
  if (init_ == LinearInit::kZeros) return;
  // torch.nn.Linear.reset_parameters: kaiming_uniform(a = sqrt(5)) on W gives the bound
  // sqrt(6 / ((1 + 5) d)) = 1/sqrt(d); the bias uses the same bound 1/sqrt(fan_in).
  Rng rng(seed);
  const double bound = 1.0 / std::sqrt(static_cast<double>(input_dim()));
  for (Index j = 0; j < params_.size(); ++j) {
    params_[j] = static_cast<float>(bound * (2.0 * rng.uniform() - 1.0));
  }
}

std::unique_ptr<Model> LogisticRegression::clone() const {
  return std::make_unique<LogisticRegression>(*this);
}

}  // namespace dplab::models
