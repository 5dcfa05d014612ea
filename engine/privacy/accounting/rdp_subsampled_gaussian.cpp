#include "privacy/accounting/rdp_subsampled_gaussian.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"

namespace dplab::privacy {
namespace {

using detail::kNegInf;

// Integer orders are summed term by term (O(alpha) memory and time): capped at 1e7.
constexpr double kMaxOrder = 1e7;

// log A_alpha for integer alpha >= 2 via the positive series for A_alpha - 1:
// A - 1 = sum_{k=2..alpha} C(alpha,k) (1-q)^{alpha-k} q^k (exp((k^2-k)/(2 sigma^2)) - 1).
// The k-dependent part of each term does not depend on alpha, so a curve of many integer orders
// shares one table of it and pays one exp per term.
class IntegerOrderSeries {
 public:
  IntegerOrderSeries(double sigma, double q, std::int64_t max_order)
      : log_1mq_(std::log1p(-q)),
        log_int_(static_cast<std::size_t>(max_order) + 1, 0.0),
        k_part_(static_cast<std::size_t>(max_order) + 1, kNegInf) {
    const double log_q = std::log(q);
    const double inv_2s2 = 1.0 / (2.0 * sigma * sigma);
    for (std::int64_t k = 1; k <= max_order; ++k) {
      const double kd = static_cast<double>(k);
      log_int_[static_cast<std::size_t>(k)] = std::log(kd);
      // k log q - k log(1-q) + log(expm1((k^2-k)/(2 sigma^2))); -inf for k = 1.
      if (k >= 2) {
        k_part_[static_cast<std::size_t>(k)] =
            kd * (log_q - log_1mq_) + detail::log_expm1((kd * kd - kd) * inv_2s2);
      }
    }
  }

  double log_a(std::int64_t alpha) {
    terms_.clear();
    double log_binom = log_int_[static_cast<std::size_t>(alpha)];  // log C(alpha, 1)
    double max_term = kNegInf;
    for (std::int64_t k = 2; k <= alpha; ++k) {
      log_binom +=
          log_int_[static_cast<std::size_t>(alpha - k + 1)] - log_int_[static_cast<std::size_t>(k)];
      const double term = log_binom + k_part_[static_cast<std::size_t>(k)];
      terms_.push_back(term);
      max_term = std::max(max_term, term);
    }
    // Terms below e^-60 of the largest (at most 1e7 of them: < 1e-19 relative in total, far
    // below double rounding) are skipped: exp would only return subnormals, slowly.
    double sum = 0.0;
    for (double term : terms_) {
      if (term > max_term - 60.0) sum += std::exp(term - max_term);
    }
    const double log_a_minus_1 = max_term + std::log(sum) + static_cast<double>(alpha) * log_1mq_;
    return detail::log1p_exp(log_a_minus_1);  // log(1 + (A - 1))
  }

