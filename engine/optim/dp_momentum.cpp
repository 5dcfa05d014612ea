// DPMomentum step (PyTorch SGD-momentum convention, dampening 0): v <- m v + g~;
// theta <- theta - alpha v.
#include "optim/dp_momentum.h"

#include <limits>

#include "optim/optimizer_checks.h"

namespace dplab::optim {

DpMomentum::DpMomentum(const OptimizerSpec& spec, const RunShape& shape)
    : learning_rate_(spec.learning_rate), momentum_(spec.momentum) {
  detail::require_num_params(shape.num_params);
  require_positive("learning_rate", spec.learning_rate);
  detail::require_unit_interval("momentum", spec.momentum);
  gradient_.setZero(shape.num_params);
  velocity_.setZero(shape.num_params);
}

std::string DpMomentum::name() const {
  return to_string(OptimizerKind::kDpMomentum);
}

double DpMomentum::step(models::Model& model, privacy::NoisyGradientOracle& oracle) {
  detail::require_model_size(model, gradient_.size());
  const double loss = oracle.query(gradient_);
  velocity_ = static_cast<float>(momentum_) * velocity_ + gradient_;
  model.params() -= static_cast<float>(learning_rate_) * velocity_;
  ++steps_;
  return loss;
}

double DpMomentum::effective_step_size() const {
  return steps_ == 0 ? std::numeric_limits<double>::quiet_NaN() : learning_rate_;
}

}  // namespace dplab::optim
