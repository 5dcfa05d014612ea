// The shared adaptive-clipping step (see adaptive_clipping.h).
#include "optim/adaptive_clipping.h"

#include <limits>

#include "optim/optimizer_checks.h"

namespace dplab::optim {

AdaptiveClipping::AdaptiveClipping(const OptimizerSpec& spec, const RunShape& shape)
    : learning_rate_(spec.learning_rate), clip_(shape.dp.clip) {
  detail::require_num_params(shape.num_params);
  require_positive("learning_rate", spec.learning_rate);
  detail::require_initial_clip(shape.dp);  // C_0
  require_non_negative("noise_multiplier", shape.dp.noise_multiplier);
  gradient_.setZero(shape.num_params);
}

double AdaptiveClipping::step(models::Model& model, privacy::NoisyGradientOracle& oracle) {
  detail::require_model_size(model, gradient_.size());
  const double loss = release(oracle);
  model.params() -= static_cast<float>(learning_rate_) * gradient_;  // with rho_t
  adapt();
  ++steps_;
  return loss;
}

double AdaptiveClipping::effective_step_size() const {
  return steps_ == 0 ? std::numeric_limits<double>::quiet_NaN() : learning_rate_;
}

}  // namespace dplab::optim
