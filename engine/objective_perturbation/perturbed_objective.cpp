#include "objective_perturbation/perturbed_objective.h"

#include <limits>
#include <utility>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::objpert {

PerturbedObjective::PerturbedObjective(const GlmData& data, GlmLoss loss, double clip,
                                       double regularization, Eigen::VectorXd perturbation)
    : data_(data),
      loss_(loss),
      regularization_(regularization),
      perturbation_(std::move(perturbation)) {
  if (!(clip > 0)) throw InvalidArgument("clip = " + format_number(clip) + " must be > 0");
  require_positive("regularization", regularization);
  if (perturbation_.size() != data.dim()) {
    throw InvalidArgument("perturbation has " + std::to_string(perturbation_.size()) +
                          " entries, the design has " + std::to_string(data.dim()) + " columns");
  }
  clip_over_norm_.resize(data.size());
  for (Eigen::Index i = 0; i < data.size(); ++i) {
    const double norm = data.row_norm(i);
    clip_over_norm_(i) = norm > 0 ? clip / norm : std::numeric_limits<double>::infinity();
  }
  margin_.resize(data.size());
  derivative_.resize(data.size());
}

double PerturbedObjective::evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
  ++evaluations_;
  margin_.noalias() = data_.x * theta;
  double value = 0.0;
  for (Eigen::Index i = 0; i < data_.size(); ++i) {
    const LossValue l = clipped_loss(loss_, margin_(i), data_.y(i), clip_over_norm_(i));
    value += l.value;
    derivative_(i) = l.derivative;
  }
  gradient.resize(theta.size());
  gradient.noalias() = data_.x.transpose() * derivative_;
  gradient += regularization_ * theta + perturbation_;
  return value + 0.5 * regularization_ * theta.squaredNorm() + perturbation_.dot(theta);
}

double PerturbedObjective::smoothness_bound() const {
  return second_derivative_bound(loss_) * data_.row_norm.squaredNorm() + regularization_;
}

}  // namespace dplab::objpert
