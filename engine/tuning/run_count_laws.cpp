#include "tuning/run_count_laws.h"

#include <cmath>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::tuning {
namespace {

// Inversion: the smallest k >= first with u < P[K <= k], walking the pmf by its ratio
// p(k+1)/p(k). Stops at `last` (the remaining mass is below double precision there).
template <class Ratio>
std::int64_t invert(double u, std::int64_t first, double p_first, std::int64_t last, Ratio ratio) {
  std::int64_t k = first;
  double p = p_first, cdf = p_first;
  while (u >= cdf && k < last) {
    p *= ratio(k);
    ++k;
    cdf += p;
  }
  return k;
}

// eta / (gamma^{-eta} - 1), -> 1/log(1/gamma) as eta -> 0.
double tnb_norm(double eta, double gamma) {
  const double log_inv_gamma = -std::log(gamma);
  if (std::abs(eta) < 1e-12) return 1.0 / log_inv_gamma;
  return eta / std::expm1(eta * log_inv_gamma);
}

void check_tnb(double eta, double gamma) {
  require_finite("eta", eta);
  if (!(eta > -1.0)) fail_field("eta", eta, "must be > -1");
  require_open_interval("gamma", gamma, 0.0, 1.0);
}

}  // namespace

std::int64_t lt_hard_stop(double gamma, double delta2) {
  require_left_open_interval("gamma", gamma, 0.0, 1.0);
  require_open_interval("delta2", delta2, 0.0, 1.0);
  const double upsilon = std::ceil(std::log(1.0 / delta2) / gamma);
  if (!(upsilon <= 1e9))
    fail_field("gamma", gamma, "gives a hard stop ln(1/delta2)/gamma above 1e9 runs");
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(upsilon));
}

std::int64_t sample_truncated_geometric(Rng& rng, double gamma, std::int64_t hard_stop) {
  require_left_open_interval("gamma", gamma, 0.0, 1.0);
  if (hard_stop < 1) fail_field("hard_stop", static_cast<double>(hard_stop), "must be >= 1");
  // The sequential coin of Alg. 1: after run k, stop with probability gamma.
  std::int64_t k = 1;
  while (k < hard_stop && !(rng.uniform() < gamma)) ++k;
  return k;
}

double truncated_geometric_pmf(std::int64_t k, double gamma, std::int64_t hard_stop) {
  if (k < 1 || k > hard_stop) return 0.0;
  const double survive = std::pow(1.0 - gamma, static_cast<double>(k - 1));
  return k == hard_stop ? survive : gamma * survive;
}

std::int64_t sample_poisson(Rng& rng, double mu) {
  require_left_open_interval("mu", mu, 0.0, 700.0);
  const double u = rng.uniform();
  const auto last = static_cast<std::int64_t>(mu + 40.0 * std::sqrt(mu) + 100.0);
  return invert(u, 0, std::exp(-mu), last,
                [mu](std::int64_t k) { return mu / static_cast<double>(k + 1); });
}

double poisson_pmf(std::int64_t k, double mu) {
  if (k < 0) return 0.0;
  const double kd = static_cast<double>(k);
  return std::exp(kd * std::log(mu) - mu - std::lgamma(kd + 1.0));
}

std::int64_t sample_truncated_negative_binomial(Rng& rng, double eta, double gamma) {
  check_tnb(eta, gamma);
  const double u = rng.uniform();
  const double p1 = (1.0 - gamma) * tnb_norm(eta, gamma);
  // The tail beyond `last` has mass below ~1e-17 for any eta <= 1000.
  const double mean_scale = (std::max(eta, 1.0) + 1.0) / gamma;
  const auto last = static_cast<std::int64_t>(std::min(1e8, 60.0 * mean_scale + 100.0));
  return invert(u, 1, p1, last, [eta, gamma](std::int64_t k) {
    const double kd = static_cast<double>(k);
    return (1.0 - gamma) * (kd + eta) / (kd + 1.0);
  });
}

double truncated_negative_binomial_pmf(std::int64_t k, double eta, double gamma) {
  check_tnb(eta, gamma);
  if (k < 1) return 0.0;
  double p = (1.0 - gamma) * tnb_norm(eta, gamma);
  for (std::int64_t j = 1; j < k; ++j) {
    const double jd = static_cast<double>(j);
    p *= (1.0 - gamma) * (jd + eta) / (jd + 1.0);
  }
  return p;
}

}  // namespace dplab::tuning
