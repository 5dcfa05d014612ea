// Renyi DP of an ARBITRARY mechanism M run on a Poisson subsample (each record kept
// independently with probability q), from M's own RDP curve at integer orders (Zhu & Wang 2019,
// "Poisson Subsampled Renyi Differential Privacy", ICML, Theorem 6), add/remove-one adjacency:
//
//   for integer alpha >= 2, with M (l, eps(l))-RDP at every integer l = 2..alpha,
//   eps_{M o Poisson_q}(alpha) <= 1/(alpha-1) log{ (1-q)^{alpha-1} (alpha q - q + 1)
//        + C(alpha,2) q^2 (1-q)^{alpha-2} e^{eps(2)}
//        + c * sum_{l=3..alpha} C(alpha,l) q^l (1-q)^{alpha-l} e^{(l-1) eps(l)} },
//
//   c = 3 for a general mechanism (kGeneral: Thm 6; optimal up to log(3)/(alpha-1) by their
//   lower bound), c = 1 in kGaussianExact: the add-direction binomial expansion
//   E_{mu0}[((1-q) + q mu1/mu0)^alpha] with E[(mu1/mu0)^l] = e^{(l-1) eps(l)}, which Zhu & Wang
//   show is the exact subsampled RDP for the Gaussian mechanism; with eps(l) = l/(2 sigma^2) it IS
//   Mironov, Talwar & Zhang 2019's integer-order formula (rdp_subsampled_gaussian.h). Use
//   kGaussianExact only for curves of the Gaussian mechanism; kGeneral for anything else (e.g.
//   the RDP of a whole private hyperparameter search, Papernot & Steinke 2022).
//   At alpha = 2 the two coincide (the c-weighted sum is empty).
//
// Numerics (as rdp_subsampled_gaussian.cpp): the first two terms and the binomial weights of
// l = 0..alpha sum to 1, so we sum the all-non-negative series
//   A - 1 = sum_{l=2..alpha} C(alpha,l) q^l (1-q)^{alpha-l} (c_l e^{(l-1) eps(l)} - 1)
// in log space and return log1p(A - 1)/(alpha-1): accurate even when A - 1 is 1e-15.
// Every value is also capped by M's own eps(alpha): subsampling never increases the Renyi
// divergence (the pair of output laws is a mixture of pairs (q M(S+x) + (1-q) M(S), M(S)), and
// D_alpha is jointly quasi-convex, van Erven & Harremoes 2014 Thm 13); near q = 1 the factor 3
// makes the Zhu-Wang bound exceed eps(alpha), and the cap keeps the curve monotone in q.
// Special cases: q = 0 gives 0; q = 1 returns M's own curve. eps(l) = +inf gives +inf.
// Conservative direction: every value is an upper bound (kGeneral) or exact (kGaussianExact on
// a Gaussian curve). Pure, thread-safe; a curve up to order A costs O(A^2) operations.
#pragma once

#include <vector>

namespace dplab::privacy {

enum class SubsamplingBound { kGeneral, kGaussianExact };

// base_rdp[i] = eps(i + 2): M's RDP at the integer orders 2, 3, ..., base_rdp.size() + 1 (each
// >= 0, +inf allowed). Returns the subsampled curve at the same integer orders. q in [0, 1].
// Throws InvalidArgument naming the field for an empty curve, a negative or NaN value, or q
// outside [0, 1].
std::vector<double> poisson_subsampled_rdp(const std::vector<double>& base_rdp,
                                           double sampling_rate,
                                           SubsamplingBound bound = SubsamplingBound::kGeneral);

// The integer orders 2..max_order (ascending), the grid the curves above live on.
std::vector<double> integer_orders(int max_order);

// The values of a curve given on `orders` (ascending, > 1) at the integer orders 2..max_order;
// throws InvalidArgument if one of those integers is not in `orders`.
std::vector<double> rdp_at_integer_orders(const std::vector<double>& orders,
                                          const std::vector<double>& rdp, int max_order);

}  // namespace dplab::privacy
