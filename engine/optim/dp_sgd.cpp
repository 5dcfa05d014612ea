// DPSGD step: theta <- theta - alpha g~ (Abadi et al. 2016, Alg. 1 "Descent").
#include "optim/dp_sgd.h"

#include <limits>

#include "optim/optimizer_checks.h"

namespace dplab::optim {

DpSgd::DpSgd(const OptimizerSpec& spec, const RunShape& shape)
    : learning_rate_(spec.learning_rate) {
  detail::require_num_params(shape.num_params);
  require_positive("learning_rate", spec.learning_rate);
  gradient_.setZero(shape.num_params);
}

std::string DpSgd::name() const {
  return to_string(OptimizerKind::kDpSgd);
}

double DpSgd::step(models::Model& model, privacy::NoisyGradientOracle& oracle) {
  detail::require_model_size(model, gradient_.size());
  const double loss = oracle.query(gradient_);
  model.params() -= static_cast<float>(learning_rate_) * gradient_;
  ++steps_;
  return loss;
}

double DpSgd::effective_step_size() const {
  return steps_ == 0 ? std::numeric_limits<double>::quiet_NaN() : learning_rate_;
}

}  // namespace dplab::optim
