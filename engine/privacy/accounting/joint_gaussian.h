// Several Gaussian queries on the SAME lot, charged as ONE Gaussian mechanism.
//
// If one step releases k noisy sums f_j(D) + N(0, (s_j Delta_j)^2 I) of queries with L2
// sensitivities Delta_j on the same lot, scaling each by 1/(s_j Delta_j) turns the release into
// one vector query with noise N(0, I) and sensitivity sqrt(sum_j s_j^-2) (the changed example
// moves every f_j at most by Delta_j). That is the Gaussian mechanism with noise multiplier
//     s = (sum_j s_j^-2)^(-1/2)                                          (joint multiplier)
// — also under Poisson subsampling, because all k queries see the same lot (McMahan et al. 2018,
// "A general approach to adding differential privacy to iterative training procedures", §2).
// Two uses in dplab, both charged by the accountant as one subsampled Gaussian with s = nu:
// - OSO-DPSGD (Galli et al., Proposition 1): the clipped gradient sum (sensitivity C_t, multiplier
//   nu_g) and the sum of unit clipped-away directions (sensitivity 1, multiplier nu_q):
//       nu_g = (nu^-2 - nu_q^-2)^(-1/2);  the "1% rule" nu_g = 1.01 nu gives nu_q ~ 7.124 nu.
// - FixedQuantile (Andrew et al. 2021, "Differentially private learning with adaptive clipping",
//   Theorem 1): the clipped gradient sum (multiplier z_Delta) and the count of unclipped examples
//   with noise std sigma_b. Centred as sum_i (b_i - 1/2), the count has sensitivity 1/2, so its
//   multiplier is 2 sigma_b:   z_Delta = (z^-2 - (2 sigma_b)^-2)^(-1/2). The oracle releases
//   exactly that centred sum (NoisyGradientOracle::query_with_unclipped_count); the uncentred
//   count would have sensitivity 1 (multiplier sigma_b), and under Poisson lots |lot| is private,
//   so it could not be centred afterwards.
// Pure functions; each throws InvalidArgument naming the field when the split is impossible.
#pragma once

#include <span>

namespace dplab::privacy {

// (sum_j s_j^-2)^(-1/2) for multipliers s_j > 0 (+infinity entries contribute nothing).
double joint_noise_multiplier(std::span<const double> multipliers);

// RDP of the plain Gaussian mechanism with multiplier s at order alpha: alpha / (2 s^2)
// (Mironov 2017, Prop. 7). Composition over queries adds these.
double gaussian_rdp(double noise_multiplier, double order);

// nu_q for the 1% rule of Galli et al.: nu_g = (1 + increase) nu solved for nu_q,
// nu_q = nu / sqrt(1 - 1/(1 + increase)^2); increase = 0.01 gives 7.124 nu (to 4 digits).
double oso_direction_multiplier_for_increase(double noise_multiplier, double increase = 0.01);

// nu_g = (nu^-2 - nu_q^-2)^(-1/2); needs nu_q > nu > 0.
double oso_gradient_noise_multiplier(double noise_multiplier, double direction_multiplier);

// z_Delta = (z^-2 - (2 sigma_b)^-2)^(-1/2); needs 2 sigma_b > z > 0.
double quantile_gradient_noise_multiplier(double noise_multiplier, double count_noise_std);

}  // namespace dplab::privacy
