// PoissonSampler: draws a lot for DP-SGD by Poisson sampling — each of the n examples joins
// independently with probability q (the sampling the RDP accountant assumes; Abadi et al. 2016,
// Mironov, Talwar & Zhang 2019; main paper appendix A: "including each element ... with
// probability L/n").
//
// Cost O(|lot|) per lot, not O(n): instead of n Bernoulli trials we draw the gaps between
// included indices. The number of skipped examples before the next included one is
// Geometric(q) on {0, 1, ...}: P(gap = k) = (1-q)^k q, drawn by inversion as
//   gap = floor(log(U) / log1p(-q)),  U ~ Uniform(0, 1]
// (gap >= k  <=>  U <= (1-q)^k). The resulting index set has exactly the law of n independent
// Bernoulli(q) trials. q = 1 is special-cased (every example, in order).
//
// Indices come out sorted ascending and unique. The output vector is cleared and refilled; it
// allocates only if the lot exceeds its capacity (reserve suggested_capacity() once).
//
// Thread-safety: const after construction; the Rng passed in is the only mutable state.
#pragma once

#include <vector>

#include "core/random.h"
#include "core/types.h"

namespace dplab::privacy {

class PoissonSampler {
 public:
  // population n > 0, sampling_rate q in (0, 1]; throws InvalidArgument naming the field.
  PoissonSampler(Index population, double sampling_rate);

  // Replaces the contents of `lot` by the indices of one Poisson-sampled lot (sorted, unique).
  void sample(Rng& rng, std::vector<Index>& lot) const;

  Index population() const { return population_; }
  double sampling_rate() const { return sampling_rate_; }
  double expected_lot_size() const { return sampling_rate_ * static_cast<double>(population_); }

  // A capacity that a lot exceeds only with negligible probability: qn + 10 sqrt(qn) + 64
  // (|lot| ~ Binomial(n, q) has std <= sqrt(qn), so this is > 10 standard deviations above
  // the mean), capped at n.
  Index suggested_capacity() const;

 private:
  Index population_;
  double sampling_rate_;
  double inv_log1m_q_;  // 1 / log1p(-q) (< 0); unused when q = 1
};

}  // namespace dplab::privacy
