// Adam's moments (adam_moments.h). GCC 12's AVX-512 headers trip -Wmaybe-uninitialized inside
// Eigen's vectorised expressions (GCC bug 105593, as in dp_adam.cpp); scoped to this file.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "optim/adam_moments.h"

#include <cmath>

#include "optim/optimizer_checks.h"

namespace dplab::optim::detail {

AdamMoments::AdamMoments(double beta1, double beta2, Index num_params)
    : beta1_(beta1), beta2_(beta2) {
  require_num_params(num_params);
  require_unit_interval("beta1", beta1);
  require_unit_interval("beta2", beta2);
  gradient_.setZero(num_params);
  first_.setZero(num_params);
  second_.setZero(num_params);
}

double AdamMoments::query_and_update(models::Model& model, privacy::NoisyGradientOracle& oracle) {
  require_model_size(model, gradient_.size());
  const double loss = oracle.query(gradient_);
  ++steps_;
  const float b1 = static_cast<float>(beta1_), b2 = static_cast<float>(beta2_);
  const float one_minus_b1 = static_cast<float>(1.0 - beta1_);
  const float one_minus_b2 = static_cast<float>(1.0 - beta2_);
  first_ = b1 * first_ + one_minus_b1 * gradient_;
  second_.array() = b2 * second_.array() + one_minus_b2 * gradient_.array().square();
  return loss;
}

double AdamMoments::correction1() const {
  return 1.0 - std::pow(beta1_, static_cast<double>(steps_));
}

double AdamMoments::correction2() const {
  return 1.0 - std::pow(beta2_, static_cast<double>(steps_));
}

}  // namespace dplab::optim::detail

#pragma GCC diagnostic pop
