#include "audit/fdp_one_run_bound.h"

#include <algorithm>
#include <cmath>

#include "core/validate.h"
#include "privacy/accounting/log_space.h"
#include "privacy/accounting/normal_quantile.h"
#include "privacy/mechanisms/gaussian_mechanism.h"

namespace dplab::audit {
namespace {

// sigma comes back rounded up to 1e-10 relative (gaussian_mechanism.h): this factor puts mu = 1 /
// sigma back at or above the exact value.
constexpr double kMuSafetyFactor = 1.0 + 1e-9;
// Choices per canary in the guessing game: in or out (the paper's k).
constexpr double kChoices = 2;

double normal_cdf(double x) {
  return std::exp(privacy::detail::log_normal_cdf(x));
}

}  // namespace

double gaussian_trade_off_mu(double epsilon, double delta) {
  require_non_negative("epsilon", epsilon);
  require_open_interval("delta", delta, 0, 1);
  if (epsilon == 0) {
    // delta(0) = Phi(mu/2) - Phi(-mu/2) = 2 Phi(mu/2) - 1.
    return kMuSafetyFactor * 2.0 * privacy::normal_quantile(0.5 * (1.0 + delta));
  }
  return kMuSafetyFactor / privacy::analytic_gaussian_noise_multiplier(epsilon, delta);
}

double gaussian_blow_up_inverse(double y, double mu) {
  if (y <= 0) return 0.0;
  if (y >= 1) return 1.0;
  return normal_cdf(privacy::normal_quantile(y) - mu);
}

double fdp_rejection_margin(const GuessCounts& counts, double mu, double significance) {
  validate_guess_counts(counts);
  require_non_negative("mu", mu);
  require_open_interval("significance", significance, 0, 1);
  const double m = static_cast<double>(counts.canaries);
  const double guesses = static_cast<double>(counts.guesses);
  double r = significance * static_cast<double>(counts.correct) / m;
  double h = significance * (guesses - static_cast<double>(counts.correct)) / m;
  for (std::int64_t i = counts.correct - 1; i >= 0; --i) {
    const double h_next = std::max(h, (kChoices - 1) * gaussian_blow_up_inverse(r, mu));
    // h unchanged: r is unchanged too, and so is every later step.
    if (h_next == h) break;
    const double id = static_cast<double>(i);
    r = std::min(1.0, r + id / (guesses - id) * (h_next - h));
    h = h_next;
  }
  return r + h - guesses / m;
}

double fdp_epsilon_lower_bound(const GuessCounts& counts, double delta, double confidence) {
  validate_guess_counts(counts);
  require_open_interval("delta", delta, 0, 1);
  require_open_interval("confidence", confidence, 0, 1);
  const double significance = 1.0 - confidence;
  return largest_rejected_epsilon([&](double eps) {
    return fdp_rejection_margin(counts, gaussian_trade_off_mu(eps, delta), significance) > 0;
  });
}

double fdp_ceiling(std::int64_t canaries, std::int64_t guesses, double delta, double confidence) {
  return fdp_epsilon_lower_bound({canaries, guesses, guesses}, delta, confidence);
}

}  // namespace dplab::audit
