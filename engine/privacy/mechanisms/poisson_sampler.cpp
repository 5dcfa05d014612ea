// Poisson sampling by geometric skipping: gap = floor(log(U) / log1p(-q)), U ~ Uniform(0, 1];
// see poisson_sampler.h for the derivation.
#include "privacy/mechanisms/poisson_sampler.h"

#include <algorithm>
#include <cmath>

#include "core/validate.h"

namespace dplab::privacy {

PoissonSampler::PoissonSampler(Index population, double sampling_rate)
    : population_(population), sampling_rate_(sampling_rate), inv_log1m_q_(0) {
  require_positive("population", static_cast<double>(population));
  require_left_open_interval("sampling_rate", sampling_rate, 0.0, 1.0);
  if (sampling_rate < 1.0) inv_log1m_q_ = 1.0 / std::log1p(-sampling_rate);
}

void PoissonSampler::sample(Rng& rng, std::vector<Index>& lot) const {
  lot.clear();
  if (sampling_rate_ >= 1.0) {
    for (Index i = 0; i < population_; ++i) lot.push_back(i);
    return;
  }
  const double n = static_cast<double>(population_);
  // `position` is the last included index (starts before the first example). Kept in double so
  // that a huge gap (tiny q) cannot overflow the integer index before the end test.
  double position = -1.0;
  for (;;) {
    const double gap = std::floor(std::log(rng.uniform_open_zero()) * inv_log1m_q_);
    position += gap + 1.0;
    if (position >= n) break;
    lot.push_back(static_cast<Index>(position));
  }
}

Index PoissonSampler::suggested_capacity() const {
  const double mean = expected_lot_size();
  const double capacity = std::ceil(mean + 10.0 * std::sqrt(mean) + 64.0);
  return static_cast<Index>(std::min(capacity, static_cast<double>(population_)));
}

}  // namespace dplab::privacy
