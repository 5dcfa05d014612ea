// Linear regression: y_hat = x . w + b, loss 1/2 (y_hat - y)^2, ||g_i|| = |e_i| sqrt(||x_i||^2 +
// 1).
#include "models/linear_regression.h"

namespace dplab::models {

LinearRegression::LinearRegression(Index input_dim)
    : SingleLayerModel("linear", input_dim, /*num_classes=*/0, detail::OutputHead::kSquaredError) {}

void LinearRegression::initialize(std::uint64_t /*seed*/) {
  params_.setZero();
}

std::unique_ptr<Model> LinearRegression::clone() const {
  return std::make_unique<LinearRegression>(*this);
}

}  // namespace dplab::models
