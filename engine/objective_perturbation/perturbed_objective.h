// The perturbed objective of Algorithm 1, step 3 (the objective-perturbation paper):
//   L^P_C(theta; Z, b) = sum_i f_C(x_i^T theta; y_i) + lambda/2 ||theta||^2 + b^T theta,
//   grad = X^T f_C'(X theta) + lambda theta + b.
// lambda-strongly convex and (sum_i f''_max ||x_i||^2 + lambda)-smooth.
// Not thread-safe (scratch buffers, so evaluation does not allocate); one instance per solve.
#pragma once

#include <Eigen/Core>

#include "objective_perturbation/clipped_glm_loss.h"
#include "objective_perturbation/glm_data.h"

namespace dplab::objpert {

class PerturbedObjective {
 public:
  // clip C > 0 (+infinity = none), regularization lambda > 0, perturbation b of size data.dim().
  PerturbedObjective(const GlmData& data, GlmLoss loss, double clip, double regularization,
                     Eigen::VectorXd perturbation);

  // Returns the value; writes the gradient into `gradient` (resized if needed).
  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient);
  // LBFGS++ functor signature.
  double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
    return evaluate(theta, gradient);
  }

  // Lipschitz constant of the gradient: f''_max sum_i ||x_i||^2 + lambda.
  double smoothness_bound() const;
  double regularization() const { return regularization_; }
  Eigen::Index dim() const { return data_.dim(); }
  long evaluations() const { return evaluations_; }

 private:
  const GlmData& data_;
  GlmLoss loss_;
  double regularization_;
  Eigen::VectorXd perturbation_;
  Eigen::VectorXd clip_over_norm_;  // C / ||x_i||
  Eigen::VectorXd margin_;          // scratch: X theta
  Eigen::VectorXd derivative_;      // scratch: f_C'
  long evaluations_ = 0;
};

}  // namespace dplab::objpert
