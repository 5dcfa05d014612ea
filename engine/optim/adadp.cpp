// ADADP adaptation (Koskela & Honkela 2020, Alg. 1): compare one step of size eta with two
// half steps; err = ||(theta1 - theta2) / max(1, |theta1|)||_2; eta *= clamp(sqrt(tau/err), 0.9,
// 1.1); accept theta2 iff err <= tau.
#include "optim/adadp.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "optim/optimizer_checks.h"

namespace dplab::optim {
namespace {

// Growth/shrink limits of eta per adaptation (Koskela & Honkela 2020, Alg. 1).
constexpr double kMinFactor = 0.9;
constexpr double kMaxFactor = 1.1;

double tolerance_for(const OptimizerSpec& spec, const RunShape& shape) {
  require_non_negative("adadp_tolerance", spec.adadp_tolerance);
  if (spec.adadp_tolerance > 0) return spec.adadp_tolerance;
  // Default tau = sqrt(d / (2T)).
  if (shape.total_queries <= 0) {
    fail_field("total_queries", static_cast<double>(shape.total_queries),
               "must be > 0 for ADADP's default tolerance sqrt(d / (2T)) (or set adadp_tolerance)");
  }
  return std::sqrt(static_cast<double>(shape.num_params) /
                   (2.0 * static_cast<double>(shape.total_queries)));
}

}  // namespace

AdaDp::AdaDp(const OptimizerSpec& spec, const RunShape& shape)
    : eta_(spec.learning_rate),
      tolerance_((detail::require_num_params(shape.num_params), tolerance_for(spec, shape))),
      last_error_(std::numeric_limits<double>::quiet_NaN()) {
  require_positive("learning_rate", spec.learning_rate);
  start_.setZero(shape.num_params);
  full_step_.setZero(shape.num_params);
  gradient_.setZero(shape.num_params);
}

std::string AdaDp::name() const {
  return to_string(OptimizerKind::kAdaDp);
}

double AdaDp::step(models::Model& model, privacy::NoisyGradientOracle& oracle) {
  detail::require_model_size(model, gradient_.size());
  Vector& theta = model.params();
  const float eta = static_cast<float>(eta_);
  const float half_eta = static_cast<float>(0.5 * eta_);

  start_ = theta;
  const double loss = oracle.query(gradient_);  // g1 at theta
  full_step_ = start_ - eta * gradient_;        // theta1
  theta -= half_eta * gradient_;                // theta_half
  oracle.query(gradient_);                      // g2 at theta_half
  theta -= half_eta * gradient_;                // theta2

  // err^2 = sum_j (theta1_j - theta2_j)^2 / max(1, theta1_j^2), accumulated in double.
  const double error_sq =
      ((full_step_ - theta).array().square() / full_step_.array().square().max(1.0f))
          .cast<double>()
          .sum();
  const double error = std::sqrt(error_sq);
  last_error_ = error;
  // sqrt(tau / 0) = inf -> clamped to the maximal growth.
  const double factor = std::clamp(std::sqrt(tolerance_ / error), kMinFactor, kMaxFactor);
  eta_ *= factor;

  if (error <= tolerance_) {
    ++accepted_;
  } else {
    theta = start_;
    ++rejected_;
  }
  return loss;
}

double AdaDp::effective_step_size() const {
  return accepted_ + rejected_ == 0 ? std::numeric_limits<double>::quiet_NaN() : eta_;
}

}  // namespace dplab::optim