 private:
  double log_1mq_;
  std::vector<double> log_int_;  // log k
  std::vector<double> k_part_;
  std::vector<double> terms_;
};

// log A_alpha for fractional alpha > 1: MTZ19's two series with signed terms.
double log_a_fractional(double sigma, double q, double alpha) {
  const double log_q = std::log(q);
  const double log_1mq = std::log1p(-q);
  const double inv_2s2 = 1.0 / (2.0 * sigma * sigma);
  const double z0 = sigma * sigma * (log_1mq - log_q) + 0.5;
  const double inv_sqrt2_sigma = 1.0 / (std::sqrt(2.0) * sigma);
  const double log_half = std::log(0.5);

  double log_pos = kNegInf, log_neg = kNegInf;  // positive and negative parts of the sum
  double log_abs_binom = 0.0;                   // log |C(alpha, i)|
  bool binom_positive = true;
  // A hard cap that no realistic input reaches (the slowest case, sigma = 0.3, q near 1,
  // alpha = 1.1, needs ~1e4 terms); reaching it means a bug, not a loose bound.
  constexpr std::int64_t kMaxTerms = 2'000'000;
  for (std::int64_t i = 0;; ++i) {
    const double id = static_cast<double>(i);
    if (i > 0) {
      const double factor = alpha - id + 1.0;  // C(alpha,i) = C(alpha,i-1) (alpha-i+1)/i
      log_abs_binom += std::log(std::abs(factor)) - std::log(id);
      if (factor < 0) binom_positive = !binom_positive;
    }
    const double j = alpha - id;
    const double s0 = log_abs_binom + id * log_q + j * log_1mq + (id * id - id) * inv_2s2 +
                      log_half + detail::log_erfc((id - z0) * inv_sqrt2_sigma);
    const double s1 = log_abs_binom + j * log_q + id * log_1mq + (j * j - j) * inv_2s2 + log_half +
                      detail::log_erfc((z0 - j) * inv_sqrt2_sigma);
    const double term = detail::log_add(s0, s1);
    if (binom_positive) {
      log_pos = detail::log_add(log_pos, term);
    } else {
      log_neg = detail::log_add(log_neg, term);
    }
    if (binom_positive && id > alpha + 1.0) {
      // Alternating, decreasing tail: stopping right after a positive term leaves a partial sum
      // ABOVE the limit by less than that term, so the truncated log A is an upper bound, within
      // 1e-10 relative (+1e-18 absolute) of the exact value.
      const double log_a = detail::log_sub(log_pos, log_neg);
      const double tolerance = 1e-10 * std::max(log_a, 0.0) + 1e-18;
      if (term < std::log(tolerance)) return std::max(log_a, 0.0);
    }
    if (i >= kMaxTerms) {
      throw Error("log_moment_subsampled_gaussian: series did not converge for sigma = " +
                  format_number(sigma) + ", q = " + format_number(q) +
                  ", alpha = " + format_number(alpha));
    }
  }
}

void validate_inputs(double noise_multiplier, double sampling_rate) {
  require_positive("noise_multiplier", noise_multiplier);
  require_finite("sampling_rate", sampling_rate);
  if (!(sampling_rate >= 0.0 && sampling_rate <= 1.0)) {
    fail_field("sampling_rate", sampling_rate, "must be in [0, 1]");
  }
}

void validate_order(double order) {
  require_finite("order", order);
  if (!(order > 1.0 && order <= kMaxOrder)) fail_field("order", order, "must be in (1, 1e7]");
}

bool is_integer(double order) {
  return order == std::floor(order);
}

// q = 0 and q = 1 in closed form; nullopt otherwise.
std::optional<double> special_case(double sigma, double q, double order) {
  if (q == 0.0) return 0.0;
  // Plain Gaussian: D_alpha(N(1,s^2) || N(0,s^2)) = alpha/(2 s^2), so log A = alpha(alpha-1)/(2
  // s^2).
  if (q == 1.0) return order * (order - 1.0) / (2.0 * sigma * sigma);
  return std::nullopt;
}

}  // namespace

double log_moment_subsampled_gaussian(double noise_multiplier, double sampling_rate, double order) {
  validate_inputs(noise_multiplier, sampling_rate);
  validate_order(order);
  if (auto closed = special_case(noise_multiplier, sampling_rate, order)) return *closed;
  if (is_integer(order)) {
    const auto alpha = static_cast<std::int64_t>(order);
    return IntegerOrderSeries(noise_multiplier, sampling_rate, alpha).log_a(alpha);
  }
  return log_a_fractional(noise_multiplier, sampling_rate, order);
}

double rdp_subsampled_gaussian(double noise_multiplier, double sampling_rate, double order) {
  return log_moment_subsampled_gaussian(noise_multiplier, sampling_rate, order) / (order - 1.0);
}

std::vector<double> rdp_subsampled_gaussian_curve(double noise_multiplier, double sampling_rate,
                                                  const std::vector<double>& orders) {
  validate_inputs(noise_multiplier, sampling_rate);
  double max_integer = 0.0;
  for (double order : orders) {
    validate_order(order);
    if (is_integer(order)) max_integer = std::max(max_integer, order);
  }
  std::optional<IntegerOrderSeries> series;
  if (max_integer >= 2.0 && sampling_rate > 0.0 && sampling_rate < 1.0) {
    series.emplace(noise_multiplier, sampling_rate, static_cast<std::int64_t>(max_integer));
  }
  std::vector<double> rdp;
  rdp.reserve(orders.size());
  for (double order : orders) {
    double log_a;
    if (auto closed = special_case(noise_multiplier, sampling_rate, order)) {
      log_a = *closed;
    } else if (is_integer(order)) {
      log_a = series->log_a(static_cast<std::int64_t>(order));
    } else {
      log_a = log_a_fractional(noise_multiplier, sampling_rate, order);
    }
    rdp.push_back(log_a / (order - 1.0));
  }
  return rdp;
}

}  // namespace dplab::privacy
