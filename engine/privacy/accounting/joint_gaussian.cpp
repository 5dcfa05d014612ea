// Joint Gaussian multiplier (see joint_gaussian.h): 1/s^2 = sum_j 1/s_j^2.
#include "privacy/accounting/joint_gaussian.h"

#include <cmath>

#include "core/validate.h"

namespace dplab::privacy {
namespace {

// (s^-2 - t^-2)^(-1/2): the multiplier left for one query when another takes multiplier t.
double remaining_multiplier(double total, double other) {
  const double inverse_square = 1.0 / (total * total) - 1.0 / (other * other);
  return 1.0 / std::sqrt(inverse_square);
}

}  // namespace

double joint_noise_multiplier(std::span<const double> multipliers) {
  double inverse_square = 0;
  for (double s : multipliers) {
    if (std::isinf(s) && s > 0) continue;
    require_positive("noise_multiplier", s);
    inverse_square += 1.0 / (s * s);
  }
  return inverse_square > 0 ? 1.0 / std::sqrt(inverse_square) : INFINITY;
}

double gaussian_rdp(double noise_multiplier, double order) {
  require_positive("noise_multiplier", noise_multiplier);
  require_positive("order", order);
  return order / (2.0 * noise_multiplier * noise_multiplier);
}

double oso_direction_multiplier_for_increase(double noise_multiplier, double increase) {
  require_positive("noise_multiplier", noise_multiplier);
  require_positive("increase", increase);
  const double ratio = 1.0 + increase;  // nu_g / nu
  return noise_multiplier / std::sqrt(1.0 - 1.0 / (ratio * ratio));
}

double oso_gradient_noise_multiplier(double noise_multiplier, double direction_multiplier) {
  require_positive("noise_multiplier", noise_multiplier);
  require_positive("direction_noise_multiplier", direction_multiplier);
  if (!(direction_multiplier > noise_multiplier)) {
    fail_field("direction_noise_multiplier", direction_multiplier,
               "must be > noise_multiplier = " + format_number(noise_multiplier) +
                   " (Galli et al. Prop. 1: nu_g = (nu^-2 - nu_q^-2)^(-1/2))");
  }
  return remaining_multiplier(noise_multiplier, direction_multiplier);
}

double quantile_gradient_noise_multiplier(double noise_multiplier, double count_noise_std) {
  require_positive("noise_multiplier", noise_multiplier);
  require_positive("count_noise_std", count_noise_std);
  if (!(2.0 * count_noise_std > noise_multiplier)) {
    fail_field("count_noise_std", count_noise_std,
               "must be > noise_multiplier / 2 = " + format_number(noise_multiplier / 2) +
                   " (Andrew et al. 2021 Thm 1: z_Delta = (z^-2 - (2 sigma_b)^-2)^(-1/2))");
  }
  return remaining_multiplier(noise_multiplier, 2.0 * count_noise_std);
}

}  // namespace dplab::privacy
