// Composition of (epsilon, delta)-DP mechanisms (adaptive, k-fold).
//
// - Basic (Dwork et al. 2006; main paper appendix A): (sum eps_i, sum delta_i).
// - Advanced, Dwork, Rothblum & Vadhan 2010 (Thm III.3): k-fold (eps, delta) is
//   (eps sqrt(2k ln(1/delta')) + k eps (e^eps - 1), k delta + delta')-DP.
// - Advanced, Kairouz, Oh & Viswanath 2015 (Thm 3.4, homogeneous closed form): with slack delta',
//   eps_total = min{ k eps,
//                    k eps (e^eps - 1)/(e^eps + 1) + eps sqrt(2k ln(e + sqrt(k eps^2)/delta')),
//                    k eps (e^eps - 1)/(e^eps + 1) + eps sqrt(2k ln(1/delta')) },
//   delta_total = 1 - (1 - delta)^k (1 - delta').
// - OPTIMAL, Kairouz, Oh & Viswanath 2015 (Thm 3.3): k-fold composition of (eps, delta)-DP
//   mechanisms is dominated by k-fold randomized response, so it is (eps', delta_total)-DP with
//   delta_total = 1 - (1 - delta)^k (1 - delta_rr(eps')),
//   delta_rr(eps') = (1 + e^eps)^{-k} sum_{l=0..k} C(k,l) max(0, e^{(k-l) eps} - e^{eps'} e^{l
//   eps}), exact (no mechanism class bound is smaller); evaluated in log space.
// Conservative direction: every function returns a guarantee that holds; the optimal epsilon is
// found by bisection rounded UP (1e-10 relative). Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <span>

namespace dplab::privacy {

struct PrivacyGuarantee {
  double epsilon = 0.0;
  double delta = 0.0;
};

PrivacyGuarantee basic_composition(std::span<const PrivacyGuarantee> mechanisms);
PrivacyGuarantee basic_composition(PrivacyGuarantee each, std::int64_t k);

// DRV10 advanced composition; delta_slack in (0, 1).
PrivacyGuarantee advanced_composition_drv(PrivacyGuarantee each, std::int64_t k,
                                          double delta_slack);

// KOV15 Theorem 3.4 closed form; delta_slack in (0, 1).
PrivacyGuarantee advanced_composition_kov(PrivacyGuarantee each, std::int64_t k,
                                          double delta_slack);

// KOV15 Theorem 3.3: the exact delta_total of k-fold composition at epsilon_total >= 0.
double optimal_composition_delta(PrivacyGuarantee each, std::int64_t k, double epsilon_total);

// KOV15 Theorem 3.3: the smallest epsilon_total with optimal_composition_delta <= delta_total
// (rounded up). Throws InvalidArgument if delta_total < 1 - (1 - delta)^k (unreachable).
PrivacyGuarantee optimal_composition(PrivacyGuarantee each, std::int64_t k, double delta_total);

}  // namespace dplab::privacy
