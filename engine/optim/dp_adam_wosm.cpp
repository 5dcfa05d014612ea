// DPAdamWOSM step (main paper Alg. 2 lines 9-11): m <- b1 m + (1-b1) g;
// theta <- theta - ESS m / (1 - b1^t), with ESS = alpha / (sigma C / L + xi) fixed at construction.
#include "optim/dp_adam_wosm.h"

#include <cmath>
#include <limits>

#include "optim/optimizer_checks.h"

namespace dplab::optim {
namespace {

double effective_step(const OptimizerSpec& spec, const RunShape& shape) {
  require_positive("learning_rate", spec.learning_rate);
  require_non_negative("epsilon", spec.epsilon);
  const privacy::DpSettings& dp = shape.dp;
  require_positive("lot_size", dp.lot_size);
  require_non_negative("noise_multiplier", dp.noise_multiplier);
  if (dp.noise_multiplier > 0) require_positive("clip", dp.clip);  // finite: noise std sigma C
  if (!(dp.noise_multiplier > 0) && !(spec.epsilon > 0)) {
    fail_field("epsilon", spec.epsilon,
               "must be > 0 when noise_multiplier = 0 (DPAdamWOSM's step size alpha / "
               "(sigma C / L + epsilon) would be infinite)");
  }
  return theorem3_step_size_limit(spec.learning_rate, dp.noise_multiplier, dp.clip, dp.lot_size,
                                  spec.epsilon);
}

}  // namespace

double theorem3_step_size_limit(double learning_rate, double noise_multiplier, double clip,
                                double lot_size, double epsilon) {
  // sigma C / L, the std of the noise on the mean clipped gradient; 0 without noise even if C
  // is kNoClipping (infinite).
  const double noise_std_of_mean = noise_multiplier > 0 ? noise_multiplier * clip / lot_size : 0;
  return learning_rate / (noise_std_of_mean + epsilon);
}

DpAdamWosm::DpAdamWosm(const OptimizerSpec& spec, const RunShape& shape)
    : ess_(effective_step(spec, shape)), beta1_(spec.beta1) {
  detail::require_num_params(shape.num_params);
  detail::require_unit_interval("beta1", spec.beta1);
  gradient_.setZero(shape.num_params);
  first_moment_.setZero(shape.num_params);
}

std::string DpAdamWosm::name() const {
  return to_string(OptimizerKind::kDpAdamWosm);
}

double DpAdamWosm::step(models::Model& model, privacy::NoisyGradientOracle& oracle) {
  detail::require_model_size(model, gradient_.size());
  const double loss = oracle.query(gradient_);
  ++steps_;
  const double correction1 = 1.0 - std::pow(beta1_, static_cast<double>(steps_));
  const float b1 = static_cast<float>(beta1_);
  const float one_minus_b1 = static_cast<float>(1.0 - beta1_);  // in double, see dp_adam.cpp
  first_moment_ = b1 * first_moment_ + one_minus_b1 * gradient_;
  model.params() -= static_cast<float>(ess_ / correction1) * first_moment_;
  return loss;
}

double DpAdamWosm::effective_step_size() const {
  return steps_ == 0 ? std::numeric_limits<double>::quiet_NaN() : ess_;
}

}  // namespace dplab::optim
