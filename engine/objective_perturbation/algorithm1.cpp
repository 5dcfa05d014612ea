#include "objective_perturbation/algorithm1.h"

#include <chrono>

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "objective_perturbation/perturbed_objective.h"
#include "privacy/mechanisms/gaussian_noise.h"

namespace dplab::objpert {
namespace {

// d i.i.d. N(0, stddev^2) from the project's Gaussian sampler (float draws, widened).
Eigen::VectorXd gaussian_vector(Eigen::Index d, double stddev, std::uint64_t seed) {
  Vector draws(d);
  privacy::GaussianNoise noise(seed);
  noise.fill(stddev, draws);
  return draws.cast<double>();
}

}  // namespace

double smoothness_of(GlmLoss loss, const GlmData& data) {
  // The PUBLIC bound on the row norm (unit-norm features + bias), not the data's own maximum,
  // which could leak (a set whose rows are all zero would get a smaller beta).
  if (data.max_row_norm() > kDesignRowNormBound * (1 + 1e-12)) {
    throw InvalidArgument("the design has a row of norm " + format_number(data.max_row_norm()) +
                          " > sqrt 2: build it with make_glm_data");
  }
  return second_derivative_bound(loss) * kDesignRowNormBound * kDesignRowNormBound;
}

ObjPertPrivacy privacy_of(const Algorithm1Settings& settings, const GlmData& data) {
  ObjPertPrivacy p;
  p.noise_std = settings.noise_std;
  p.regularization = settings.regularization;
  p.smoothness = smoothness_of(settings.loss, data);
  p.gradient_bound = settings.clip;
  p.tau = settings.tau;
  p.output_noise_std = settings.output_noise_std;
  validate(p);
  return p;
}

Algorithm1Result run_algorithm1(const GlmData& data, const Algorithm1Settings& settings) {
  const auto start = std::chrono::steady_clock::now();
  if (data.size() == 0) throw InvalidArgument("the training data has no rows");
  require_positive("tau", settings.tau);
  require_positive("output_noise_std", settings.output_noise_std);
  privacy_of(settings, data);  // validates lambda > beta and the rest

  PerturbedObjective objective(
      data, settings.loss, settings.clip, settings.regularization,
      gaussian_vector(data.dim(), settings.noise_std, derive_seed(settings.seed, 1)));
  SolverOptions solver = settings.solver;
  solver.tau = settings.tau;
  const SolverResult solved = solve(objective, solver);
  if (!solved.converged) {
    // Only public settings in the message: the reached gradient norm (and where the solver
    // stopped) depend on the private data and are not covered by epsilon (issue #23 item 9).
    throw Error("Algorithm 1: the " + std::string(to_string(solver.kind)) +
                " solver did not reach ||gradient|| <= tau = " + format_number(settings.tau) +
                " (max_iterations = " + std::to_string(solver.max_iterations) +
                "); nothing released (raise max_iterations or tau)");
  }
  Algorithm1Result out;
  out.theta = solved.theta +
              gaussian_vector(data.dim(), settings.output_noise_std, derive_seed(settings.seed, 2));
  out.iterations = solved.iterations;
  out.gradient_norm = solved.gradient_norm;
  out.objective_evaluations = objective.evaluations();
  out.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dplab::objpert
