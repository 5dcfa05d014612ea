#include "privacy/accounting/normal_quantile.h"

#include <cmath>
#include <limits>

#include "core/validate.h"
#include "privacy/accounting/log_space.h"

namespace dplab::privacy {
namespace {

constexpr double kLogSqrt2Pi = 0.91893853320467274178;  // log(sqrt(2 pi))
// Newton stops once a step is below this many ulp of x; the cap is a guard (3 steps suffice).
constexpr double kStepUlps = 4.0;
constexpr int kMaxNewtonSteps = 10;

// Phi^-1(p) for 0 < p <= 1/2 (the root x <= 0 of log Phi(x) = log p).
double lower_quantile(double p) {
  if (p == 0.5) return 0.0;
  const double log_p = std::log(p);
  // Abramowitz & Stegun 26.2.23: a rational approximation in t = sqrt(-2 log p).
  const double t = std::sqrt(-2.0 * log_p);
  double x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                       (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
  for (int i = 0; i < kMaxNewtonSteps; ++i) {
    const double log_cdf = detail::log_normal_cdf(x);
    // g'(x) = phi(x) / Phi(x), formed in log space (both underflow far in the tail).
    const double slope = std::exp(-0.5 * x * x - kLogSqrt2Pi - log_cdf);
    const double step = (log_cdf - log_p) / slope;
    x -= step;
    if (std::abs(step) <= kStepUlps * std::numeric_limits<double>::epsilon() * std::abs(x)) break;
  }
  return x;
}

}  // namespace

double normal_quantile(double p) {
  if (!(p >= 0.0 && p <= 1.0)) fail_field("p", p, "must be in [0, 1]");
  if (p == 0.0) return -std::numeric_limits<double>::infinity();
  if (p == 1.0) return std::numeric_limits<double>::infinity();
  return p <= 0.5 ? lower_quantile(p) : -lower_quantile(1.0 - p);
}

}  // namespace dplab::privacy
