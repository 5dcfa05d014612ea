// The standard normal quantile Phi^-1(p), the inverse of Phi(x) = erfc(-x / sqrt 2) / 2.
//
// Method: by symmetry Phi^-1(p) = -Phi^-1(1 - p), so only the lower half p <= 1/2 (x <= 0) is
// solved, and it is solved on the log scale, g(x) = log Phi(x) - log p = 0, so that p down to the
// smallest double keeps full relative precision (log_space.h's log_normal_cdf has no underflow).
// Start: Abramowitz & Stegun 26.2.23 (|error| < 4.5e-4). Then Newton on g, whose derivative is
// g'(x) = phi(x) / Phi(x) > 0: log Phi is increasing and concave (Phi is log-concave), so the
// first Newton step lands at or below the root and every later one climbs to it monotonically
// (the tangent of a concave increasing function lies above it); quadratic convergence from
// 4.5e-4 reaches double precision in three steps, and the loop stops when a step is below
// 4 ulp of x (at most 10 steps). Accuracy: that of log Phi (~1e-15 relative), i.e. ~1e-15 in x.
// For p > 1/2 the argument 1 - p is formed in double, as every double-precision quantile does:
// p within 1e-16 of 1 is resolved only as finely as 1 - p can be.
//
// Pure, thread-safe.
#pragma once

namespace dplab::privacy {

// Phi^-1(p) for p in [0, 1]: -inf at 0, +inf at 1. Throws InvalidArgument naming "p" otherwise.
double normal_quantile(double p);

}  // namespace dplab::privacy
