#include "privacy/mechanisms/gaussian_mechanism.h"

#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"

namespace dplab::privacy {
namespace {

// Bisection relative precision: far below anything a user reads, far above double rounding.
constexpr double kRelativePrecision = 1e-10;

}  // namespace

double classic_gaussian_noise_multiplier(double epsilon, double delta) {
  require_open_interval("epsilon", epsilon, 0.0, 1.0);
  require_open_interval("delta", delta, 0.0, 1.0);
  return std::sqrt(2.0 * std::log(1.25 / delta)) / epsilon;
}

double classic_gaussian_epsilon(double noise_multiplier, double delta) {
  require_positive("noise_multiplier", noise_multiplier);
  require_open_interval("delta", delta, 0.0, 1.0);
  const double epsilon = std::sqrt(2.0 * std::log(1.25 / delta)) / noise_multiplier;
  return epsilon < 1.0 ? epsilon : std::numeric_limits<double>::infinity();
}

double analytic_gaussian_delta(double noise_multiplier, double epsilon) {
  require_positive("noise_multiplier", noise_multiplier);
  require_non_negative("epsilon", epsilon);
  const double s = noise_multiplier;
  const double half_inv = 0.5 / s;
  // delta = Phi(h - e s) - e^e Phi(-h - e s) = Phi(h - e s) * (1 - exp(log_t2 - log_t1)).
  const double log_t1 = detail::log_normal_cdf(half_inv - epsilon * s);
  const double log_t2 = epsilon + detail::log_normal_cdf(-half_inv - epsilon * s);
  if (!(log_t2 < log_t1)) return 0.0;  // only by rounding, when delta is far below 1e-300
  const double delta = std::exp(log_t1) * -std::expm1(log_t2 - log_t1);
  return std::max(delta, 0.0);
}

double analytic_gaussian_epsilon(double noise_multiplier, double delta) {
  require_positive("noise_multiplier", noise_multiplier);
  require_open_interval("delta", delta, 0.0, 1.0);
  if (analytic_gaussian_delta(noise_multiplier, 0.0) <= delta) return 0.0;
  // Invariant: delta(lo) > delta >= delta(hi); delta(epsilon) decreases in epsilon.
  double lo = 0.0, hi = 1.0;
  while (analytic_gaussian_delta(noise_multiplier, hi) > delta) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e12) throw Error("analytic_gaussian_epsilon: no epsilon below 1e12 reaches delta");
  }
  while (hi - lo > kRelativePrecision * hi) {
    const double mid = 0.5 * (lo + hi);
    (analytic_gaussian_delta(noise_multiplier, mid) > delta ? lo : hi) = mid;
  }
  return hi;
}

double analytic_gaussian_noise_multiplier(double epsilon, double delta) {
  require_positive("epsilon", epsilon);
  require_open_interval("delta", delta, 0.0, 1.0);
  // Invariant: delta(lo) > delta >= delta(hi); delta decreases in sigma.
  double hi = 1.0;
  while (analytic_gaussian_delta(hi, epsilon) > delta) {
    hi *= 2.0;
    if (hi > 1e12) throw Error("analytic_gaussian_noise_multiplier: no sigma below 1e12 suffices");
  }
  double lo = hi / 2.0;
  while (analytic_gaussian_delta(lo, epsilon) <= delta) {
    hi = lo;
    lo /= 2.0;
    if (lo < 1e-12) return hi;
  }
  while (hi - lo > kRelativePrecision * hi) {
    const double mid = 0.5 * (lo + hi);
    (analytic_gaussian_delta(mid, epsilon) > delta ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace dplab::privacy
