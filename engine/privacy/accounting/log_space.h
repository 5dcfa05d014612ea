// Log-space arithmetic shared by the accountants: sums of positive numbers held as logarithms,
// log(erfc) without underflow, log(e^x - 1). All functions are pure and thread-safe.
//
// Why: privacy-loss moments such as A_alpha = E[(mu/mu0)^alpha] overflow double for small sigma
// and large orders (log A reaches 1e6 at sigma = 0.3, alpha = 1024) and underflow term by term
// for small q, so every accountant works on logarithms and exponentiates only at the end.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace dplab::privacy::detail {

inline constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// log(e^a + e^b), exact for -inf operands.
inline double log_add(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double hi = std::max(a, b);
  return hi + std::log1p(std::exp(-std::abs(a - b)));
}

// log(e^a - e^b) for a >= b; returns -inf when a == b (and for a < b, which callers rule out).
inline double log_sub(double a, double b) {
  if (b == kNegInf) return a;
  if (!(a > b)) return kNegInf;
  const double d = b - a;  // < 0
  // log(1 - e^d): expm1 is accurate when d is near 0, log1p when e^d is small.
  return a + (d > -0.6931471805599453 ? std::log(-std::expm1(d)) : std::log1p(-std::exp(d)));
}

// log(e^x - 1) for x > 0, without overflow for large x or cancellation for small x.
inline double log_expm1(double x) {
  return x > 30.0 ? x + std::log1p(-std::exp(-x)) : std::log(std::expm1(x));
}

// log(1 + e^x), the softplus, without overflow.
inline double log1p_exp(double x) {
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// log(erfc(x)). std::erfc is accurate to ~1 ulp until it underflows near x = 26.5; beyond 25 the
// asymptotic series erfc(x) = e^{-x^2}/(x sqrt(pi)) * (1 - 1/(2x^2) + 3/(4x^4) - ...) is used,
// whose first omitted term is below 1e-18 there.
inline double log_erfc(double x) {
  if (x < 25.0) return std::log(std::erfc(x));
  const double inv2x2 = 1.0 / (2.0 * x * x);
  // 1 - 1/(2x^2) + 1*3/(2x^2)^2 - 1*3*5/(2x^2)^3 + 1*3*5*7/(2x^2)^4 - ...
  double term = 1.0, series = 1.0;
  for (int k = 1; k <= 6; ++k) {
    term *= -(2.0 * k - 1.0) * inv2x2;
    series += term;
  }
  constexpr double kLogSqrtPi = 0.57236494292470008707;  // log(sqrt(pi))
  return -x * x - std::log(x) - kLogSqrtPi + std::log(series);
}

// log of the standard normal CDF, Phi(x) = erfc(-x/sqrt 2)/2.
inline double log_normal_cdf(double x) {
  constexpr double kInvSqrt2 = 0.70710678118654752440;
  return std::log(0.5) + log_erfc(-x * kInvSqrt2);
}

}  // namespace dplab::privacy::detail
