#include "training/training_guards.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/validate.h"

namespace dplab::training {

std::string lot_size_drift_warning(std::int64_t lots, double lot_rows, double population,
                                   double sampling_rate) {
  if (lots <= 0 || !(population > 0) || !(sampling_rate > 0)) return "";
  const double q = std::min(sampling_rate, 1.0);
  const double t = static_cast<double>(lots);
  const double expected = q * population;  // mean lot q n
  const double variance = t * population * q * (1 - q);
  const double bound = 6 * (1 + std::sqrt(1 + variance));  // Bernstein, 2 e^-18 (header)
  const double deviation = lot_rows - t * expected;
  if (std::abs(deviation) <= bound) return "";
  return "the realised lots averaged " + format_number(lot_rows / t) + " rows over " +
         std::to_string(lots) + " steps, but Poisson sampling at q = " + format_number(q) +
         " of n = " + format_number(population) + " expects q n = " + format_number(expected) +
         " +- " + format_number(bound / t) +
         " (a false alarm has probability < 3e-8): the sampler does not sample at the rate the "
         "accountant charges, so the epsilon does not describe this run";
}

std::string frozen_parameters_warning(VectorView initial, VectorView final_params,
                                      std::int64_t queries) {
  if (queries <= 0 || initial.size() != final_params.size() || initial.size() == 0) return "";
  constexpr double eps = std::numeric_limits<float>::epsilon();
  double largest_change = 0;
  for (Index j = 0; j < initial.size(); ++j) {
    const double before = initial[j], after = final_params[j];
    const double change = std::abs(after - before);
    if (!(change <= eps * std::max({std::abs(before), std::abs(after), 1.0}))) return "";
    largest_change = std::max(largest_change, change);
  }
  return "no parameter moved by more than float resolution in " + std::to_string(queries) +
         " steps (largest change " + format_number(largest_change) +
         "): the run trained nothing; is the learning rate far too small, or is every gradient "
         "clipped to ~0 (a tiny clip C)?";
}

}  // namespace dplab::training
