// Composition of discretised privacy loss distributions: the PLD of an adaptive composition is
// the convolution of the PLDs (Sommer, Meiser & Mohammadi 2019, Thm 1; Koskela et al. 2020), so
// T-fold composition is a power of the characteristic function. We take one real FFT (FFTW3) of
// each distinct PLD on a common cyclic grid of N cells, raise it to its count T_i, multiply,
// and transform back: heterogeneous runs (different sigma, q, T) cost one FFT each.
//
// Window and truncation bookkeeping (Koskela et al. 2020, section 5; Chernoff bound): for the
// sum S of the grid indices, P(S >= u) <= exp(K(t) - t u) for t > 0 and P(S <= u) <=
// exp(K(t) - t u) for t < 0, K(t) = sum_i T_i ln E[e^{t J_i}]. We choose the smallest window
// [lo, hi] whose two tails are each <= tail_mass / 2 by these bounds (t tried on a grid around
// the Gaussian optimum), and N >= hi - lo + 1 cells. Mass outside the window wraps around the
// cyclic grid onto wrong cells; at most tail_mass of it, so tail_mass is ADDED to the infinity
// mass: delta(eps) moves by at most tail_mass, upwards. Infinity masses compose as
// 1 - prod_i (1 - inf_i)^{T_i}. Round-off negatives of the inverse FFT are clamped to 0 (adds
// mass: pessimistic).
//
// All inputs must share one discretization. Thread-safe (FFTW planning is serialised).
#pragma once

#include <cstdint>
#include <span>

#include "privacy/accounting/pld/privacy_loss_pmf.h"

namespace dplab::privacy::pld {

struct PmfPower {
  const PrivacyLossPmf* pmf = nullptr;
  std::int64_t times = 1;  // >= 0
};

inline constexpr double kDefaultTailMass = 1e-15;

struct ComposedPmf {
  PrivacyLossPmf pmf;
  double truncated_mass = 0.0;  // the part of pmf.infinity_mass that is window truncation
  std::size_t fft_size = 0;     // N
};

// kExtended runs the FFT in long double (fftw3l): its round-off floor, ~1e-16 of the largest
// cell in double, spread over every cell, would otherwise dominate deltas below ~1e-12.
enum class FftPrecision { kDouble, kExtended };

ComposedPmf compose(std::span<const PmfPower> factors, double tail_mass = kDefaultTailMass,
                    FftPrecision precision = FftPrecision::kDouble);

}  // namespace dplab::privacy::pld
