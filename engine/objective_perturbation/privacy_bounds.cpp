#include "objective_perturbation/privacy_bounds.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"
#include "privacy/accounting/rdp_conversion.h"
#include "privacy/mechanisms/gaussian_mechanism.h"

namespace dplab::objpert {
namespace {

constexpr double kRelativePrecision = 1e-10;

// H_{e^t}(N(L, sigma^2) || N(0, sigma^2)), t >= 0 (scale invariance: noise multiplier sigma/L).
double gaussian_hockey_stick(const ObjPertPrivacy& p, double t) {
  return privacy::analytic_gaussian_delta(p.noise_std / p.gradient_bound, t);
}

// RDP orders for the closed-form curves: 1 + 10^t, t in [-3, 5], 1601 points (dense near 1 for
// large epsilon, up to 1e5 for tiny epsilon). Every order gives a valid bound (rdp_conversion.h).
const std::vector<double>& conversion_orders() {
  static const std::vector<double> orders = [] {
    std::vector<double> o;
    for (int i = 0; i <= 1600; ++i) o.push_back(1.0 + std::pow(10.0, -3.0 + 8.0 * i / 1600));
    return o;
  }();
  return orders;
}

template <class F>
double epsilon_of_curve(F rdp, double delta) {
  const std::vector<double>& orders = conversion_orders();
  std::vector<double> values(orders.size());
  for (std::size_t i = 0; i < orders.size(); ++i) values[i] = rdp(orders[i]);
  return privacy::epsilon_from_rdp(orders, values, delta).epsilon;
}

// Smallest eps >= 0 with delta_of(eps) <= delta, delta_of decreasing; rounded up.
template <class F>
double invert_profile(F delta_of, double delta) {
  if (delta_of(0.0) <= delta) return 0.0;
  double lo = 0.0, hi = 1.0;
  while (delta_of(hi) > delta) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e12) throw Error("no epsilon below 1e12 reaches delta = " + format_number(delta));
  }
  while (hi - lo > kRelativePrecision * hi) {
    const double mid = 0.5 * (lo + hi);
    (delta_of(mid) > delta ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

void validate(const ObjPertPrivacy& p) {
  require_positive("noise_std", p.noise_std);
  require_positive("gradient_bound", p.gradient_bound);
  require_non_negative("smoothness", p.smoothness);
  require_finite("regularization", p.regularization);
  if (!(p.regularization > p.smoothness)) {
    throw InvalidArgument("regularization = " + format_number(p.regularization) +
                          " must be > smoothness beta = " + format_number(p.smoothness) +
                          " (objective perturbation needs lambda > beta)");
  }
  require_non_negative("tau", p.tau);
  require_non_negative("output_noise_std", p.output_noise_std);
  if (p.tau > 0 && !(p.output_noise_std > 0)) {
    throw InvalidArgument("output_noise_std must be > 0 when tau = " + format_number(p.tau) +
                          " > 0");
  }
}

double jacobian_cost(const ObjPertPrivacy& p) {
  validate(p);
  return -std::log1p(-p.smoothness / p.regularization);
}

double objpert_rdp(const ObjPertPrivacy& p, double alpha) {
  require_at_least("alpha", alpha, 1.0);
  const double c = jacobian_cost(p);
  const double s = p.gradient_bound / p.noise_std;  // std of X
  if (alpha == 1.0) return c + 0.5 * s * s + s * std::sqrt(2.0 / std::numbers::pi);
  const double t = alpha - 1.0;
  // log(2 Phi(t s)) = log 2 + log Phi(t s), in log space for accuracy when t s is small.
  const double log_two_phi = std::numbers::ln2 + privacy::detail::log_normal_cdf(t * s);
  return c + 0.5 * alpha * s * s + log_two_phi / t;
}

double algorithm1_rdp(const ObjPertPrivacy& p, double alpha) {
  require_left_open_interval("alpha", alpha, 1.0, HUGE_VAL);
  double r = objpert_rdp(p, alpha);
  if (p.tau > 0) {
    const double ratio = p.tau / (p.regularization * p.output_noise_std);
    r += 2.0 * alpha * ratio * ratio;
  }
  return r;
}

double gaussian_lower_bound_rdp(const ObjPertPrivacy& p, double alpha) {
  validate(p);
  const double s = p.gradient_bound / p.noise_std;
  return 0.5 * alpha * s * s;
}

double objpert_profile_delta(const ObjPertPrivacy& p, double epsilon) {
  require_non_negative("epsilon", epsilon);
  const double c = jacobian_cost(p);
  const double s = p.gradient_bound / p.noise_std;
  const double mu = 0.5 * s * s;
  const double eps_tilde = epsilon - c;
  const double eps_hat = eps_tilde - mu;
  double delta;
  if (eps_hat >= 0) {
    delta = 2.0 * gaussian_hockey_stick(p, eps_tilde);
  } else {
    delta = -std::expm1(eps_hat) + std::exp(eps_hat) * 2.0 * gaussian_hockey_stick(p, mu);
  }
  return std::clamp(delta, 0.0, 1.0);
}

double gaussian_lower_bound_delta(const ObjPertPrivacy& p, double epsilon) {
  validate(p);
  require_non_negative("epsilon", epsilon);
  return gaussian_hockey_stick(p, epsilon);
}

double objpert_profile_epsilon(const ObjPertPrivacy& p, double delta) {
  require_open_interval("delta", delta, 0.0, 1.0);
  return invert_profile([&](double e) { return objpert_profile_delta(p, e); }, delta);
}

double objpert_rdp_epsilon(const ObjPertPrivacy& p, double delta) {
  validate(p);
  return epsilon_of_curve([&](double a) { return objpert_rdp(p, a); }, delta);
}

double algorithm1_rdp_epsilon(const ObjPertPrivacy& p, double delta) {
  validate(p);
  return epsilon_of_curve([&](double a) { return algorithm1_rdp(p, a); }, delta);
}

double kifer_epsilon(const ObjPertPrivacy& p, double delta) {
  validate(p);
  require_open_interval("delta", delta, 0.0, 1.0);
  // sigma^2 eps^2 >= L^2 (8 log(2/delta) + 4 eps)  <=>  eps^2 - a eps - b >= 0.
  const double l2_over_s2 = (p.gradient_bound * p.gradient_bound) / (p.noise_std * p.noise_std);
  const double a = 4.0 * l2_over_s2;
  const double b = 8.0 * std::log(2.0 / delta) * l2_over_s2;
  const double eps_noise = 0.5 * (a + std::sqrt(a * a + 4.0 * b));
  const double eps_regulariser = 2.0 * p.smoothness / p.regularization;
  return std::max(eps_noise, eps_regulariser) * (1.0 + 1e-12);
}

double gaussian_lower_bound_epsilon(const ObjPertPrivacy& p, double delta) {
  validate(p);
  return privacy::analytic_gaussian_epsilon(p.noise_std / p.gradient_bound, delta);
}

}  // namespace dplab::objpert
