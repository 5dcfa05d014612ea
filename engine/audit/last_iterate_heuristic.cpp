#include "audit/last_iterate_heuristic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"

namespace dplab::audit {
namespace {

using privacy::detail::kNegInf;
using privacy::detail::log_add;
using privacy::detail::log_normal_cdf;
using privacy::detail::log_sub;

constexpr double kInf = std::numeric_limits<double>::infinity();
// Binomial components more than this many nats below the largest are dropped (see the header).
constexpr double kDroppedNats = 80.0;
// Root of log l(x) = t: bracket width below this relative size (the divergence is stationary at
// the root, so its error is second order in this).
constexpr double kRootTolerance = 1e-14;
constexpr int kMaxRootIterations = 300;
// epsilon(delta): bisection to this relative width; past kEpsilonCap it reports +inf.
constexpr double kEpsilonTolerance = 1e-10;
constexpr double kEpsilonCap = 1e4;

// P = sum_k w_k N(k, s^2), the components that matter.
struct Mixture {
  std::vector<double> shift;  // k
  std::vector<double> log_weight;
  double s = 1;  // sigma sqrt(T)
};

double log_binomial_pmf(std::int64_t n, std::int64_t k, double log_q, double log_1mq) {
  const double nd = static_cast<double>(n), kd = static_cast<double>(k);
  return std::lgamma(nd + 1) - std::lgamma(kd + 1) - std::lgamma(nd - kd + 1) +
         (k > 0 ? kd * log_q : 0.0) + (k < n ? (nd - kd) * log_1mq : 0.0);
}

Mixture make_mixture(double sigma, double q, std::int64_t steps) {
  Mixture mix;
  mix.s = sigma * std::sqrt(static_cast<double>(steps));
  if (q >= 1) {
    mix.shift = {static_cast<double>(steps)};
    mix.log_weight = {0.0};
    return mix;
  }
  const double log_q = std::log(q), log_1mq = std::log1p(-q);
  // The binomial pmf is log-concave: from its mode the kept components are one contiguous run.
  const auto mode = std::min<std::int64_t>(
      steps, static_cast<std::int64_t>(std::floor(static_cast<double>(steps + 1) * q)));
  const double top = log_binomial_pmf(steps, mode, log_q, log_1mq);
  std::int64_t lo = mode, hi = mode;
  while (lo > 0 && log_binomial_pmf(steps, lo - 1, log_q, log_1mq) > top - kDroppedNats) --lo;
  while (hi < steps && log_binomial_pmf(steps, hi + 1, log_q, log_1mq) > top - kDroppedNats) ++hi;
  for (std::int64_t k = lo; k <= hi; ++k) {
    mix.shift.push_back(static_cast<double>(k));
    mix.log_weight.push_back(log_binomial_pmf(steps, k, log_q, log_1mq));
  }
  return mix;
}

// log l(x) = log sum_k w_k exp((k x - k^2 / 2) / s^2) and its derivative E_pi[k] / s^2, where pi
// is the posterior over components at x.
struct LogRatio {
  double value = 0;
  double slope = 0;
};

LogRatio log_ratio(const Mixture& mix, double x) {
  const double s2 = mix.s * mix.s;
  auto term = [&](std::size_t i) {
    const double k = mix.shift[i];
    return mix.log_weight[i] + (k * x - 0.5 * k * k) / s2;
  };
  double top = kNegInf;
  for (std::size_t i = 0; i < mix.shift.size(); ++i) top = std::max(top, term(i));
  double sum = 0, first_moment = 0;
  for (std::size_t i = 0; i < mix.shift.size(); ++i) {
    const double e = std::exp(term(i) - top);
    sum += e;
    first_moment += e * mix.shift[i];
  }
  return {top + std::log(sum), first_moment / sum / s2};
}

// The root of log l(x) = target (log l is increasing and convex): Newton inside a bracket.
double ratio_root(const Mixture& mix, double target) {
  auto g = [&](double x) { return log_ratio(mix, x).value - target; };
  double lo = 0, hi = 0, step = std::max(1.0, mix.s);
  if (g(0) < 0) {
    hi = step;
    while (g(hi) < 0) {
      lo = hi;
      step *= 2;
      hi += step;
      if (!std::isfinite(hi))
        throw Error("last-iterate heuristic: no root of the likelihood ratio");
    }
  } else {
    lo = -step;
    while (g(lo) >= 0) {
      hi = lo;
      step *= 2;
      lo -= step;
      if (!std::isfinite(lo))
        throw Error("last-iterate heuristic: no root of the likelihood ratio");
    }
  }
  // Invariant: g(lo) < 0 <= g(hi).
  double x = hi;
  for (int i = 0; i < kMaxRootIterations; ++i) {
    const LogRatio at = log_ratio(mix, x);
    const double value = at.value - target;
    (value < 0 ? lo : hi) = x;
    if (hi - lo <= kRootTolerance * std::max(1.0, std::abs(x))) break;
    double next = at.slope > 0 ? x - value / at.slope : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (next == x) break;
    x = next;
  }
  return x;
}

// log sum_k w_k Phi(sign * (x - k) / s).
double log_mixture_cdf(const Mixture& mix, double x, double sign) {
  double sum = kNegInf;
  for (std::size_t i = 0; i < mix.shift.size(); ++i)
    sum = log_add(sum, mix.log_weight[i] + log_normal_cdf(sign * (x - mix.shift[i]) / mix.s));
  return sum;
}

// max(e^a - e^b, 0) from logarithms.
double positive_difference(double log_a, double log_b) {
  return log_a > log_b ? std::exp(log_sub(log_a, log_b)) : 0.0;
}

double mixture_delta(const Mixture& mix, double epsilon) {
  // H(P || Q): P(x > x1) - e^eps Q(x > x1), log l(x1) = eps.
  const double x1 = ratio_root(mix, epsilon);
  const double forward =
      positive_difference(log_mixture_cdf(mix, x1, -1.0), epsilon + log_normal_cdf(-x1 / mix.s));
  // H(Q || P): Q(x < x2) - e^eps P(x < x2), log l(x2) = -eps; empty when e^-eps <= l(-inf),
  // which is w_0 when the k = 0 component is kept and 0 otherwise.
  const double floor = mix.shift.front() == 0 ? mix.log_weight.front() : kNegInf;
  double backward = 0;
  if (-epsilon > floor) {
    const double x2 = ratio_root(mix, -epsilon);
    backward =
        positive_difference(log_normal_cdf(x2 / mix.s), epsilon + log_mixture_cdf(mix, x2, 1.0));
  }
  return std::max(forward, backward);
}

void check_run(double noise_multiplier, double sampling_rate, std::int64_t steps) {
  require_non_negative("noise_multiplier", noise_multiplier);
  require_finite("sampling_rate", sampling_rate);
  if (!(sampling_rate >= 0 && sampling_rate <= 1))
    fail_field("sampling_rate", sampling_rate, "must be in [0, 1]");
  if (steps < 0) throw InvalidArgument("steps = " + std::to_string(steps) + " must be >= 0");
}

}  // namespace

double last_iterate_delta(double noise_multiplier, double sampling_rate, std::int64_t steps,
                          double epsilon) {
  check_run(noise_multiplier, sampling_rate, steps);
  require_positive("noise_multiplier", noise_multiplier);
  require_non_negative("epsilon", epsilon);
  if (steps == 0 || sampling_rate == 0) return 0.0;  // P = Q
  return mixture_delta(make_mixture(noise_multiplier, sampling_rate, steps), epsilon);
}

double last_iterate_epsilon(double noise_multiplier, double sampling_rate, std::int64_t steps,
                            double delta) {
  check_run(noise_multiplier, sampling_rate, steps);
  require_open_interval("delta", delta, 0, 1);
  if (steps == 0 || sampling_rate == 0) return 0.0;
  if (noise_multiplier == 0) return kInf;
  const Mixture mix = make_mixture(noise_multiplier, sampling_rate, steps);
  if (mixture_delta(mix, 0.0) <= delta) return 0.0;
  // Invariant: delta(lo) > delta >= delta(hi); delta(eps) decreases in eps.
  double lo = 0, hi = 1;
  while (mixture_delta(mix, hi) > delta) {
    lo = hi;
    hi *= 2;
    if (hi > kEpsilonCap) return kInf;
  }
  while (hi - lo > kEpsilonTolerance * hi) {
    const double mid = 0.5 * (lo + hi);
    (mixture_delta(mix, mid) > delta ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace dplab::audit
