#include "privacy/accounting/poisson_subsampled_rdp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"

namespace dplab::privacy {
namespace {

using detail::kNegInf;
constexpr double kInf = std::numeric_limits<double>::infinity();

// log(c e^x - 1) for x >= 0: c = 1 is log(e^x - 1) (-inf at x = 0: the term vanishes);
// c = 3 is x + log(3 - e^{-x}), with 3 - e^{-x} in [2, 3).
double log_weighted_excess(double x, double c) {
  if (c == 1.0) return x > 0.0 ? detail::log_expm1(x) : kNegInf;
  return x + std::log(c - std::exp(-x));
}

}  // namespace

std::vector<double> poisson_subsampled_rdp(const std::vector<double>& base_rdp,
                                           double sampling_rate, SubsamplingBound bound) {
  if (base_rdp.empty()) throw InvalidArgument("poisson_subsampled_rdp: base_rdp is empty");
  for (std::size_t i = 0; i < base_rdp.size(); ++i) {
    if (!(base_rdp[i] >= 0.0)) {  // also NaN
      throw InvalidArgument("poisson_subsampled_rdp: base_rdp at order " + std::to_string(i + 2) +
                            " must be >= 0, got " + format_number(base_rdp[i]));
    }
  }
  require_finite("sampling_rate", sampling_rate);
  if (!(sampling_rate >= 0.0 && sampling_rate <= 1.0)) {
    fail_field("sampling_rate", sampling_rate, "must be in [0, 1]");
  }
  const std::size_t count = base_rdp.size();
  if (sampling_rate == 0.0) return std::vector<double>(count, 0.0);
  if (sampling_rate == 1.0) return base_rdp;

  const double log_q = std::log(sampling_rate);
  const double log_1mq = std::log1p(-sampling_rate);
  // Per-l part of every term, shared by all orders: l log q - l log(1-q) + log(c_l e^{x_l} - 1),
  // x_l = (l-1) eps(l); c_2 = 1 always (Zhu & Wang's l = 2 term carries no factor 3).
  std::vector<double> l_part(count + 2, kNegInf);
  std::vector<bool> infinite(count + 2, false);
  for (std::size_t l = 2; l < count + 2; ++l) {
    const double eps = base_rdp[l - 2];
    if (std::isinf(eps)) {
      infinite[l] = true;
      continue;
    }
    const double c = (bound == SubsamplingBound::kGeneral && l >= 3) ? 3.0 : 1.0;
    const double ld = static_cast<double>(l);
    l_part[l] = ld * (log_q - log_1mq) + log_weighted_excess((ld - 1.0) * eps, c);
  }

  std::vector<double> out(count, 0.0);
  std::vector<double> terms;
  bool seen_infinite = false;
  for (std::size_t alpha = 2; alpha < count + 2; ++alpha) {
    seen_infinite = seen_infinite || infinite[alpha];
    if (seen_infinite) {  // some eps(l), l <= alpha, is infinite
      out[alpha - 2] = kInf;
      continue;
    }
    const double a = static_cast<double>(alpha);
    // log C(alpha, l), built from l = 1 (log alpha) upwards.
    double log_binom = std::log(a);
    double max_term = kNegInf;
    terms.clear();
    for (std::size_t l = 2; l <= alpha; ++l) {
      const double ld = static_cast<double>(l);
      log_binom += std::log(a - ld + 1.0) - std::log(ld);
      const double term = log_binom + l_part[l];
      terms.push_back(term);
      max_term = std::max(max_term, term);
    }
    if (max_term == kNegInf) continue;  // every eps(l) = 0: A = 1
    // Terms below e^-60 of the largest change the sum by < 1e-23 relative: skipped.
    double sum = 0.0;
    for (double term : terms) {
      if (term > max_term - 60.0) sum += std::exp(term - max_term);
    }
    const double log_a_minus_1 = max_term + std::log(sum) + a * log_1mq;
    // Subsampling never hurts: the subsampled output law is a mixture over S of the pairs
    // (q M(S+x) + (1-q) M(S), M(S)), and the Renyi divergence is jointly quasi-convex (van Erven
    // & Harremoes 2014, Thm 13), so eps(alpha) itself is also a bound; keep the smaller.
    out[alpha - 2] =
        std::clamp(detail::log1p_exp(log_a_minus_1) / (a - 1.0), 0.0, base_rdp[alpha - 2]);
  }
  return out;
}

std::vector<double> integer_orders(int max_order) {
  if (max_order < 2) {
    fail_field("max_order", static_cast<double>(max_order), "must be an integer >= 2");
  }
  std::vector<double> orders;
  orders.reserve(static_cast<std::size_t>(max_order - 1));
  for (int a = 2; a <= max_order; ++a) orders.push_back(a);
  return orders;
}

std::vector<double> rdp_at_integer_orders(const std::vector<double>& orders,
                                          const std::vector<double>& rdp, int max_order) {
  if (orders.size() != rdp.size()) {
    throw InvalidArgument("rdp_at_integer_orders: orders and rdp differ in length");
  }
  std::vector<double> out;
  std::size_t i = 0;
  for (int a = 2; a <= max_order; ++a) {
    while (i < orders.size() && orders[i] < a) ++i;
    if (i == orders.size() || orders[i] != a) {
      throw InvalidArgument("rdp_at_integer_orders: the curve has no value at the integer order " +
                            std::to_string(a));
    }
    out.push_back(rdp[i]);
  }
  return out;
}

}  // namespace dplab::privacy
