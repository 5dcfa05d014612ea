// The (non-subsampled) Gaussian mechanism M(D) = f(D) + N(0, sigma^2 Delta^2 I) for a query of
// L2 sensitivity Delta; everything here is in units of Delta (sigma = noise multiplier).
//
// - Classic bound (Dwork & Roth 2014, Thm A.1; main paper appendix A): for epsilon in (0, 1),
//   sigma >= sqrt(2 ln(1.25/delta))/epsilon gives (epsilon, delta)-DP. Sufficient, not necessary,
//   and invalid for epsilon >= 1 (we refuse it there rather than return a wrong bound).
// - Analytic Gaussian mechanism (Balle & Wang 2018, Thm 8): the mechanism is (epsilon, delta)-DP
//   if and only if delta >= Phi(1/(2 sigma) - epsilon sigma) - e^epsilon Phi(-1/(2 sigma) - epsilon
//   sigma). The exact delta(epsilon) is evaluated in log space; epsilon for a delta and sigma for a
//   target are found by bisection on this exact curve and returned from the SAFE side (epsilon and
//   sigma rounded up, to 1e-10 relative).
// Pure functions, thread-safe.
#pragma once

namespace dplab::privacy {

// sqrt(2 ln(1.25/delta))/epsilon; epsilon in (0, 1), delta in (0, 1).
double classic_gaussian_noise_multiplier(double epsilon, double delta);

// The classic bound solved for epsilon: sqrt(2 ln(1.25/delta))/sigma when that is < 1, else
// +infinity (the theorem gives no guarantee there). noise_multiplier > 0.
double classic_gaussian_epsilon(double noise_multiplier, double delta);

// Exact delta(epsilon) of the Gaussian mechanism (Balle & Wang 2018, Thm 8). epsilon >= 0.
double analytic_gaussian_delta(double noise_multiplier, double epsilon);

// Smallest epsilon >= 0 with analytic_gaussian_delta(sigma, epsilon) <= delta (rounded up).
double analytic_gaussian_epsilon(double noise_multiplier, double delta);

// Smallest sigma with analytic_gaussian_delta(sigma, epsilon) <= delta (rounded up). epsilon > 0.
double analytic_gaussian_noise_multiplier(double epsilon, double delta);

}  // namespace dplab::privacy
