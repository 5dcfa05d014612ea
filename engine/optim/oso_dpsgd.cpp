// OSO-DPSGD step (Galli et al. 2023, Alg. 1 lines 4-15; see oso_dpsgd.h for the typos fixed).
#include "optim/oso_dpsgd.h"

#include <cmath>

#include "optim/optimizer_checks.h"
#include "privacy/accounting/joint_gaussian.h"

namespace dplab::optim {
namespace {

// sign(x) with sign(0) = 0: a zero dot product (the first step, q~_0 = g~_0 = 0) adapts nothing.
double sign_of(double x) {
  return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
}

double dot(const Vector& a, const Vector& b) {
  return a.cast<double>().dot(b.cast<double>());
}

}  // namespace

OsoDpSgd::OsoDpSgd(const OptimizerSpec& spec, const RunShape& shape)
    : AdaptiveClipping(spec, shape),
      clip_rate_(spec.clip_adaptation_rate),
      rate_rate_(spec.learning_rate_adaptation_rate) {
  require_non_negative("clip_adaptation_rate", spec.clip_adaptation_rate);
  require_non_negative("learning_rate_adaptation_rate", spec.learning_rate_adaptation_rate);
  require_non_negative("direction_noise_ratio", spec.direction_noise_ratio);
  const double nu = shape.dp.noise_multiplier;
  if (nu > 0) {
    if (spec.direction_noise_ratio != 0 && !(spec.direction_noise_ratio > 1)) {
      fail_field("direction_noise_ratio", spec.direction_noise_ratio,
                 "must be > 1 (nu_q > nu, Galli et al. Prop. 1), or 0 for the 1% rule");
    }
    direction_multiplier_ = spec.direction_noise_ratio == 0
                                ? privacy::oso_direction_multiplier_for_increase(nu, 0.01)
                                : spec.direction_noise_ratio * nu;
    gradient_multiplier_ = privacy::oso_gradient_noise_multiplier(nu, direction_multiplier_);
  }
  directions_.setZero(shape.num_params);
  previous_gradient_.setZero(shape.num_params);
  previous_directions_.setZero(shape.num_params);
}

std::string OsoDpSgd::name() const {
  return to_string(OptimizerKind::kOsoDpSgd);
}

double OsoDpSgd::release(privacy::NoisyGradientOracle& oracle) {
  return oracle.query_with_directions(clip_, gradient_multiplier_, direction_multiplier_, gradient_,
                                      directions_);
}

void OsoDpSgd::adapt() {
  // Lines 14-15, from the sanitized vectors only (post-processing).
  const double clip_sign = sign_of(dot(gradient_, previous_directions_));
  const double rate_sign = sign_of(dot(gradient_, previous_gradient_));
  clip_ *= std::exp(clip_rate_ * clip_sign);
  learning_rate_ *= std::exp(rate_rate_ * rate_sign);
  previous_gradient_.swap(gradient_);
  previous_directions_.swap(directions_);
}

}  // namespace dplab::optim
