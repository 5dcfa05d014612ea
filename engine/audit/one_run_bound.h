// One-run privacy audit: from the count of correct membership guesses on m canaries to a
// statistically valid LOWER bound on epsilon (Steinke, Nasr & Jagielski, "Privacy auditing with
// one (1) training run", NeurIPS 2023, arXiv 2305.08846).
//
// Game (paper section 3, Algorithm 1): each of m canaries is included independently with
// probability 1/2 (S_i in {-1, +1}); after ONE run the auditor guesses T_i in {-1, 0, +1} (0 =
// abstain), r = #{T_i != 0} guesses, W = #{T_i = S_i} correct.
//
// Pure DP (paper Theorem 3.1, the main theorem with delta = 0): if the run is epsilon-DP w.r.t.
// the canaries, W is stochastically dominated by Binomial(r, q), q = e^eps / (1 + e^eps) (the
// accuracy of epsilon-randomised response). So
//     p_0(eps) = P[Binomial(r, q(eps)) >= v]
// is a p-value for "the run is eps-DP" given v correct guesses.
//
// Approximate DP (paper Theorem 3.1 with delta > 0; its appendix computes the bound recursively,
// and its published code — cross-checked against JAX Privacy's `_one_run_p_value` — uses the
// closed form below, which upper-bounds the recursion):
//     p_delta(eps) = p_0(eps) + 2 m delta * alpha(eps),
//     alpha(eps)   = max_{1 <= i <= v} P[v - i <= Binomial(r, q) < v] / i.
// Since alpha >= 0, p_delta >= p_0: the (eps, delta) bound is never above the pure one.
//
// The lower bound at confidence 1 - beta is the largest eps with p(eps) < beta (bisection to
// 1e-6 on the safe side: the returned eps always has p(eps) < beta). p_0 increases with eps, so
// the set {eps : p_0(eps) < beta} is an interval [0, eps*); the bisection keeps the invariant
// p(lo) < beta <= p(hi) for delta > 0 too.
//
// Numerics: all probabilities are held as logarithms; binomial terms come from lgamma once and a
// ratio recurrence after that; tails are log-sum-exp sums that stop once terms fall 60 nats below
// the running sum (e^-60 ~ 1e-26 relative). No underflow for r up to 1e6 (tested).
//
// Choosing (k+, k-) after seeing the scores must be paid for: best_bound_over_guess_sets()
// splits beta evenly over a PRE-DECLARED set of K (k+, k-) pairs (Bonferroni, beta / K each).
//
// All functions are pure and thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace dplab::audit {

struct GuessCounts {
  std::int64_t canaries = 0;  // m
  std::int64_t guesses = 0;   // r = k+ + k-
  std::int64_t correct = 0;   // v
};

// log P[Binomial(r, q) >= v] with log q and log(1 - q) given (so q near 0 or 1 loses nothing).
double log_binomial_upper_tail(std::int64_t r, std::int64_t v, double log_q, double log_1mq);

// log alpha(eps) of the (eps, delta) p-value (see above); -inf when v = 0.
double log_alpha_term(std::int64_t r, std::int64_t v, double log_q, double log_1mq);

// Throws InvalidArgument naming the field unless 1 <= m, 0 <= v <= r <= m.
void validate_guess_counts(const GuessCounts& counts);

// The largest eps (bisection to 1e-7, rounded down; searched up to 1000) with rejected(eps), for
// a test whose rejected set is an interval [0, eps*); 0 when rejected(0) is false. The search of
// every one-run bound (this one and fdp_one_run_bound.h).
double largest_rejected_epsilon(const std::function<bool(double)>& rejected);

// p_delta(eps), capped at 1; delta = 0 gives the pure p-value. Validates the counts
// (0 <= v <= r <= m) and throws InvalidArgument naming the field.
double one_run_p_value(const GuessCounts& counts, double epsilon, double delta);

