// One step of the Poisson-subsampled Gaussian mechanism as a discretised privacy loss
// distribution (sensitivity 1, noise std = noise_multiplier sigma, sampling rate q). With
// N_m = N(m, sigma^2), M = (1-q) N0 + q N1, M- = (1-q) N0 + q N-1:
//   remove:  (P, Q) = (M, N0),  loss L(x) = ln(1 - q + q e^{u}),   increasing in x,
//   add:     (P, Q) = (N0, M),  loss L(x) = -ln(1 - q + q e^{u}),  decreasing in x,
//   replace: (P, Q) = (M, M-),  loss L(x) = ln(1 - q + q e^{u}) - ln(1 - q + q e^{v}), increasing,
// u = (2x - 1)/(2 sigma^2), v = (-2x - 1)/(2 sigma^2).
// Add/remove adjacency (one record added or removed): remove and add are tight dominating pairs
// of the subsampled Gaussian (Zhu, Dong & Wang 2022, "Optimal accounting of differential privacy
// via characteristic function", section 5); both directions are kept and a composition is
// (eps, delta)-DP with the larger of the two deltas.
// Substitute adjacency (one record replaced by another, the batch otherwise the same): the pair
// "replace" of Koskela, Jalko & Honkela 2020 (AISTATS), section 5.2, and of Google
// dp_accounting's REPLACE_ONE: the replaced record, when sampled (probability q, the same coin
// for both datasets), contributes g in one dataset and g' in the other; the rest of the batch is
// common to both and, by joint convexity of the hockey-stick divergence over it (Balle, Barthe &
// Gaboardi 2018, the coupling of their section 5), only shifts all components alike. The worst
// case over ||g||, ||g'|| <= 1 used by both accountants is g = -g' of norm 1, i.e. (M, M-). It is
// symmetric (x -> -x swaps P and Q), so H(P||Q) = H(Q||P) and one direction is the whole curve.
// At q = 1 it is the Gaussian of sensitivity 2.
//
// Exact hockey-stick divergence delta(eps) = P(L > eps) - e^eps Q(L > eps): the set {L > eps} is
// a half line {x > x*} (remove, replace) or {x < x*} (add). For remove and add, x* = sigma^2 u* +
// 1/2 and
//   remove: u* = ln((e^eps - 1 + q)/q),  delta = q [Phi~((x*-1)/sigma) - e^{u*} Phi~(x*/sigma)]
//           (eps <= ln(1-q): delta = 1 - e^eps),
//   add:    u* = ln((e^-eps - 1 + q)/q), delta = q e^eps [e^{u*} Phi(x*/sigma) - Phi((x*-1)/sigma)]
//           (eps >= -ln(1-q): delta = 0),
// Phi~ = 1 - Phi, each Phi from erfc (no cancellation in the tails). For replace and eps >= 0,
// y = e^{x*/sigma^2} is the positive root of c y^2 - (1-q)(e^eps - 1) y - c e^eps = 0,
// c = q e^{-1/(2 sigma^2)} (L(x*) = eps), taken in logs as
//   x*/sigma^2 = eps + ln(b + sqrt(b^2 + 4 c^2 e^-eps)) - ln(2c),  b = (1-q)(1 - e^-eps),
//   delta = (1-q)(1 - e^eps) Phi~(x*/sigma) + q [Phi~((x*-1)/sigma) - e^eps Phi~((x*+1)/sigma)],
// and for eps < 0 from the symmetry, delta(eps) = 1 - e^eps + e^eps delta(-eps).
//
// Discretisation, PESSIMISTIC: "connect the dots" (Doroshenko, Ghazi, Kamath, Kumar &
// Manurangsi 2022, Algorithm 1). On the grid eps_i = i d, i = lo..hi, the discrete PLD whose
// delta(eps) interpolates the exact delta_i linearly in e^eps has masses
//   p_lo = 1 - delta_lo + (delta_{lo+1} - delta_lo)/(e^d - 1),
//   p_i  = ((delta_{i+1} - delta_i) - e^d (delta_i - delta_{i-1}))/(e^d - 1),
//   p_hi = (delta_hi - delta_{hi-1})/(e^{-d} - 1),   infinity mass = delta_hi.
// delta(eps) is convex in e^eps, so the chord lies above it: the discrete pair dominates the
// exact one at every eps, and dominating pairs compose (Zhu et al. 2022, Thm 10), so every delta
// computed from compositions of these PLDs is an upper bound. The grid spans the losses of
// x within tail_sigmas standard deviations (mass beyond: pushed to the end cells or to +infinity
// by the construction itself, never dropped). Negative masses from round-off are clamped to 0.
#pragma once

#include "privacy/accounting/pld/privacy_loss_pmf.h"

namespace dplab::privacy::pld {

enum class Adjacency { kRemove, kAdd, kReplace };

// Exact hockey-stick divergence of one step (any real epsilon). sigma > 0, q in (0, 1].
double subsampled_gaussian_delta(double noise_multiplier, double sampling_rate, Adjacency adjacency,
                                 double epsilon);

// The privacy loss at x (see above); +-infinity where it diverges.
double subsampled_gaussian_loss(double noise_multiplier, double sampling_rate, Adjacency adjacency,
                                double x);

inline constexpr double kDefaultTailSigmas = 10.0;  // Phi(-10) ~ 7.6e-24 of the noise

// The pessimistic connect-the-dots PLD of one step on the grid of step discretization.
PrivacyLossPmf subsampled_gaussian_pmf(double noise_multiplier, double sampling_rate,
                                       Adjacency adjacency, double discretization,
                                       double tail_sigmas = kDefaultTailSigmas);

}  // namespace dplab::privacy::pld
