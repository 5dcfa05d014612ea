#include "privacy/accounting/rdp_conversion.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::privacy {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// log of Bretagnolle-Huber's delta <= sqrt(1 - exp(-KL)); KL <= rdp at the smallest order.
double log_delta_total_variation(const std::vector<double>& rdp) {
  const double kl = rdp.front();
  if (kl <= 0.0) return -kInf;
  if (!std::isfinite(kl)) return 0.0;
  return 0.5 * std::log(-std::expm1(-kl));
}

}  // namespace

void validate_rdp_curve(const std::vector<double>& orders, const std::vector<double>& rdp,
                        const char* what) {
  const std::string name(what);
  if (orders.empty()) throw InvalidArgument(name + ": the list of orders is empty");
  if (orders.size() != rdp.size()) {
    throw InvalidArgument(name + ": " + std::to_string(orders.size()) + " orders but " +
                          std::to_string(rdp.size()) + " RDP values");
  }
  for (std::size_t i = 0; i < orders.size(); ++i) {
    require_finite(name + ".orders[" + std::to_string(i) + "]", orders[i]);
    if (!(orders[i] > 1.0))
      fail_field(name + ".orders[" + std::to_string(i) + "]", orders[i], "must be > 1");
    if (i > 0 && !(orders[i] > orders[i - 1])) {
      fail_field(name + ".orders[" + std::to_string(i) + "]", orders[i],
                 "must exceed the previous order");
    }
    if (std::isnan(rdp[i]) || rdp[i] < 0.0) {
      fail_field(name + ".rdp[" + std::to_string(i) + "]", rdp[i], "must be >= 0");
    }
  }
}

EpsilonResult epsilon_from_rdp(const std::vector<double>& orders, const std::vector<double>& rdp,
                               double delta) {
  validate_rdp_curve(orders, rdp);
  require_open_interval("delta", delta, 0.0, 1.0);
  EpsilonResult result;
  result.delta = delta;
  const double log_delta = std::log(delta);
  if (log_delta >= log_delta_total_variation(rdp)) {
    result.best_order = 1.0;  // the KL bound: epsilon = 0
    return result;
  }
  double best = kInf;
  std::size_t best_index = 0;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double a = orders[i];
    const double eps = rdp[i] + std::log1p(-1.0 / a) - (log_delta + std::log(a)) / (a - 1.0);
    if (eps < best) {
      best = eps;
      best_index = i;
    }
  }
  result.epsilon = std::max(best, 0.0);
  result.best_order = std::isfinite(best) ? orders[best_index] : 0.0;
  result.order_at_grid_edge = best_index == 0 || best_index + 1 == orders.size();
  return result;
}

double delta_from_rdp(const std::vector<double>& orders, const std::vector<double>& rdp,
                      double epsilon) {
  validate_rdp_curve(orders, rdp);
  require_non_negative("epsilon", epsilon);
  double log_delta = std::min(0.0, log_delta_total_variation(rdp));
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double a = orders[i];
    const double value = (a - 1.0) * (rdp[i] - epsilon + std::log1p(-1.0 / a)) - std::log(a);
    log_delta = std::min(log_delta, value);
  }
  return std::exp(log_delta);
}

}  // namespace dplab::privacy
