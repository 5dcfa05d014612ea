#include "privacy/accounting/pld/subsampled_gaussian_pld.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/validate.h"

namespace dplab::privacy::pld {
namespace {

// Phi(z) and 1 - Phi(z) from erfc: relative accuracy in both tails.
double normal_cdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}
double normal_sf(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

// ln(1 - q + q e^u) without overflow or cancellation.
double log_mixture(double q, double u) {
  if (q == 1.0) return u;
  if (u > 0.0) return u + std::log(q + (1.0 - q) * std::exp(-u));
  return std::log1p(q * std::expm1(u));
}

void validate(double sigma, double q) {
  require_positive("noise_multiplier", sigma);
  require_left_open_interval("sampling_rate", q, 0.0, 1.0);
}

}  // namespace

double subsampled_gaussian_loss(double sigma, double q, Adjacency adjacency, double x) {
  validate(sigma, q);
  const double s2 = sigma * sigma;
  const double l = log_mixture(q, (2.0 * x - 1.0) / (2.0 * s2));
  switch (adjacency) {
    case Adjacency::kRemove:
      return l;
    case Adjacency::kAdd:
      return -l;
    case Adjacency::kReplace:
      return l - log_mixture(q, (-2.0 * x - 1.0) / (2.0 * s2));
  }
  return l;
}

double subsampled_gaussian_delta(double sigma, double q, Adjacency adjacency, double epsilon) {
  validate(sigma, q);
  if (std::isinf(epsilon)) return epsilon > 0 ? 0.0 : 1.0;
  const double s2 = sigma * sigma;
  if (adjacency == Adjacency::kReplace) {
    // The pair is symmetric: delta(eps) = 1 - e^eps + e^eps delta(-eps) for eps < 0.
    if (epsilon < 0.0) {
      const double mirrored = subsampled_gaussian_delta(sigma, q, adjacency, -epsilon);
      return std::clamp(-std::expm1(epsilon) + std::exp(epsilon) * mirrored, 0.0, 1.0);
    }
    // x*/sigma^2 = eps + ln(b + sqrt(b^2 + 4 c^2 e^-eps)) - ln(2c), in logs (header).
    const double log_c = std::log(q) - 1.0 / (2.0 * s2);
    const double b = (1.0 - q) * -std::expm1(-epsilon);
    const double two_c_scaled = 2.0 * std::exp(log_c - 0.5 * epsilon);  // 2 c e^{-eps/2}
    const double x =
        s2 * (epsilon + std::log(b + std::hypot(b, two_c_scaled)) - std::log(2.0) - log_c);
    const double delta =
        (1.0 - q) * -std::expm1(epsilon) * normal_sf(x / sigma) +
        q * (normal_sf((x - 1.0) / sigma) - std::exp(epsilon) * normal_sf((x + 1.0) / sigma));
    return std::clamp(delta, 0.0, 1.0);
  }
  if (adjacency == Adjacency::kRemove) {
    // L > eps <=> e^u > (e^eps - 1 + q)/q; all x when e^eps <= 1 - q.
    const double a = std::expm1(epsilon) + q;
    if (!(a > 0.0)) return -std::expm1(epsilon);
    const double u = std::log(a) - std::log(q);
    const double x = s2 * u + 0.5;
    const double delta = q * (normal_sf((x - 1.0) / sigma) - std::exp(u) * normal_sf(x / sigma));
    return std::clamp(delta, 0.0, 1.0);
  }
  // add: L > eps <=> e^u < (e^-eps - 1 + q)/q; no x when e^-eps <= 1 - q.
  const double a = std::expm1(-epsilon) + q;
  if (!(a > 0.0)) return 0.0;
  const double u = std::log(a) - std::log(q);
  const double x = s2 * u + 0.5;
  const double delta =
      q * std::exp(epsilon) * (std::exp(u) * normal_cdf(x / sigma) - normal_cdf((x - 1.0) / sigma));
  return std::clamp(delta, 0.0, 1.0);
}

PrivacyLossPmf subsampled_gaussian_pmf(double sigma, double q, Adjacency adjacency, double d,
                                       double tail_sigmas) {
  validate(sigma, q);
  require_positive("discretization", d);
  require_positive("tail_sigmas", tail_sigmas);
  // The losses of x in [x_lo, x_hi], the noise's +-tail_sigmas range widened by the shifts
  // (+1; and -1 for replace, whose Q has its component at -1).
  const double x_lo = -tail_sigmas * sigma - (adjacency == Adjacency::kReplace ? 1.0 : 0.0);
  const double x_hi = tail_sigmas * sigma + 1.0;
  double loss_a = subsampled_gaussian_loss(sigma, q, adjacency, x_lo);
  double loss_b = subsampled_gaussian_loss(sigma, q, adjacency, x_hi);
  double loss_min = std::min(loss_a, loss_b), loss_max = std::max(loss_a, loss_b);
  // Remove and add losses are bounded on one side by -+ln(1-q): clamp the grid there (q < 1).
  if (q < 1.0) {
    const double bound = std::log1p(-q);
    if (adjacency == Adjacency::kRemove)
      loss_min = std::max(loss_min, bound);
    else if (adjacency == Adjacency::kAdd)
      loss_max = std::min(loss_max, -bound);
  }
  const auto lo = static_cast<std::int64_t>(std::floor(loss_min / d));
  auto hi = static_cast<std::int64_t>(std::ceil(loss_max / d));
  if (hi <= lo) hi = lo + 1;
  const std::size_t n = static_cast<std::size_t>(hi - lo + 1);
  std::vector<double> delta(n);
  for (std::size_t i = 0; i < n; ++i) {
    delta[i] = subsampled_gaussian_delta(
        sigma, q, adjacency, static_cast<double>(lo + static_cast<std::int64_t>(i)) * d);
  }
  // The exact delta is non-increasing; enforce it against round-off (running minimum).
  for (std::size_t i = 1; i < n; ++i) delta[i] = std::min(delta[i], delta[i - 1]);

  PrivacyLossPmf pmf;
  pmf.discretization = d;
  pmf.lower_index = lo;
  pmf.probs.assign(n, 0.0);
  pmf.infinity_mass = delta[n - 1];
  const double em1 = std::expm1(d), ed = std::exp(d);
  pmf.probs[0] = 1.0 - delta[0] + (delta[1] - delta[0]) / em1;
  for (std::size_t i = 1; i + 1 < n; ++i) {
    pmf.probs[i] = ((delta[i + 1] - delta[i]) - ed * (delta[i] - delta[i - 1])) / em1;
  }
  pmf.probs[n - 1] = (delta[n - 1] - delta[n - 2]) / std::expm1(-d);
  for (double& p : pmf.probs) p = std::max(p, 0.0);
  return pmf;
}

}  // namespace dplab::privacy::pld
