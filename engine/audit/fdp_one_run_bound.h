// The f-DP one-run bound: from the same membership guesses as the Steinke, Nasr & Jagielski bound
// (one_run_bound.h) to a LOWER bound on epsilon UNDER A SHAPE HYPOTHESIS — that the run's
// trade-off curve is Gaussian (Mahloujifar, Melis & Chaudhuri, "Auditing f-Differential Privacy
// in One Run", ICML 2025, arXiv 2410.22235; the abstention form of their guessing-game bound,
// the procedure the paper calls Audit_RH_with_cap).
//
// Sources as read: the paper's abstract and summaries, and the recursion as public implementations
// state it (JAX Privacy's epsilon_one_run_fdp, Meta PrivacyGuard's FDP analysis node; a third
// port calls it the paper's Algorithm 3); the paper's full text, hence its theorem and algorithm
// numbers, could not be read here. The implementation below is checked by reproducing JAX Privacy's
// published reference values to 1e-5 (tests/engine/test_fdp_one_run_bound.cpp).
//
// Trade-off curves (Dong, Roth & Su 2022): a run is f-DP w.r.t. a canary if every test of "out"
// vs "in" with false-positive rate alpha has false-negative rate >= f(alpha). The Gaussian curve
//     f_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu)                              (mu-GDP)
// is the trade-off of N(0, 1) vs N(mu, 1). Its "blow-up" fbar(x) = 1 - f_mu(x) = Phi(Phi^-1(x) +
// mu) is the most a test can catch at false-positive rate x, and its inverse
//     fbar^-1(y) = Phi(Phi^-1(y) - mu)
// the least false-positive rate that catches y. mu-GDP is (eps, delta)-DP exactly on the curve
// delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong et al., Cor. 2.13; it is the
// Gaussian mechanism with noise 1/mu, Balle & Wang 2018, Thm 8), so every (eps, delta) names one
// Gaussian curve: mu(eps, delta) = 1 / sigma, sigma = analytic_gaussian_noise_multiplier(eps,
// delta) (privacy/mechanisms/gaussian_mechanism.h).
//
// The test (Audit_RH_with_cap, k = 2 choices per canary: in or out). m canaries, r guesses (the
// rest abstain), v of them correct, significance tau. Start with
//     r_v = tau v / m,   h_v = tau (r - v) / m,
// and for i = v - 1 down to 0
//     h_i = max(h_{i+1}, (k - 1) fbar^-1(r_{i+1})),
//     r_i = r_{i+1} + i / (r - i) * (h_i - h_{i+1}).
// The paper's theorem: if the run is f-DP w.r.t. each canary and P[>= v of the r guesses are
// correct] >= tau, then r_0 + h_0 <= r / m. So r_0 + h_0 > r / m rejects "the run is mu-GDP" at
// level tau. (Reading of the recursion: r_i and h_i are the shares of correct and of wrong
// guesses, per canary, that f-DP forces on outcomes with about i correct; f-DP, canary by canary,
// demands at least fbar^-1(correct share) of wrong share, an outcome with i correct of r guesses
// carries i / (r - i) correct guesses per wrong one, and r guesses over m canaries cap the total
// at r / m.) Once h stops growing (h_i = h_{i+1}) nothing changes any more and the loop stops;
// r_i is capped at 1 (a share; past 1 the test rejects anyway, and fbar^-1 needs y <= 1).
//
// The reported bound: the largest eps (bisection to 1e-7, rounded down; the invariant
// rejected(lo), not rejected(hi) as in one_run_bound.h) such that the Gaussian curve meeting
// (eps, delta) is rejected at level tau = 1 - confidence. It is a statement about the Gaussian
// family only: "no mu-GDP guarantee with delta(eps) <= delta holds". DP-SGD's curve is close to
// Gaussian (exactly mu-GDP with full batches; with sampling, asymptotically so by Dong et al.'s
// central limit theorem for composition), which is why the hypothesis fits; a run whose curve has
// another shape is audited by the Steinke bound, which assumes nothing. Larger eps means a larger
// mu, a smaller fbar^-1 and a weaker test, so the rejected set is an interval [0, eps*) (checked
// numerically in the tests; the bisection relies on it, as JAX Privacy's root search does).
//
// In dplab the same pre-declared (k+, k-) guess sets and the same Bonferroni split as the Steinke
// bound apply (one_run_bound.h, best_bound_over_guess_sets: each set at tau = beta / K); the two
// bounds are two separate tests, each valid at 1 - beta on its own.
//
// Numerics: mu is 1/sigma times (1 + 1e-9) — sigma is returned rounded up to 1e-10 relative, so
// mu is never below the exact value (a larger mu is the harder curve to reject: the safe side).
// Phi^-1 is privacy/accounting/normal_quantile.h (~1e-15). All functions are pure and
// thread-safe.
#pragma once

#include "audit/one_run_bound.h"

namespace dplab::audit {

// mu of the Gaussian trade-off curve that is (eps, delta)-DP exactly (rounded up, see above).
// eps >= 0 (eps = 0 gives mu = 2 Phi^-1((1 + delta) / 2)), delta in (0, 1).
double gaussian_trade_off_mu(double epsilon, double delta);

// fbar^-1(y) = Phi(Phi^-1(y) - mu) for y in [0, 1].
double gaussian_blow_up_inverse(double y, double mu);

// r_0 + h_0 - r / m of the recursion for counts (m, r, v) against the mu-GDP curve at
// significance tau in (0, 1): > 0 rejects. Validates the counts as one_run_bound.h does.
double fdp_rejection_margin(const GuessCounts& counts, double mu, double significance);

// The largest eps (to 1e-7, rounded down) whose Gaussian curve is rejected at 1 - confidence;
// 0 when even eps = 0 is not. delta in (0, 1), confidence in (0, 1).
double fdp_epsilon_lower_bound(const GuessCounts& counts, double delta, double confidence);

// The f-DP bound if all r guesses were right (v = r): what this audit could show at most.
double fdp_ceiling(std::int64_t canaries, std::int64_t guesses, double delta, double confidence);

// The assumption behind the bound, for every output that prints it.
inline constexpr const char* kFdpAssumption =
    "f-DP (Gaussian trade-off shape; Mahloujifar et al. 2025)";

}  // namespace dplab::audit
