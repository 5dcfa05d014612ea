#include "objective_perturbation/solver.h"

#include <LBFGS.h>

#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/validate.h"

namespace dplab::objpert {

SolverKind parse_solver(const std::string& text) {
  if (text == "lbfgs") return SolverKind::kLbfgs;
  if (text == "gd") return SolverKind::kGradientDescent;
  // The name as a bounded excerpt: a preset may hold any string there.
  throw InvalidArgument("solver = " + json_excerpt(nlohmann::json(text)) +
                        " must be \"lbfgs\" or \"gd\"");
}

const char* to_string(SolverKind solver) {
  return solver == SolverKind::kLbfgs ? "lbfgs" : "gd";
}

namespace {

// Gradient descent from out.theta, counting into out.iterations.
void descend(PerturbedObjective& objective, const SolverOptions& options, SolverResult& out) {
  Eigen::VectorXd gradient(objective.dim());
  const double step = options.learning_rate / objective.smoothness_bound();
  objective.evaluate(out.theta, gradient);
  out.gradient_norm = gradient.norm();
  while (out.gradient_norm > options.tau && out.iterations < options.max_iterations) {
    out.theta -= step * gradient;
    objective.evaluate(out.theta, gradient);
    out.gradient_norm = gradient.norm();
    ++out.iterations;
  }
}

SolverResult solve_gd(PerturbedObjective& objective, const SolverOptions& options) {
  SolverResult out;
  out.theta = Eigen::VectorXd::Zero(objective.dim());
  descend(objective, options, out);
  return out;
}

SolverResult solve_lbfgs(PerturbedObjective& objective, const SolverOptions& options) {
  SolverResult out;
  out.theta = Eigen::VectorXd::Zero(objective.dim());
  Eigen::VectorXd gradient(objective.dim());
  objective.evaluate(out.theta, gradient);
  out.gradient_norm = gradient.norm();
  for (int restart = 0;
       restart < 20 && out.gradient_norm > options.tau && out.iterations < options.max_iterations;
       ++restart) {
    LBFGSpp::LBFGSParam<double> param;
    param.m = options.lbfgs_memory;
    param.epsilon = 0.5 * options.tau;
    param.epsilon_rel = 0.0;
    param.max_iterations =
        static_cast<int>(std::min<long>(options.max_iterations - out.iterations, 1L << 30));
    LBFGSpp::LBFGSSolver<double> solver(param);
    Eigen::VectorXd x = out.theta;
    double fx = 0;
    try {
      out.iterations += solver.minimize(objective, x, fx);
    } catch (const std::exception&) {
      // Line search gave up (typically at the limit of double precision): keep the best point
      // LBFGS++ has written back and re-check the gradient below.
      out.iterations += 1;
    }
    if (!x.allFinite()) break;
    Eigen::VectorXd g(objective.dim());
    objective.evaluate(x, g);
    if (g.norm() <= out.gradient_norm) {
      out.theta = x;
      out.gradient_norm = g.norm();
    } else {
      break;  // no progress from the line search
    }
  }
  // The line search compares objective values, which stop resolving progress near the
  // minimiser (relative precision 1e-16 of a sum over n rows); gradient steps of 1/L need only
  // gradients and never increase ||grad|| on a convex L-smooth objective.
  if (out.gradient_norm > options.tau && out.iterations < options.max_iterations) {
    SolverOptions gd = options;
    gd.learning_rate = 1.0;
    descend(objective, gd, out);
  }
  return out;
}

}  // namespace

SolverResult solve(PerturbedObjective& objective, const SolverOptions& options) {
  require_positive("tau", options.tau);
  if (options.max_iterations < 1) throw InvalidArgument("max_iterations must be >= 1");
  require_positive("learning_rate", options.learning_rate);
  if (options.lbfgs_memory < 1) throw InvalidArgument("lbfgs_memory must be >= 1");
  SolverResult out = options.kind == SolverKind::kLbfgs ? solve_lbfgs(objective, options)
                                                        : solve_gd(objective, options);
  out.converged = out.gradient_norm <= options.tau;
  return out;
}

}  // namespace dplab::objpert
