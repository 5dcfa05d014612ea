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
      epsilon_(spec.epsilon),
      xi_inside_sqrt_(spec.adam_xi_inside_sqrt),
      moments_(spec.beta1, spec.beta2, shape.num_params) {
  require_positive("learning_rate", spec.learning_rate);
  require_non_negative("epsilon", spec.epsilon);
}

std::string DpAdam::name() const {
  return to_string(OptimizerKind::kDpAdam);
}

double DpAdam::step(models::Model& model, privacy::NoisyGradientOracle& oracle) {
  const double loss = moments_.query_and_update(model, oracle);  // m_t, v_t (adam_moments.h)
  const double correction1 = moments_.correction1();             // 1 - beta1^t
  const double correction2 = moments_.correction2();             // 1 - beta2^t
  const Vector& m = moments_.first();
  const Vector& v = moments_.second();
  const float step_size = static_cast<float>(learning_rate_ / correction1);
  const float xi = static_cast<float>(epsilon_);
  if (xi_inside_sqrt_) {
    // Variant: theta -= (alpha / c1) m / sqrt(v / c2 + xi)  ==  alpha m^ / sqrt(v^ + xi)
    const float inv_c2 = static_cast<float>(1.0 / correction2);
    model.params().array() -= step_size * m.array() / (v.array() * inv_c2 + xi).sqrt();
    return loss;
  }
  // theta -= (alpha / c1) m / (sqrt(v) / sqrt(c2) + xi)  ==  alpha m^ / (sqrt(v^) + xi)
  const float inv_sqrt_c2 = static_cast<float>(1.0 / std::sqrt(correction2));
  model.params().array() -= step_size * m.array() / (v.array().sqrt() * inv_sqrt_c2 + xi);
  return loss;
}

double DpAdam::effective_step_size() const {
  if (moments_.steps() == 0) return std::numeric_limits<double>::quiet_NaN();
  // mean_j alpha / (sqrt(v_j / c2) + xi) (variant: alpha / sqrt(v_j / c2 + xi)), in double.
  const Eigen::ArrayXd v_hat = moments_.second().cast<double>().array() / moments_.correction2();
  if (xi_inside_sqrt_) return (learning_rate_ / (v_hat + epsilon_).sqrt()).mean();
  return (learning_rate_ / (v_hat.sqrt() + epsilon_)).mean();
}

}  // namespace dplab::optim

#pragma GCC diagnostic pop
