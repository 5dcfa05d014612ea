// DP-AdamBC step (dp_adam_bc.h; Tang et al. 2024): Adam's m and v (adam_moments.h), then
// theta <- theta - (alpha / (1-b1^t)) m / sqrt(max(v / (1-b2^t) - Phi, gamma')).
// GCC 12's AVX-512 headers trip -Wmaybe-uninitialized inside Eigen's vectorised sqrt (GCC bug
// 105593, as in dp_adam.cpp); silenced before Eigen is included, scoped to this file.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "optim/dp_adam_bc.h"

#include <cmath>
#include <limits>

#include "optim/optimizer_checks.h"

namespace dplab::optim {
namespace {

// Phi of the run, after checking sigma, C and L (C finite whenever there is noise).
double checked_noise_variance(const privacy::DpSettings& dp) {
  require_positive("lot_size", dp.lot_size);
  require_non_negative("noise_multiplier", dp.noise_multiplier);
  if (dp.noise_multiplier > 0) require_positive("clip", dp.clip);  // finite: noise std sigma C
  return dp_noise_variance(dp.noise_multiplier, dp.clip, dp.lot_size);
}

}  // namespace

double dp_noise_variance(double noise_multiplier, double clip, double lot_size) {
  if (!(noise_multiplier > 0)) return 0.0;
  const double std_of_mean = noise_multiplier * clip / lot_size;  // sigma C / L
  return std_of_mean * std_of_mean;
}

DpAdamBc::DpAdamBc(const OptimizerSpec& spec, const RunShape& shape)
    : learning_rate_(spec.learning_rate),
      floor_(spec.epsilon),
      noise_variance_(checked_noise_variance(shape.dp)),
      moments_(spec.beta1, spec.beta2, shape.num_params) {
  require_positive("learning_rate", spec.learning_rate);
  // gamma' > 0 and a normal float: where v^ <= Phi the denominator is sqrt(gamma'), never 0.
  require_positive("epsilon", spec.epsilon);
  if (!(spec.epsilon >= std::numeric_limits<float>::min())) {
    fail_field("epsilon", spec.epsilon,
               "must be >= 1.2e-38 (DP-AdamBC's floor gamma' is applied in float)");
  }
}

std::string DpAdamBc::name() const {
  return to_string(OptimizerKind::kDpAdamBc);
}

double DpAdamBc::step(models::Model& model, privacy::NoisyGradientOracle& oracle) {
  const double loss = moments_.query_and_update(model, oracle);  // m_t, v_t (adam_moments.h)
  // theta -= (alpha / c1) m / sqrt(max(v / c2 - Phi, gamma'))
  //       ==  alpha m^ / sqrt(max(v^ - Phi, gamma'))
  const float step_size = static_cast<float>(learning_rate_ / moments_.correction1());
  const float inv_c2 = static_cast<float>(1.0 / moments_.correction2());
  const float phi = static_cast<float>(noise_variance_);
  const float floor = static_cast<float>(floor_);
  model.params().array() -= step_size * moments_.first().array() /
                            (moments_.second().array() * inv_c2 - phi).max(floor).sqrt();
  return loss;
}

double DpAdamBc::effective_step_size() const {
  if (moments_.steps() == 0) return std::numeric_limits<double>::quiet_NaN();
  // mean_j alpha / sqrt(max(v_j / c2 - Phi, gamma')), in double.
  const Eigen::ArrayXd corrected =
      (moments_.second().cast<double>().array() / moments_.correction2() - noise_variance_)
          .max(floor_);
  return (learning_rate_ / corrected.sqrt()).mean();
}

}  // namespace dplab::optim

#pragma GCC diagnostic pop
