// Secure mode's Gaussian mechanism on an integer grid: the noisy gradient sum is computed and
// released as an INTEGER vector, with exact discrete Gaussian noise
// (privacy/mechanisms/discrete_gaussian.h) drawn from ChaCha20 keyed by the OS, so no
// floating-point noise ever touches the data and the low-order-bit attack of Mironov 2012 has
// nothing to read (docs/secure-noise.md).
//
// Mechanism (sum S = sum_i clip(g_i, C'), noise multiplier sigma, nominal clip C, d params):
//   grid        g   = sigma C / s,   s = kGridSigma = 2^20 (the noise std in grid units)
//   rounding    k   = round(S / g)   in Z^d (ties away from zero)
//   release     k~  = k + z,  z_j ~ N_Z(0, s^2) i.i.d.;   the optimizer gets k~ g / L (any
//               function of the integer k~ is post-processing).
// Sensitivity: adding or removing one example changes S by at most C' in l2. Rounding moves
// each coordinate by less than 1/2, so ||k - k'||_2 <= ||S - S'||_2 / g + sqrt(d) (per coordinate
// |round(a) - round(b)| <= |a - b| + 1, then the triangle inequality). Clipping at
//   C' = C - g sqrt(d) = C (1 - sigma sqrt(d) / s)
// makes ||k - k'||_2 <= C / g = s / sigma: the ratio sensitivity / noise std is 1 / sigma, as in
// the continuous mechanism. The clip shrinks by the relative sigma sqrt(d) / 2^20 (3.4e-4 for
// sigma = 4, d = 7850); a grid with sigma sqrt(d) >= 2^19 is refused.
// Privacy (CKS20 = Canonne, Kamath & Steinke 2020): for a Z-valued query of sensitivity Delta,
// adding N_Z(0, s^2) is (Delta/s)^2 / 2 - concentrated DP, i.e. (alpha, alpha Delta^2 / (2 s^2))-
// RDP — exactly the continuous Gaussian's bound (their Theorem 4). For d coordinates with l2
// sensitivity Delta_2 their multivariate result (Section 4, Theorem 15 as we read it) adds a
// term of order d exp(-pi^2 s^2) to the bound: for s = 2^20 it is below exp(-10^12), zero in
// double precision. So one query's RDP is the continuous Gaussian's for the same sigma. What is
// NOT proven here: dplab's accountant composes the Poisson-SUBSAMPLED continuous Gaussian
// (Mironov, Talwar & Zhang 2019), whose derivation uses the continuous densities; the printed
// epsilon of secure mode is that number (docs/secure-noise.md says so).
// Sampler: the noise vector is drawn by privacy/mechanisms/dyadic_discrete_gaussian.h, exact
// N_Z(0, 2^40) conditioned on |z| < 2^26 (total-variation distance < exp(-2048) from N_Z), about
// 4 ns per coordinate with the rounding and the release (issue #44; docs/secure-noise.md "Cost").
// Thread-safety: one instance per training job (it owns its ChaCha20 stream). No allocation.
#pragma once

#include <array>
#include <cstdint>

#include "core/chacha20.h"
#include "core/types.h"
#include "privacy/mechanisms/dyadic_discrete_gaussian.h"

namespace dplab::privacy {

class GridGaussianNoise {
 public:
  static constexpr int kLog2GridSigma = 20;
  static constexpr std::uint64_t kGridSigma = std::uint64_t{1} << kLog2GridSigma;

  // Throws InvalidArgument naming the field: noise_multiplier and clip finite and > 0, dim >= 1,
  // noise_multiplier sqrt(dim) < 2^19.
  GridGaussianNoise(double noise_multiplier, double clip, Index dim, ChaCha20 rng);

  double grid() const { return grid_; }                    // g
  double rounding_clip() const { return rounding_clip_; }  // C' (clip the examples at this)
  // sum -> (round(sum / g) + N_Z(0, s^2)) * g * scale, coordinate by coordinate. Throws if
  // |sum / g| does not fit an int64 (a sum that large was not clipped).
  void privatize(VectorSpan sum, double scale);

  // round(x), halves away from zero: the same integer as std::llround(x) for |x| < 2^63 (trunc by
  // conversion, then the exact remainder x - trunc(x) decides), inline instead of a libm call.
  static std::int64_t round_half_away(double x) {
    const auto whole = static_cast<std::int64_t>(x);
    const double rest = x - static_cast<double>(whole);  // exact for |x| < 2^63
    return whole + (rest >= 0.5 ? 1 : 0) - (rest <= -0.5 ? 1 : 0);
  }

 private:
  double grid_;
  double rounding_clip_;
  Index dim_;
  DyadicDiscreteGaussian sampler_;
  // The noise of the next kChunk coordinates, drawn together (the sampler's tables and this
  // buffer stay in L1 while the loop over a long gradient streams through memory).
  static constexpr std::size_t kChunk = 512;
  std::array<std::int32_t, kChunk> noise_{};
  std::array<double, kChunk> units_{};  // sum / g of the chunk's coordinates
};

}  // namespace dplab::privacy
