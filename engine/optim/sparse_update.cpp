#include "optim/sparse_update.h"

#include <cmath>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::optim {

BaseUpdateKind parse_base_update(const std::string& text) {
  if (text == "sgd") return BaseUpdateKind::kSgd;
  if (text == "adam") return BaseUpdateKind::kAdam;
  throw InvalidArgument("base update '" + text + "' is not one of: sgd, adam");
}

AdamMoments parse_adam_moments(const std::string& text) {
  if (text == "lazy") return AdamMoments::kLazy;
  if (text == "dense") return AdamMoments::kDense;
  throw InvalidArgument("Adam moments '" + text + "' is not one of: lazy, dense");
}

std::string to_string(AdamMoments moments) {
  return moments == AdamMoments::kDense ? "dense" : "lazy";
}

SparseUpdate::SparseUpdate(BaseUpdateKind kind, Index num_params, double learning_rate,
                           double beta1, double beta2, double epsilon, AdamMoments moments)
    : kind_(kind),
      moments_(moments),
      learning_rate_(learning_rate),
      beta1_(beta1),
      beta2_(beta2),
      epsilon_(epsilon) {
  require_positive("learning_rate", learning_rate);
  require_at_least("num_params", static_cast<double>(num_params), 1);
  if (kind == BaseUpdateKind::kAdam) {
    if (!(beta1 >= 0 && beta1 < 1)) fail_field("beta1", beta1, "must be in [0, 1)");
    if (!(beta2 >= 0 && beta2 < 1)) fail_field("beta2", beta2, "must be in [0, 1)");
    first_moment_.setZero(num_params);
    second_moment_.setZero(num_params);
    if (moments == AdamMoments::kDense) masked_.setZero(num_params);
  }
}

void SparseUpdate::apply(std::span<const Index> indices, std::span<const float> gradient,
                         Vector& params) {
  ++steps_;
  if (kind_ == BaseUpdateKind::kSgd) {
    for (std::size_t n = 0; n < indices.size(); ++n) {
      params[indices[n]] -= static_cast<float>(learning_rate_ * gradient[n]);
    }
    return;
  }
  if (moments_ == AdamMoments::kDense) {
    for (std::size_t n = 0; n < indices.size(); ++n) masked_[indices[n]] = gradient[n];
    dense_adam_step(masked_, params);
    for (const Index j : indices) masked_[j] = 0.0f;
    return;
  }
  const double t = static_cast<double>(steps_);
  const double step_size = learning_rate_ / (1.0 - std::pow(beta1_, t));
  const double inv_sqrt_c2 = 1.0 / std::sqrt(1.0 - std::pow(beta2_, t));
  for (std::size_t n = 0; n < indices.size(); ++n) {
    const Index j = indices[n];
    const double g = gradient[n];
    const double m = beta1_ * first_moment_[j] + (1.0 - beta1_) * g;
    const double v = beta2_ * second_moment_[j] + (1.0 - beta2_) * g * g;
    first_moment_[j] = static_cast<float>(m);
    second_moment_[j] = static_cast<float>(v);
    params[j] -= static_cast<float>(step_size * m / (std::sqrt(v) * inv_sqrt_c2 + epsilon_));
  }
}

void SparseUpdate::apply_dense(const Vector& gradient, Vector& params) {
  ++steps_;
  if (kind_ == BaseUpdateKind::kSgd) {
    params -= static_cast<float>(learning_rate_) * gradient;
    return;
  }
  dense_adam_step(gradient, params);
}

void SparseUpdate::dense_adam_step(const Vector& gradient, Vector& params) {
  const double t = static_cast<double>(steps_);
  const float step_size = static_cast<float>(learning_rate_ / (1.0 - std::pow(beta1_, t)));
  const float inv_sqrt_c2 = static_cast<float>(1.0 / std::sqrt(1.0 - std::pow(beta2_, t)));
  const float b1 = static_cast<float>(beta1_), b2 = static_cast<float>(beta2_);
  const float one_minus_b1 = static_cast<float>(1.0 - beta1_);
  const float one_minus_b2 = static_cast<float>(1.0 - beta2_);
  first_moment_ = b1 * first_moment_ + one_minus_b1 * gradient;
  second_moment_.array() = b2 * second_moment_.array() + one_minus_b2 * gradient.array().square();
  params.array() -= step_size * first_moment_.array() /
                    (second_moment_.array().sqrt() * inv_sqrt_c2 + static_cast<float>(epsilon_));
}

}  // namespace dplab::optim
