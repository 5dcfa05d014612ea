// Renyi DP of one step of the Poisson-subsampled Gaussian mechanism (Abadi et al. 2016;
// Mironov, Talwar & Zhang 2019, "Renyi Differential Privacy of the Sampled Gaussian Mechanism",
// sections 3.2-3.3). With mu0 = N(0, sigma^2), mu1 = N(1, sigma^2), mu = (1-q) mu0 + q mu1:
//
//   A_alpha = E_{z ~ mu0}[(mu(z)/mu0(z))^alpha],   eps_RDP(alpha) = log(A_alpha)/(alpha - 1)
//
// per step (sensitivity 1, noise std = noise_multiplier), and T steps compose to T * eps_RDP.
// - Integer alpha (MTZ19, section 3.2; Abadi et al. 2016):
//     A_alpha = sum_{k=0..alpha} C(alpha,k) (1-q)^{alpha-k} q^k exp((k^2-k)/(2 sigma^2)).
//   Since sum_k C(alpha,k)(1-q)^{alpha-k}q^k = 1, we sum the all-positive series for A_alpha - 1
//   (terms with expm1) and take log1p: accurate even when log A is 1e-15 (tiny q).
// - Fractional alpha (MTZ19, section 3.3, the two-series formula), z0 = sigma^2 log(1/q - 1) + 1/2:
//     A_alpha = sum_{i>=0} C(alpha,i) (1-q)^{alpha-i} q^i     exp((i^2-i)/(2 sigma^2))
//     erfc((i-z0)/(sqrt2 sigma))/2
//             + sum_{i>=0} C(alpha,i) (1-q)^i     q^{alpha-i} exp((j^2-j)/(2 sigma^2))
//             erfc((z0-j)/(sqrt2 sigma))/2,
//   j = alpha - i, with the generalised binomial C(alpha,i), whose sign alternates for i > alpha.
//   The terms are summed WITH their signs (positive and negative parts in log space, subtracted
//   once): summing absolute values is a valid but looser upper bound (up to +60% near alpha = 1).
//   Beyond i > alpha the series alternates with decreasing magnitude; we stop right after a
//   positive term below 1e-10 * log A (+1e-18), so the truncated sum is an upper bound.
// - Special cases: q = 0 gives 0, q = 1 is the plain Gaussian, log A = alpha(alpha-1)/(2 sigma^2).
//
// Conservative direction: log A is an exact quantity; both formulas are exact series, never a
// lower bound. Results are clamped at >= 0 (A_alpha >= 1 by Jensen). Pure, thread-safe.
#pragma once

#include <vector>

namespace dplab::privacy {

// log A_alpha of one step. noise_multiplier > 0, sampling_rate in [0, 1], order in (1, 1e7].
double log_moment_subsampled_gaussian(double noise_multiplier, double sampling_rate, double order);

// Per-step RDP eps(alpha) = log A_alpha / (alpha - 1).
double rdp_subsampled_gaussian(double noise_multiplier, double sampling_rate, double order);

// Per-step RDP at many orders at once (orders in (1, 1e7]); integer orders share one table of
// their k-dependent terms, so a 630-order curve costs a few milliseconds.
std::vector<double> rdp_subsampled_gaussian_curve(double noise_multiplier, double sampling_rate,
                                                  const std::vector<double>& orders);

}  // namespace dplab::privacy