// The largest eps (to 1e-6, rounded down) with p_delta(eps) < beta = 1 - confidence; 0 when even
// eps = 0 is not rejected. confidence in (0, 1), delta in [0, 1).
double one_run_epsilon_lower_bound(const GuessCounts& counts, double delta, double confidence);

// The bound if all r guesses were right (v = r): what one run with r guesses can show at most.
// Pure DP: closed form logit(beta^(1/r)), ~ ln(r / ln(1/beta)) ~ ln(r/3) at 95 %.
double one_run_ceiling(std::int64_t canaries, std::int64_t guesses, double delta,
                       double confidence);

// Bonferroni: the confidence 1 - beta / K at which each of K pre-declared tests runs so that the
// best of them holds at 1 - beta. K >= 1 (InvalidArgument naming "guess_sets" otherwise).
double bonferroni_confidence(double confidence, int sets);

// A pre-declared guess set: the k+ highest scores guessed "in", the k- lowest "out".
struct GuessSet {
  std::int64_t top_in = 0;      // k+
  std::int64_t bottom_out = 0;  // k-
};

// The default pre-declared set for m canaries, fixed before any score is seen: k in
// {1 %, 5 %, 10 %, 25 %} of m (at least 1), each as (k, 0) and (k, k); duplicates removed.
std::vector<GuessSet> default_guess_sets(std::int64_t canaries);

// The f-DP bound (fdp_one_run_bound.h) over the same pre-declared sets and Bonferroni split: a
// lower bound under the hypothesis that the run's trade-off curve is Gaussian.
struct FdpAuditBound {
  GuessSet guess_set;              // the (k+, k-) that gave the best f-DP bound
  GuessCounts counts;              // its (m, r, v)
  double epsilon_lower_bound = 0;  // at beta / K
  double ceiling = 0;              // the largest f-DP bound with every guess right, over the sets
};

struct AuditBound {
  GuessSet guess_set;                   // the (k+, k-) that gave the best bound
  GuessCounts counts;                   // its (m, r, v)
  double epsilon_lower_bound = 0;       // (eps, delta) bound at beta / K
  double pure_epsilon_lower_bound = 0;  // delta = 0 bound at beta / K
  // What this audit could show at most: the largest (eps, delta) bound with every guess right
  // (v = r) over the pre-declared sets, at beta / K. Not the chosen set's own ceiling: when no set
  // shows anything, the chosen set is merely the first and its ceiling would understate what the
  // audit was able to detect.
  double ceiling = 0;
  int sets_tried = 0;  // K, the Bonferroni divisor
  // The f-DP bound on the same guesses; none when delta = 0 (no Gaussian curve is (eps, 0)-DP).
  std::optional<FdpAuditBound> fdp;
};

// Guesses from scores (higher = "more likely included") and the true inclusions; for every set
// in `sets` counts the correct guesses and computes the bound at confidence 1 - beta / K; returns
// the set with the largest (eps, delta) bound. Ties in scores are broken by index (lower first).
// Throws InvalidArgument if sizes differ, a set asks for more guesses than canaries, or `sets` is
// empty.
// The bound of counts (m, r, v) already taken, as the chosen one of `sets_tried` pre-declared
// guess sets (each at bonferroni_confidence(confidence, sets_tried), as
// best_bound_over_guess_sets): its (eps, delta) and pure-DP lower bounds and the ceiling of its r
// guesses (with one set, what this audit could show at most), and the same three for the f-DP
// bound when delta > 0. guess_set stays {0, 0}: only the counts are known.
AuditBound bound_of_counts(const GuessCounts& counts, double delta, double confidence,
                           int sets_tried = 1);

AuditBound best_bound_over_guess_sets(const std::vector<double>& scores,
                                      const std::vector<bool>& included,
                                      const std::vector<GuessSet>& sets, double delta,
                                      double confidence);

}  // namespace dplab::audit
