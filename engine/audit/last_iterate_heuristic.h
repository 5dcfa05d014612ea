// The last-iterate HEURISTIC of Steinke, Nasr, Ganesh, Balle, Choquette-Choo, Jagielski, Hayes,
// Thakurta, Smith & Terzis, "The Last Iterate Advantage: Empirical Auditing and Principled
// Heuristic Analysis of Differentially Private SGD" (ICLR 2025, arXiv 2410.06186): a prediction,
// computed before any run, of the epsilon a final-model-only audit can reach. NOT a bound: it
// assumes the loss is linear (then it is exact), and the paper itself builds counterexamples where
// real training leaks more; every output labels it kLabel.
//
// The heuristic. DP-SGD with T noisy-gradient queries, Poisson sampling rate q, noise multiplier
// sigma, released only after the last step. With a linear loss every step adds the canary's
// clipped gradient C u (when sampled) plus N(0, sigma^2 C^2) noise, and the final model's
// projection on u, in units of C, is
//     P = Binomial(T, q) + N(0, sigma^2 T)     (canary in)
//     Q = N(0, sigma^2 T)                      (canary out),
// so the last iterate is (eps, delta)-DP for the canary with
//     delta(eps) = max{ H_{e^eps}(P || Q), H_{e^eps}(Q || P) },
//     H_a(A || B) = integral (a_density - a * b_density)_+ = sup_E A(E) - a B(E)
// (the hockey-stick divergence, both neighbouring directions), and the heuristic epsilon at delta
// is the smallest eps with delta(eps) <= delta.
//
// How delta(eps) is computed (exactly, up to double rounding; no grid, no sampling). Write
// s = sigma sqrt(T) and w_k = C(T, k) q^k (1 - q)^(T - k). The likelihood ratio
//     l(x) = p(x) / q(x) = sum_k w_k exp((k x - k^2 / 2) / s^2)
// is increasing in x (each term is, k >= 0) and log l is convex (a log-sum-exp of affine
// functions), with l(-inf) = w_0 and l(+inf) = inf. So the sets on which each density exceeds
// e^eps times the other are half-lines, bounded by the roots of log l(x) = +eps and = -eps:
//     H(P || Q) = sum_k w_k Phibar((x1 - k) / s) - e^eps Phibar(x1 / s),   log l(x1) = eps;
//     H(Q || P) = Phi(x2 / s) - e^eps sum_k w_k Phi((x2 - k) / s),          log l(x2) = -eps,
// and H(Q || P) = 0 when e^-eps <= w_0 (then q(x) <= e^eps p(x) everywhere). Each root is found
// by Newton's method kept inside a bracket (bisection when a step leaves it; a convex increasing
// function, so the bracket never loses the root) to 1e-14 relative; the sums are log-sum-exp
// sums of log Phi (log_space.h: no underflow), and each difference is formed as log(e^a - e^b).
// Terms with w_k below e^-80 times the largest are dropped: P loses at most (T + 1) e^-80 < 1e-28
// of its mass, which moves either hockey-stick divergence by no more than that.
// epsilon(delta): bisection on eps (delta(eps) decreases in eps) to 1e-10 relative, rounded up;
// 0 when delta(0) <= delta already; +inf when sigma = 0 (a noiseless last iterate).
//
// Checks (tests/engine/test_last_iterate_heuristic.cpp): q = 1 is the Gaussian mechanism with
// sensitivity T and noise sigma sqrt(T), i.e. noise multiplier sigma / sqrt(T) (Balle & Wang
// 2018, privacy/mechanisms/gaussian_mechanism.h); small T against direct numerical integration
// of (p - e^eps q)_+; T = 1 against the PLD accountant of one subsampled-Gaussian step.
//
// Pure and thread-safe.
#pragma once

#include <cstdint>

namespace dplab::audit {

// delta(eps) of the pair above. noise_multiplier > 0, sampling_rate in [0, 1], steps >= 0,
// eps >= 0; throws InvalidArgument naming the field otherwise.
double last_iterate_delta(double noise_multiplier, double sampling_rate, std::int64_t steps,
                          double epsilon);

// The heuristic epsilon at delta in (0, 1); +inf when noise_multiplier = 0.
double last_iterate_epsilon(double noise_multiplier, double sampling_rate, std::int64_t steps,
                            double delta);

inline constexpr const char* kLastIterateLabel = "heuristic (Steinke et al. 2025), not a bound";

}  // namespace dplab::audit
