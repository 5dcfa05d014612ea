// Algorithm 1 of the objective-perturbation paper (computational objective perturbation, an
// extension of Approximate Minima Perturbation, Iyengar et al. 2019):
//   1. clipped-gradient losses l_C(theta; z) (clip C)             -> clipped_glm_loss.h
//   2. b ~ N(0, sigma^2 I_d)
//   3. L^P_C(theta) = sum_z l_C(theta; z) + lambda/2 ||theta||^2 + b^T theta
//   4. solve until ||grad L^P_C(theta_hat)|| <= tau               -> solver.h (any solver)
//   5. release theta_hat + N(0, sigma_out^2 I_d).
// Privacy: Theorem 4.1 (privacy_bounds.h) with L = C and beta = f''_max * 2 (rows of norm <= sqrt
// 2); the data passed in must already be the GLM design (glm_data.h: unit-norm rows + bias). If the
// solver does not reach tau, NOTHING is released: run() throws dplab::Error (releasing a
// non-converged point would void the guarantee).
// Seeds: b from derive_seed(seed, 1), the output noise from derive_seed(seed, 2).
#pragma once

#include <Eigen/Core>
#include <cstdint>

#include "objective_perturbation/clipped_glm_loss.h"
#include "objective_perturbation/glm_data.h"
#include "objective_perturbation/privacy_bounds.h"
#include "objective_perturbation/solver.h"

namespace dplab::objpert {

struct Algorithm1Settings {
  GlmLoss loss = GlmLoss::kLogistic;
  double clip = 1.4142135623730951;  // C (paper: sqrt 2 for unit-norm rows + bias)
  double noise_std = 1.0;            // sigma
  double regularization = 1.0;       // lambda
  double tau = 0.01;                 // gradient-norm threshold (paper section 5)
  double output_noise_std = 0.15;    // sigma_out (paper section 5)
  SolverOptions solver;              // solver.tau is overwritten by tau
  std::uint64_t seed = 0;
};

struct Algorithm1Result {
  Eigen::VectorXd theta;     // the released model theta_hat + N(0, sigma_out^2 I)
  long iterations = 0;       // solver iterations (diagnostic, not covered by epsilon)
  double gradient_norm = 0;  // reached ||grad|| <= tau: curator-only, never printed or stored
  long objective_evaluations = 0;
  double wall_seconds = 0;
};

// The privacy parameters of a run on `data` (beta from the loss and the design's row norms).
ObjPertPrivacy privacy_of(const Algorithm1Settings& settings, const GlmData& data);

// beta = f''_max * R^2 with R = sqrt 2, the public row-norm bound of make_glm_data's design
// (throws InvalidArgument if a row exceeds it).
double smoothness_of(GlmLoss loss, const GlmData& data);

// Runs Algorithm 1. Throws InvalidArgument (bad settings, lambda <= beta) or Error (no
// convergence).
Algorithm1Result run_algorithm1(const GlmData& data, const Algorithm1Settings& settings);

}  // namespace dplab::objpert
