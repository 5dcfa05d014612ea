// FixedQuantile step (Andrew et al. 2021, Alg. 1; see fixed_quantile.h).
#include "optim/fixed_quantile.h"

#include <algorithm>
#include <cmath>

#include "optim/optimizer_checks.h"
#include "privacy/accounting/joint_gaussian.h"

namespace dplab::optim {

FixedQuantile::FixedQuantile(const OptimizerSpec& spec, const RunShape& shape)
    : AdaptiveClipping(spec, shape),
      target_quantile_(spec.target_quantile),
      quantile_learning_rate_(spec.quantile_learning_rate) {
  require_open_interval("target_quantile", spec.target_quantile, 0, 1);
  require_positive("quantile_learning_rate", spec.quantile_learning_rate);
  require_non_negative("count_noise_std", spec.count_noise_std);
  const double z = shape.dp.noise_multiplier;
  if (z > 0) {
    require_positive("lot_size", shape.dp.lot_size);
    // Default sigma_b: Andrew et al.'s L / 20, but at least z, so that Theorem 1's split exists
    // (2 sigma_b > z) for small lots or heavy noise; z_Delta is then at most z / sqrt(3/4).
    count_noise_std_ =
        spec.count_noise_std > 0 ? spec.count_noise_std : std::max(shape.dp.lot_size / 20, z);
    gradient_multiplier_ = privacy::quantile_gradient_noise_multiplier(z, count_noise_std_);
  }
}

std::string FixedQuantile::name() const {
  return to_string(OptimizerKind::kFixedQuantile);
}

double FixedQuantile::release(privacy::NoisyGradientOracle& oracle) {
  double noisy_centred_count = 0;
  const double loss = oracle.query_with_unclipped_count(
      clip_, gradient_multiplier_, count_noise_std_, gradient_, noisy_centred_count);
  last_fraction_ =
      privacy::unclipped_fraction_estimate(noisy_centred_count, oracle.settings().lot_size);
  return loss;
}

void FixedQuantile::adapt() {
  clip_ *= std::exp(-quantile_learning_rate_ * (last_fraction_ - target_quantile_));
}

}  // namespace dplab::optim
