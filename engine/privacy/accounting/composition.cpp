#include "privacy/accounting/composition.h"

#include <cmath>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"

namespace dplab::privacy {
namespace {

void validate_each(PrivacyGuarantee each, std::int64_t k) {
  require_non_negative("epsilon", each.epsilon);
  require_finite("delta", each.delta);
  if (!(each.delta >= 0.0 && each.delta < 1.0))
    fail_field("delta", each.delta, "must be in [0, 1)");
  if (k < 1) fail_field("k", static_cast<double>(k), "must be >= 1");
}

// 1 - (1 - delta)^k, accurate for tiny delta.
double delta_of_k_failures(double delta, std::int64_t k) {
  return -std::expm1(static_cast<double>(k) * std::log1p(-delta));
}

}  // namespace

PrivacyGuarantee basic_composition(std::span<const PrivacyGuarantee> mechanisms) {
  PrivacyGuarantee total;
  for (const auto& m : mechanisms) {
    validate_each(m, 1);
    total.epsilon += m.epsilon;
    total.delta += m.delta;
  }
  total.delta = std::min(total.delta, 1.0);
  return total;
}

PrivacyGuarantee basic_composition(PrivacyGuarantee each, std::int64_t k) {
  validate_each(each, k);
  const double kd = static_cast<double>(k);
  return {kd * each.epsilon, std::min(kd * each.delta, 1.0)};
}

PrivacyGuarantee advanced_composition_drv(PrivacyGuarantee each, std::int64_t k,
                                          double delta_slack) {
  validate_each(each, k);
  require_open_interval("delta_slack", delta_slack, 0.0, 1.0);
  const double kd = static_cast<double>(k), e = each.epsilon;
  return {e * std::sqrt(2.0 * kd * std::log(1.0 / delta_slack)) + kd * e * std::expm1(e),
          std::min(kd * each.delta + delta_slack, 1.0)};
}

PrivacyGuarantee advanced_composition_kov(PrivacyGuarantee each, std::int64_t k,
                                          double delta_slack) {
  validate_each(each, k);
  require_open_interval("delta_slack", delta_slack, 0.0, 1.0);
  const double kd = static_cast<double>(k), e = each.epsilon;
  const double drift = kd * e * std::tanh(e / 2.0);  // k eps (e^eps - 1)/(e^eps + 1)
  const double bound2 =
      drift +
      e * std::sqrt(2.0 * kd * std::log(std::exp(1.0) + std::sqrt(kd * e * e) / delta_slack));
  const double bound3 = drift + e * std::sqrt(2.0 * kd * std::log(1.0 / delta_slack));
  const double epsilon = std::min({kd * e, bound2, bound3});
  const double delta = 1.0 - (1.0 - delta_of_k_failures(each.delta, k)) * (1.0 - delta_slack);
  return {epsilon, delta};
}

double optimal_composition_delta(PrivacyGuarantee each, std::int64_t k, double epsilon_total) {
  validate_each(each, k);
  require_non_negative("epsilon_total", epsilon_total);
  const double e = each.epsilon, kd = static_cast<double>(k);
  // log of the normaliser (1 + e^eps)^k.
  const double log_norm = kd * detail::log1p_exp(e);
  double log_sum = detail::kNegInf;
  double log_binom = 0.0;  // log C(k, l)
  for (std::int64_t l = 0; l <= k; ++l) {
    const double ld = static_cast<double>(l);
    if (l > 0) log_binom += std::log(kd - ld + 1.0) - std::log(ld);
    const double hi = (kd - ld) * e, lo = epsilon_total + ld * e;
    if (!(hi > lo)) break;  // later terms are all clipped at 0
    // C(k,l) (e^hi - e^lo) = C(k,l) e^hi (1 - e^{lo-hi})
    log_sum = detail::log_add(log_sum, log_binom + detail::log_sub(hi, lo));
  }
  const double delta_rr = std::exp(log_sum - log_norm);
  const double delta_k = delta_of_k_failures(each.delta, k);
  return std::min(1.0, delta_k + (1.0 - delta_k) * delta_rr);
}

PrivacyGuarantee optimal_composition(PrivacyGuarantee each, std::int64_t k, double delta_total) {
  validate_each(each, k);
  require_open_interval("delta_total", delta_total, 0.0, 1.0);
  const double floor_delta = delta_of_k_failures(each.delta, k);
  if (delta_total < floor_delta) {
    fail_field("delta_total", delta_total,
               "must be >= 1 - (1 - delta)^k = " + format_number(floor_delta));
  }
  if (optimal_composition_delta(each, k, 0.0) <= delta_total) return {0.0, delta_total};
  // Invariant: delta(lo) > delta_total >= delta(hi); at k eps every term is clipped.
  double lo = 0.0, hi = static_cast<double>(k) * each.epsilon;
  while (hi - lo > 1e-10 * hi) {
    const double mid = 0.5 * (lo + hi);
    (optimal_composition_delta(each, k, mid) > delta_total ? lo : hi) = mid;
  }
  return {hi, delta_total};
}

}  // namespace dplab::privacy
