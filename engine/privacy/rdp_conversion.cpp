#include "privacy/rdp_conversion.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::privacy {
namespace {

double converted(const std::function<double(double)>& rdp, double alpha, double log_delta) {
  const double r = rdp(alpha);
  if (std::isnan(r)) throw Error("RDP curve is NaN at order " + format_number(alpha));
  return r + std::log1p(-1.0 / alpha) - (log_delta + std::log(alpha)) / (alpha - 1.0);
}

}  // namespace

RdpConversion epsilon_from_rdp_curve(const std::function<double(double)>& rdp, double delta,
                                     double max_order) {
  require_open_interval("delta", delta, 0.0, 1.0);
  require_at_least("max_order", max_order, 1.5);
  const double log_delta = std::log(delta);
  // Orders 1 + 10^t, t from -3 to log10(max_order - 1): dense near 1 (large epsilon) and up to
  // max_order (tiny epsilon).
  constexpr int kGrid = 600;
  const double t_lo = -3.0, t_hi = std::log10(max_order - 1.0);
  double best = std::numeric_limits<double>::infinity();
  int best_index = 0;
  auto order_at = [&](double t) { return 1.0 + std::pow(10.0, t); };
  for (int i = 0; i <= kGrid; ++i) {
    const double value = converted(rdp, order_at(t_lo + (t_hi - t_lo) * i / kGrid), log_delta);
    if (value < best) {
      best = value;
      best_index = i;
    }
  }
  // Golden section on t between the neighbours of the best grid point.
  double a = t_lo + (t_hi - t_lo) * std::max(best_index - 1, 0) / kGrid;
  double b = t_lo + (t_hi - t_lo) * std::min(best_index + 1, kGrid) / kGrid;
  double best_t = t_lo + (t_hi - t_lo) * best_index / kGrid;
  const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
  double c = b - ratio * (b - a), d = a + ratio * (b - a);
  double fc = converted(rdp, order_at(c), log_delta), fd = converted(rdp, order_at(d), log_delta);
  for (int it = 0; it < 60; ++it) {
    if (fc < best) best = fc, best_t = c;
    if (fd < best) best = fd, best_t = d;
    if (fc < fd) {
      b = d, d = c, fd = fc;
      c = b - ratio * (b - a);
      fc = converted(rdp, order_at(c), log_delta);
    } else {
      a = c, c = d, fc = fd;
      d = a + ratio * (b - a);
      fd = converted(rdp, order_at(d), log_delta);
    }
  }
  return {std::max(best, 0.0), order_at(best_t)};
}

}  // namespace dplab::privacy
