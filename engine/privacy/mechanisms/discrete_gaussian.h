// Exact sampling of the discrete Gaussian N_Z(0, sigma^2) on the integers, with integer
// arithmetic only (Canonne, Kamath & Steinke 2020, "The Discrete Gaussian for Differential
// Privacy", NeurIPS; CKS20 below):
//
//   P[X = x] = exp(-x^2 / (2 sigma^2)) / sum_{y in Z} exp(-y^2 / (2 sigma^2)),   x in Z.
//
// Algorithm (CKS20 Algorithms 1-3), every coin an exact rational Bernoulli drawn from uniform
// integers of the generator:
//   Bernoulli(exp(-gamma)), gamma = n/d >= 0 (Alg. 1): for gamma <= 1, K = 1, 2, ... while
//     Bernoulli(gamma / K) succeeds; return [K odd]. For gamma > 1: floor(gamma) independent
//     Bernoulli(exp(-1)) must all succeed, then Bernoulli(exp(-(gamma - floor gamma))).
//   Discrete Laplace, P[Y = y] ∝ exp(-|y| / t) (Alg. 2): U ~ Uniform{0..t-1}, accept with
//     Bernoulli(exp(-U/t)); V = number of successes of Bernoulli(exp(-1)) before a failure;
//     X = U + t V; a fair sign; (sign = -, X = 0) is rejected (so 0 is not counted twice).
//   Discrete Gaussian (Alg. 3): t = floor(sigma) + 1; Y ~ discrete Laplace(t); accept Y with
//     Bernoulli(exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2))). Here sigma is an INTEGER s, so the
//     exponent is the rational (|Y| t - s^2)^2 / (2 s^2 t^2), exact in 128-bit integers for
//     s <= 2^24 and |Y| <= 2^36. A Laplace proposal with |Y| > 2^36 (probability about
//     exp(-2^36 / t) <= exp(-2^12)) is redrawn, so the output is N_Z conditioned on
//     |x| <= 2^36: its total-variation distance to N_Z is P[|x| > 2^36] < exp(-2^23).
//
// The generator is the ChaCha20 stream of secure mode (core/chacha20.h); a test keys it with a
// fixed key to compare the samples with the exact pmf. Secure mode's grid (sigma = 2^20) draws
// its noise with the faster exact sampler of privacy/mechanisms/dyadic_discrete_gaussian.h
// (issue #44); this one serves any integer sigma and the tests.
// Thread-safety: the functions touch only their generator argument. No heap allocation.
#pragma once

#include <cstdint>

#include "core/chacha20.h"

namespace dplab::privacy {

inline constexpr std::uint64_t kMaxDiscreteGaussianSigma = std::uint64_t{1} << 24;

// One sample of N_Z(0, sigma^2); sigma an integer in [1, kMaxDiscreteGaussianSigma]. Throws
// InvalidArgument naming `sigma` otherwise.
std::int64_t sample_discrete_gaussian(std::uint64_t sigma, ChaCha20& rng);
// One sample of the discrete Laplace law P[Y = y] ∝ exp(-|y| / t), t >= 1.
std::int64_t sample_discrete_laplace(std::uint64_t t, ChaCha20& rng);

// The exact law, for tests: P[X = x] (normalising sum over |y| <= 40 sigma + 40, far beyond
// double precision) and the variance sum_x x^2 P[X = x] (CKS20 Prop. 19: <= sigma^2).
double discrete_gaussian_pmf(std::int64_t x, double sigma);
double discrete_gaussian_variance(double sigma);

}  // namespace dplab::privacy
