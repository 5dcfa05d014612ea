// Exponential-mechanism top-k coordinate selection (Zhang, Mironov & Hejazinia, Algorithm 4;
// McSherry & Talwar 2007).
//
//   1. clip every coordinate to [-S0, S0]:      u_j = min(|g^_j|, S0)            (utility, range
//   S0)
//   2. k = floor(gamma p) draws WITHOUT replacement, each with
//        Pr[j] ∝ exp(eps'' u_j / (2 S0))    over the coordinates not yet drawn,
//      eps'' = eps' / sqrt(2 k log(1/delta'))   (advanced composition of the k draws, so the
//      selection is (eps', delta')-DP; `draw_epsilon()` computes it).
// Each draw is eps''-DP (utility sensitivity <= S0); k draws compose.
//
// Sampling (numerically safe, exact): the Gumbel-max trick in log space. With G_j i.i.d.
// Gumbel(0, 1), the indices of the k largest keys s_j + G_j (s_j = eps'' u_j / (2 S0)) have exactly
// the law of k sequential draws without replacement ∝ exp(s_j) (Yellott 1977; Vieira 2014,
// "Gumbel-max trick and weighted reservoir sampling"). No exp() of a score is ever taken.
// G_j = -log(E_j), E_j ~ Exp(1).
//
// Sparse cost O(nnz + k log k), not O(p): the m = p - nnz untouched coordinates all have s = 0,
// so their keys are i.i.d. Gumbel; only the k largest of them can matter. Those are -log of the k
// smallest of m i.i.d. Exp(1), generated directly by the Rényi representation
//   E_(1) = X_1 / m,  E_(i) = E_(i-1) + X_i / (m - i + 1),  X_i ~ Exp(1) i.i.d.,
// and attached to k distinct uniformly random untouched coordinates (exchangeability).
//
// Not thread-safe (scratch buffers); no heap allocation per call after the first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "privacy/mechanisms/coordinate_selection.h"

namespace dplab::privacy {

struct ExponentialTopKSettings {
  Index dimension = 0;        // p
  Index count = 1;            // k = floor(gamma p), 1 <= k <= p
  double draw_epsilon = 1.0;  // eps'' per draw, > 0
  double clip = 0.1;          // S0, per-coordinate clipping bound, > 0
};

// eps'' = eps' / sqrt(2 k log(1/delta')); eps' > 0, delta' in (0, 1), k >= 1.
double exponential_top_k_draw_epsilon(double selection_epsilon, double selection_delta, Index k);

// k = floor(gamma p), at least 1.
Index selection_count(double gamma, Index dimension);

class ExponentialTopK final : public CoordinateSelector {
 public:
  explicit ExponentialTopK(const ExponentialTopKSettings& settings);
  std::string name() const override { return "exponential"; }
  void select(const SparseVectorView& gradient, Rng& rng, std::vector<Index>& selected) override;
  const ExponentialTopKSettings& settings() const { return settings_; }

 private:
  struct Key {
    double key;
    Index index;
  };
  ExponentialTopKSettings settings_;
  std::vector<Key> keys_;
  std::vector<std::uint8_t> taken_;  // size p, all zero between calls
};

}  // namespace dplab::privacy
