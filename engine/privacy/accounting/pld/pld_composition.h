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
#include <limits>
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

// accurate_at (a loss; NaN: none): the composition is also computed exponentially tilted
// (Esscher transform), each factor p_j -> p_j e^{tau j} / Z_i, so that the tilted composition's
// mean lies at that loss (tau >= 0 by bisection; 0 when the plain mean is already above it).
// Tilting commutes with convolution, (p e^{tau j}) * (p' e^{tau j}) = (p * p') e^{tau j}, so the
// composed cell S is P_S = Pt_S prod_i Z_i^{T_i} e^{-tau S}. The FFT's round-off is relative to
// the largest cell of what it transforms and is raised T-fold with the spectrum, ~1e-16 T of the
// largest cell: at delta ~ 1e-15 it is of the order of delta itself, in double and (measured)
// in long double too, where it put epsilon up to 1e-4 below the exact value. In the tilted
// transform the cells near accurate_at are the largest, so delta(eps) and eps(delta) there are
// accurate to that relative round-off. Each cell is taken from the transform whose round-off
// there is smaller (the plain one below a crossover loss, the tilted one above); the window
// holds both transforms' Chernoff windows. Costs a second FFT per factor.
ComposedPmf compose(std::span<const PmfPower> factors, double tail_mass = kDefaultTailMass,
                    double accurate_at = std::numeric_limits<double>::quiet_NaN());

}  // namespace dplab::privacy::pld
