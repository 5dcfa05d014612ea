// Sparse vector technique, NumericSparse (Dwork & Roth 2014, Alg. 2 "NumericSparse"; Zhang,
// Mironov & Hejazinia, Algorithm 1), used as a coordinate selector for sparse DP training.
//
// Input u in R^p with l_inf sensitivity s, threshold alpha, at most c1 answers, (eps, delta).
//   eps1 = 0.95 eps, eps2 = 0.05 eps,   sigma(e) = s sqrt(32 c1 log(2/delta)) / e
//   alpha^ = alpha + Lap(sigma(eps1)),  count = 0
//   for i = 1..p:  v_i = Lap(2 sigma(eps1))
//                  if |u_i| + v_i >= alpha^:  select i (u^_i = u_i + Lap(2 sigma(eps2)) is the
//                                              numeric answer), count += 1,
//                                              alpha^ = alpha + Lap(sigma(eps1)) (fresh)
//                  if count >= c1: stop
// The paper's listing says "if count > c1", which would allow c1 + 1 answers; Dwork & Roth halt
// after c answers, which is what the privacy proof (c1 in sigma) covers, so we halt at c1.
// Only the selected set is used by Algorithm 3 (the numeric answers are not released, the eps2
// share is still charged: the mechanism is accounted as the full (eps, delta)-DP NumericSparse).
//
// Here u = g^ clipped per coordinate to [-S0, S0], so s = S0 (as for the exponential mechanism).
// Threshold: alpha is data-independent. `default_threshold` picks alpha so that for u = 0 a scan
// of all p coordinates passes about c1 times: Pr[Lap(2 sigma1) >= alpha] = exp(-alpha / (2
// sigma1))/2 = c1 / p  =>  alpha = 2 sigma1 log(p / (2 c1)) (alpha = 0 when c1 >= p/2).
//
// Cost: select() is O(|touched| + c1) per call, not O(p): it never draws the v_i of coordinates
// whose query value is 0 one by one, it jumps over them with one geometric draw (the proof that
// the output law is unchanged is in sparse_vector.cpp). select_by_full_scan() is the textbook
// O(p) scan above, kept as the reference the fast scan is tested and benchmarked against.
// Not thread-safe.
#pragma once

#include <string>
#include <vector>

#include "privacy/mechanisms/coordinate_selection.h"

namespace dplab::privacy {

struct SparseVectorSettings {
  Index dimension = 0;       // p
  Index max_count = 1;       // c1
  double epsilon = 1.0;      // eps of the whole NumericSparse run, > 0
  double delta = 1e-6;       // in (0, 1)
  double sensitivity = 0.1;  // s = S0
  double threshold = 0.0;    // alpha
};

// sigma(e) = s sqrt(32 c1 log(2/delta)) / e.
double sparse_vector_noise_scale(const SparseVectorSettings& settings, double epsilon_part);

// alpha = 2 sigma(0.95 eps) log(p / (2 c1)), or 0 when c1 >= p / 2.
double sparse_vector_default_threshold(const SparseVectorSettings& settings);

class SparseVector final : public CoordinateSelector {
 public:
  explicit SparseVector(const SparseVectorSettings& settings);
  std::string name() const override { return "svt"; }
  void select(const SparseVectorView& gradient, Rng& rng, std::vector<Index>& selected) override;
  // The same law by drawing every v_i, i = 1..p (O(p)): the reference for tests and bench.
  void select_by_full_scan(const SparseVectorView& gradient, Rng& rng,
                           std::vector<Index>& selected) const;
  const SparseVectorSettings& settings() const { return settings_; }

 private:
  void check_dimension(const SparseVectorView& gradient) const;
  SparseVectorSettings settings_;
  double threshold_noise_;  // sigma(eps1)
};

// Lap(scale): scale (E1 - E2), E1, E2 ~ Exp(1) i.i.d.
double sample_laplace(Rng& rng, double scale);
// Pr[Lap(scale) >= x]: exp(-x/scale)/2 for x >= 0, 1 - exp(x/scale)/2 for x < 0.
double laplace_survival(double x, double scale);

}  // namespace dplab::privacy
