#include "objective_perturbation/calibration.h"

#include <cmath>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/mechanisms/gaussian_mechanism.h"

namespace dplab::objpert {

Calibration calibrate_algorithm1(const CalibrationRequest& request) {
  require_positive("epsilon", request.epsilon);
  require_open_interval("delta", request.delta, 0.0, 1.0);
  require_positive("gradient_bound", request.gradient_bound);
  require_positive("smoothness", request.smoothness);
  require_at_least("noise_factor", request.noise_factor, 1.0);

  Calibration out;
  out.gaussian_noise_std = request.gradient_bound * privacy::analytic_gaussian_noise_multiplier(
                                                        request.epsilon, request.delta);

  ObjPertPrivacy p;
  p.gradient_bound = request.gradient_bound;
  p.smoothness = request.smoothness;
  p.tau = request.tau;
  p.output_noise_std = request.output_noise_std;
  const double lambda_min = request.smoothness * (1.0 + 1e-9);
  const double lambda_max = request.smoothness * 1e12;
  auto epsilon_at = [&](double lambda) {
    p.regularization = lambda;
    return algorithm1_rdp_epsilon(p, request.delta);
  };

  double factor = request.noise_factor;
  for (int attempt = 0;; ++attempt) {
    p.noise_std = factor * out.gaussian_noise_std;
    if (epsilon_at(lambda_max) <= request.epsilon) break;
    if (attempt == 400) {
      throw Error("calibrate_algorithm1: no (sigma, lambda) reaches epsilon = " +
                  format_number(request.epsilon));
    }
    factor *= 1.02;
  }
  // Bisection on log lambda. Invariant: epsilon(hi) <= target (hi is safe).
  double lo = std::log(lambda_min), hi = std::log(lambda_max);
  if (epsilon_at(lambda_min) <= request.epsilon) hi = lo;
  while (hi - lo > 1e-9) {
    const double mid = 0.5 * (lo + hi);
    (epsilon_at(std::exp(mid)) > request.epsilon ? lo : hi) = mid;
  }
  p.regularization = std::exp(hi);
  out.epsilon = algorithm1_rdp_epsilon(p, request.delta);
  if (!(out.epsilon <= request.epsilon)) {
    throw Error("calibrate_algorithm1: internal check failed, epsilon " +
                format_number(out.epsilon) + " > target " + format_number(request.epsilon));
  }
  out.privacy = p;
  out.noise_factor = factor;
  return out;
}

}  // namespace dplab::objpert
