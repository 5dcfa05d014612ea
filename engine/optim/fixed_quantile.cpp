// FixedQuantile step (Andrew et al. 2021, Alg. 1; see fixed_quantile.h).
#include "optim/fixed_quantile.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "optim/optimizer_checks.h"
#include "privacy/joint_gaussian.h"

namespace dplab::optim {

FixedQuantile::FixedQuantile(const OptimizerSpec& spec, const RunShape& shape)
    : learning_rate_(spec.learning_rate),
      clip_(shape.dp.clip),
      target_quantile_(spec.target_quantile),
      quantile_learning_rate_(spec.quantile_learning_rate) {
  detail::require_num_params(shape.num_params);
  require_positive("learning_rate", spec.learning_rate);
  detail::require_initial_clip(shape.dp);  // C_0
  require_open_interval("target_quantile", spec.target_quantile, 0, 1);
  require_positive("quantile_learning_rate", spec.quantile_learning_rate);
  require_non_negative("count_noise_std", spec.count_noise_std);
  require_non_negative("noise_multiplier", shape.dp.noise_multiplier);
  const double z = shape.dp.noise_multiplier;
  if (z > 0) {
    require_positive("lot_size", shape.dp.lot_size);
    // Default sigma_b: Andrew et al.'s L / 20, but at least z, so that Theorem 1's split exists
    // (2 sigma_b > z) for small lots or heavy noise; z_Delta is then at most z / sqrt(3/4).
    count_noise_std_ =
        spec.count_noise_std > 0 ? spec.count_noise_std : std::max(shape.dp.lot_size / 20, z);
    gradient_multiplier_ = privacy::quantile_gradient_noise_multiplier(z, count_noise_std_);
  }
  gradient_.setZero(shape.num_params);
}

std::string FixedQuantile::name() const {
  return to_string(OptimizerKind::kFixedQuantile);
}

double FixedQuantile::step(models::Model& model, privacy::NoisyGradientOracle& oracle) {
  detail::require_model_size(model, gradient_.size());
  double fraction = 0;
  const double loss = oracle.query_with_unclipped_count(clip_, gradient_multiplier_,
                                                        count_noise_std_, gradient_, fraction);
  model.params() -= static_cast<float>(learning_rate_) * gradient_;
  clip_ *= std::exp(-quantile_learning_rate_ * (fraction - target_quantile_));
  last_fraction_ = fraction;
  ++steps_;
  return loss;
}

double FixedQuantile::effective_step_size() const {
  return steps_ == 0 ? std::numeric_limits<double>::quiet_NaN() : learning_rate_;
}

}  // namespace dplab::optim
