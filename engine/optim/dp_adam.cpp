// DPAdam step (Kingma & Ba 2014, Alg. 1): m <- b1 m + (1-b1) g; v <- b2 v + (1-b2) g^2;
// theta <- theta - alpha (m / (1-b1^t)) / (sqrt(v / (1-b2^t)) + xi).
// GCC 12's AVX-512 intrinsic headers trip -Wmaybe-uninitialized inside Eigen's vectorised sqrt
// (GCC bug 105593, a false positive fixed in GCC 13); it is attributed to Eigen's templates, so it
// is silenced before Eigen is included; scoped to this file.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "optim/dp_adam.h"

#include <cmath>
#include <limits>

#include "optim/optimizer_checks.h"

namespace dplab::optim {

DpAdam::DpAdam(const OptimizerSpec& spec, const RunShape& shape)
    : learning_rate_(spec.learning_rate),
      beta1_(spec.beta1),
      beta2_(spec.beta2),
      epsilon_(spec.epsilon),
      xi_inside_sqrt_(spec.adam_xi_inside_sqrt) {
  detail::require_num_params(shape.num_params);
  require_positive("learning_rate", spec.learning_rate);
  detail::require_unit_interval("beta1", spec.beta1);
  detail::require_unit_interval("beta2", spec.beta2);
  require_non_negative("epsilon", spec.epsilon);
  gradient_.setZero(shape.num_params);
  first_moment_.setZero(shape.num_params);
  second_moment_.setZero(shape.num_params);
}

std::string DpAdam::name() const {
  return to_string(OptimizerKind::kDpAdam);
}

double DpAdam::step(models::Model& model, privacy::NoisyGradientOracle& oracle) {
  detail::require_model_size(model, gradient_.size());
  const double loss = oracle.query(gradient_);
  ++steps_;
  const double t = static_cast<double>(steps_);
  const double correction1 = 1.0 - std::pow(beta1_, t);  // 1 - beta1^t
  const double correction2 = 1.0 - std::pow(beta2_, t);  // 1 - beta2^t
  // 1 - beta is formed in double: 1.0f - 0.999f would be off by 1.3e-5 relative.
  const float b1 = static_cast<float>(beta1_), b2 = static_cast<float>(beta2_);
  const float one_minus_b1 = static_cast<float>(1.0 - beta1_);
  const float one_minus_b2 = static_cast<float>(1.0 - beta2_);
  first_moment_ = b1 * first_moment_ + one_minus_b1 * gradient_;
  second_moment_.array() = b2 * second_moment_.array() + one_minus_b2 * gradient_.array().square();
  const float step_size = static_cast<float>(learning_rate_ / correction1);
  const float xi = static_cast<float>(epsilon_);
  if (xi_inside_sqrt_) {
    // Variant: theta -= (alpha / c1) m / sqrt(v / c2 + xi)  ==  alpha m^ / sqrt(v^ + xi)
    const float inv_c2 = static_cast<float>(1.0 / correction2);
    model.params().array() -=
        step_size * first_moment_.array() / (second_moment_.array() * inv_c2 + xi).sqrt();
    return loss;
  }
  // theta -= (alpha / c1) m / (sqrt(v) / sqrt(c2) + xi)  ==  alpha m^ / (sqrt(v^) + xi)
  const float inv_sqrt_c2 = static_cast<float>(1.0 / std::sqrt(correction2));
  model.params().array() -=
      step_size * first_moment_.array() / (second_moment_.array().sqrt() * inv_sqrt_c2 + xi);
  return loss;
}

double DpAdam::effective_step_size() const {
  if (steps_ == 0) return std::numeric_limits<double>::quiet_NaN();
  const double correction2 = 1.0 - std::pow(beta2_, static_cast<double>(steps_));
  // mean_j alpha / (sqrt(v_j / c2) + xi) (variant: alpha / sqrt(v_j / c2 + xi)), in double.
  const Eigen::ArrayXd v_hat = second_moment_.cast<double>().array() / correction2;
  if (xi_inside_sqrt_) return (learning_rate_ / (v_hat + epsilon_).sqrt()).mean();
  return (learning_rate_ / (v_hat.sqrt() + epsilon_)).mean();
}

}  // namespace dplab::optim

#pragma GCC diagnostic pop
