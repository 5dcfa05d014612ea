// An ESTIMATE of epsilon from canary scores, never a bound: the Gaussian fit of Andrew, Kairouz,
// Oh, Oprea, McMahan & Suriyakumar, "One-shot empirical privacy estimation for federated
// learning" (ICLR 2024, section 3): model the scores of the included canaries and of the excluded
// ones as two Gaussians and report the epsilon of the Gaussian mechanism that would separate them
// that well.
//
// Here, with equal variances assumed (the pooled sample variance s^2 of both groups):
//     mu^  = (mean_in - mean_out) / s,
// the Gaussian-DP parameter of the fitted pair N(mean_out, s^2) vs N(mean_in, s^2) (Dong, Roth &
// Su 2022, Def. 2.6: mu-GDP = distinguishing N(0, 1) from N(mu, 1)), and
//     eps^(delta) = the epsilon of the Gaussian mechanism with sensitivity 1 and noise 1 / mu^
//                   at delta (Balle & Wang 2018, Thm 8; privacy/mechanisms/gaussian_mechanism.h),
// 0 when mu^ <= 0 and +infinity when the groups do not overlap at all (s = 0).
//
// Why it is not a bound: nothing guarantees the scores are Gaussian (the white-box all-iterates
// score is a log-likelihood ratio, skewed for included canaries), the fit has sampling error, and
// no confidence level is attached. It can sit above the accountant's epsilon. Every output of it
// says "estimate, not a bound".
//
// Pure and thread-safe.
#pragma once

#include <vector>

namespace dplab::audit {

struct GaussianFitEstimate {
  double mean_in = 0;     // mean score of the included canaries
  double mean_out = 0;    // mean score of the excluded canaries
  double pooled_std = 0;  // s
  double mu = 0;          // mu^ = (mean_in - mean_out) / s
  double epsilon = 0;     // eps^(delta): an ESTIMATE, not a bound
  static constexpr const char* kLabel = "estimate, not a bound";
};

// Throws InvalidArgument when sizes differ, a group has fewer than 2 canaries, delta is not in
// (0, 1) or a score is not finite.
GaussianFitEstimate gaussian_fit_estimate(const std::vector<double>& scores,
                                          const std::vector<bool>& included, double delta);

}  // namespace dplab::audit
