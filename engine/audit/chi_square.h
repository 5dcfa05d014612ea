// Pearson's chi-square goodness-of-fit test (Pearson 1900), used by the canary audit (Zhang,
// Mironov & Hejazinia, Table 2) and by dplab's sampler tests.
//   X^2 = sum_i (O_i - E_i)^2 / E_i  over B cells,   p-value = Pr[chi2(B - 1 - fitted) >= X^2]
//       = Q((B-1)/2, X^2/2), Q the regularised upper incomplete gamma function.
// The paper's "chi-squared distance" is X^2 / N (N observations): a 1,000-canary row of Table 2
// reads .007 (p = .63), and X^2 = 7 with 9 degrees of freedom (10 bins) gives p = 0.637.
// Q is evaluated by its power series for x < a + 1 and Lentz's continued fraction otherwise
// (Abramowitz & Stegun 6.5.29 and 6.5.31), to ~1e-14 relative. Pure, thread-safe.
#pragma once

#include <span>

namespace dplab::audit {

// Q(a, x) = Gamma(a, x) / Gamma(a); a > 0, x >= 0.
double regularized_upper_gamma(double a, double x);

// Pr[chi2(dof) >= statistic].
double chi_square_survival(double statistic, double degrees_of_freedom);

struct ChiSquareResult {
  double statistic = 0;  // X^2
  double distance = 0;   // X^2 / N
  double p_value = 1;
  int degrees_of_freedom = 0;
};

// Observed counts against expected probabilities (same length >= 2, probabilities > 0 summing
// to 1); dof = cells - 1.
ChiSquareResult chi_square_test(std::span<const double> observed,
                                std::span<const double> expected_probability);

}  // namespace dplab::audit
