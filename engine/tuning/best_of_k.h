// The exact best-of-k expectation (main paper section 5.2; issue #45 item 1): draw k of m scored
// values uniformly WITHOUT replacement and keep the best; with v_(1) <= ... <= v_(m) sorted by
// score, the chosen one is v_(i) with probability
//   w_k(i) = P(max rank = i) = C(i - 1, k - 1) / C(m, k)   (i = k..m; 0 below k),
// so E[chosen] = sum_i w_k(i) v_(i) and Var[chosen] = sum_i w_k(i) (v_(i) - E[chosen])^2 (a
// second pass over the same weights: no cancellation of E[v^2] - E[v]^2).
// Computed from the top rank down by the exact ratios
//   w_k(m) = k / m,   w_k(i - 1) = w_k(i) (i - k) / (i - 1),
//   P(max rank <= i - 1) = P(max rank <= i) (i - k) / i,
// stopping once the mass left below is under 1e-18 (far below double rounding; a non-finite
// value in the skipped ranks is still added, since its weight is > 0). The mass of the max sits in
// the top ~39 m / k ranks, so every k = 1..m together costs O(m log m) after one sort — no
// binomial coefficient is formed, so nothing under- or overflows (C(20000, 10000) ~ 1e6020).
// Pure functions; thread-safe.
#pragma once

#include <vector>

namespace dplab::tuning {

// One value of the pool: the score orders (higher is better), the metric is what is averaged.
struct ScoredValue {
  double score = 0;
  double metric = 0;
};

struct BestOfKMoments {
  int k = 0;
  double mean = 0;      // E[metric of the best of k]
  double variance = 0;  // Var[metric of the best of k]; NaN if mean is not finite
  double sd() const;    // sqrt(variance)
};

// One entry per k = 1..m (m = values.size(); empty for an empty pool). Equal scores carry equal
// metrics in dplab (score = +-metric), so how ties are ordered does not change the result.
std::vector<BestOfKMoments> best_of_k_moments(std::vector<ScoredValue> values);

// E[max of a uniform k-subset of `values`] for one k (1 <= k <= values.size()), by value.
double expected_best_of_k(const std::vector<double>& values, int k);

}  // namespace dplab::tuning
