// Solvers for Algorithm 1, step 4: find theta with ||grad L^P_C(theta)|| <= tau. The solver is
// the user's free choice (no privacy cost: the guarantee only needs the stopping condition).
//   lbfgs: LBFGS++ (Qiu, header-only, Debian liblbfgspp-dev) with its Wolfe backtracking line
//          search, stopping at ||g|| <= tau/2 (margin for the re-check in double); restarted from
//          the last point if the line search gives up before tau is met, and finished with 1/L
//          gradient steps when the line search can no longer resolve progress (tiny tau).
//   gd:    full-batch gradient descent theta -= eta grad, eta = learning_rate / smoothness_bound
//          (learning_rate = 1 is the classic 1/L step, which converges for strongly convex L^P).
// The reached norm is recomputed by the caller's objective; `converged` means <= tau.
#pragma once

#include <Eigen/Core>
#include <string>

#include "objective_perturbation/perturbed_objective.h"

namespace dplab::objpert {

enum class SolverKind { kLbfgs, kGradientDescent };

// "lbfgs" / "gd"; throws InvalidArgument naming the value otherwise.
SolverKind parse_solver(const std::string& text);
const char* to_string(SolverKind solver);

struct SolverOptions {
  SolverKind kind = SolverKind::kLbfgs;
  double tau = 0.01;             // stop when ||grad|| <= tau
  long max_iterations = 100000;  // total over restarts
  double learning_rate = 1.0;    // gd: step = learning_rate / smoothness_bound
  int lbfgs_memory = 10;         // m
};

struct SolverResult {
  Eigen::VectorXd theta;
  long iterations = 0;
  double gradient_norm = 0;  // ||grad L^P_C(theta)|| at the returned theta
  bool converged = false;    // gradient_norm <= tau
};

// Starts at theta = 0.
SolverResult solve(PerturbedObjective& objective, const SolverOptions& options);

}  // namespace dplab::objpert
