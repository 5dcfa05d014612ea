#include "audit/one_run_bound.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "audit/fdp_one_run_bound.h"
#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"

namespace dplab::audit {
namespace {

using privacy::detail::kNegInf;
using privacy::detail::log1p_exp;
using privacy::detail::log_add;

// Terms more than this many nats below the running log-sum change it by < e^-60 ~ 1e-26
// relative: far below the 1e-6 the bisection resolves.
constexpr double kNegligibleNats = 60.0;
// Bisection resolution on eps (the bound is rounded down to it) and the largest eps searched:
// with r <= 1e6 guesses the all-correct pure bound is logit(beta^(1/r)) < ln(r) + ln(1/ln(1/beta))
// ~ 14 for any beta >= 1e-300, so 1000 is never reached by a valid count.
constexpr double kEpsilonResolution = 1e-7;
constexpr double kEpsilonSearchCap = 1000.0;

double log_binomial_pmf(std::int64_t r, std::int64_t k, double log_q, double log_1mq) {
  const double rd = static_cast<double>(r), kd = static_cast<double>(k);
  const double log_choose = std::lgamma(rd + 1) - std::lgamma(kd + 1) - std::lgamma(rd - kd + 1);
  // 0 * log(0) terms are 0: k = 0 or k = r never multiplies an infinite log.
  const double success = k > 0 ? kd * log_q : 0.0;
  const double failure = k < r ? (rd - kd) * log_1mq : 0.0;
  return log_choose + success + failure;
}

// log p_delta(eps), uncapped.
double log_p_value(const GuessCounts& c, double epsilon, double delta) {
  // q = e^eps / (1 + e^eps): log q = -log(1 + e^-eps), log(1 - q) = -log(1 + e^eps).
  const double log_q = -log1p_exp(-epsilon);
  const double log_1mq = -log1p_exp(epsilon);
  const double log_beta = log_binomial_upper_tail(c.guesses, c.correct, log_q, log_1mq);
  if (delta <= 0) return log_beta;
  const double log_alpha = log_alpha_term(c.guesses, c.correct, log_q, log_1mq);
  return log_add(log_beta, std::log(2.0 * static_cast<double>(c.canaries) * delta) + log_alpha);
}

}  // namespace

void validate_guess_counts(const GuessCounts& c) {
  require_at_least("canaries", static_cast<double>(c.canaries), 1);
  require_at_least("guesses", static_cast<double>(c.guesses), 0);
  require_at_least("correct", static_cast<double>(c.correct), 0);
  if (c.guesses > c.canaries) {
    throw InvalidArgument("guesses = " + std::to_string(c.guesses) +
                          " must be <= canaries = " + std::to_string(c.canaries));
  }
  if (c.correct > c.guesses) {
    throw InvalidArgument("correct = " + std::to_string(c.correct) +
                          " must be <= guesses = " + std::to_string(c.guesses));
  }
}

double log_binomial_upper_tail(std::int64_t r, std::int64_t v, double log_q, double log_1mq) {
  if (v <= 0) return 0.0;
  if (v > r) return kNegInf;
  const double odds = log_q - log_1mq;  // log(q / (1 - q))
  double term = log_binomial_pmf(r, v, log_q, log_1mq);
  double sum = term;
  for (std::int64_t k = v; k < r; ++k) {
    // pmf(k + 1) / pmf(k) = (r - k) / (k + 1) * q / (1 - q); once below 1 it stays below 1.
    const double log_ratio =
        std::log(static_cast<double>(r - k) / static_cast<double>(k + 1)) + odds;
    term += log_ratio;
    sum = log_add(sum, term);
    if (log_ratio < 0 && term < sum - kNegligibleNats) break;
  }
  return sum;
}

double log_alpha_term(std::int64_t r, std::int64_t v, double log_q, double log_1mq) {
  if (v <= 0 || r <= 0) return kNegInf;
  const double odds = log_q - log_1mq;
  // Walk down from j = v - 1: S_i = sum_{j = v - i}^{v - 1} pmf(j), alpha = max_i S_i / i.
  double term = log_binomial_pmf(r, v - 1, log_q, log_1mq);
  double sum = kNegInf;
  double best = kNegInf;
  for (std::int64_t i = 1; i <= v; ++i) {
    const std::int64_t j = v - i;  // the term added at this i
    if (i > 1) {
      // pmf(j) / pmf(j + 1) = (j + 1) / (r - j) * (1 - q) / q.
      term += std::log(static_cast<double>(j + 1) / static_cast<double>(r - j)) - odds;
    }
    sum = log_add(sum, term);
    const double ratio = sum - std::log(static_cast<double>(i));
    best = std::max(best, ratio);
    // Below the mode the terms keep shrinking as j decreases; once the newest term is also below
    // the running mean S_i / i, every later mean is a weighted average of that mean and smaller
    // terms, so the maximum is already found.
    if (j > 0) {
      const double next_log_ratio =
          std::log(static_cast<double>(j) / static_cast<double>(r - j + 1)) - odds;
      if (next_log_ratio <= 0 && term < ratio) break;
    }
  }
  return best;
}

double one_run_p_value(const GuessCounts& counts, double epsilon, double delta) {
  validate_guess_counts(counts);
  require_non_negative("epsilon", epsilon);
  require_non_negative("delta", delta);
  return std::min(1.0, std::exp(log_p_value(counts, epsilon, delta)));
}

double one_run_epsilon_lower_bound(const GuessCounts& counts, double delta, double confidence) {
  validate_guess_counts(counts);
  require_non_negative("delta", delta);
  if (!(delta < 1)) fail_field("delta", delta, "must be < 1");
  require_open_interval("confidence", confidence, 0, 1);
  const double log_beta = std::log1p(-confidence);
  return largest_rejected_epsilon(
      [&](double eps) { return log_p_value(counts, eps, delta) < log_beta; });
}

double largest_rejected_epsilon(const std::function<bool(double)>& rejected) {
  if (!rejected(0.0)) return 0.0;
  double lo = 0.0, hi = 1.0;
  while (rejected(hi)) {
    lo = hi;
    if (hi >= kEpsilonSearchCap) return lo;
    hi = std::min(2 * hi, kEpsilonSearchCap);
  }
  // Invariant: rejected(lo), !rejected(hi).
  while (hi - lo > kEpsilonResolution) {
    const double mid = 0.5 * (lo + hi);
    (rejected(mid) ? lo : hi) = mid;
  }
  return lo;
}

double one_run_ceiling(std::int64_t canaries, std::int64_t guesses, double delta,
                       double confidence) {
  return one_run_epsilon_lower_bound({canaries, guesses, guesses}, delta, confidence);
}

double bonferroni_confidence(double confidence, int sets) {
  require_open_interval("confidence", confidence, 0, 1);
  if (sets < 1) fail_field("guess_sets", sets, "must be >= 1");
  return 1.0 - (1.0 - confidence) / static_cast<double>(sets);
}

AuditBound bound_of_counts(const GuessCounts& counts, double delta, double confidence,
                           int sets_tried) {
  const double split_confidence = bonferroni_confidence(confidence, sets_tried);
  AuditBound bound;
  bound.counts = counts;
  bound.epsilon_lower_bound = one_run_epsilon_lower_bound(counts, delta, split_confidence);
  bound.pure_epsilon_lower_bound = one_run_epsilon_lower_bound(counts, 0.0, split_confidence);
  bound.ceiling = one_run_ceiling(counts.canaries, counts.guesses, delta, split_confidence);
  bound.sets_tried = sets_tried;
  if (delta > 0) {
    bound.fdp =
        FdpAuditBound{{},
                      counts,
                      fdp_epsilon_lower_bound(counts, delta, split_confidence),
                      fdp_ceiling(counts.canaries, counts.guesses, delta, split_confidence)};
  }
  return bound;
}

std::vector<GuessSet> default_guess_sets(std::int64_t canaries) {
  require_at_least("canaries", static_cast<double>(canaries), 1);
  std::vector<GuessSet> sets;
  for (const double fraction : {0.01, 0.05, 0.10, 0.25}) {
    const auto k = std::max<std::int64_t>(
        1, static_cast<std::int64_t>(std::llround(fraction * static_cast<double>(canaries))));
    for (const GuessSet set : {GuessSet{k, 0}, GuessSet{k, k}}) {
      if (set.top_in + set.bottom_out > canaries) continue;
      const bool seen = std::any_of(sets.begin(), sets.end(), [&](const GuessSet& s) {
        return s.top_in == set.top_in && s.bottom_out == set.bottom_out;
      });
      if (!seen) sets.push_back(set);
    }
  }
  return sets;
}

AuditBound best_bound_over_guess_sets(const std::vector<double>& scores,
                                      const std::vector<bool>& included,
                                      const std::vector<GuessSet>& sets, double delta,
                                      double confidence) {
  if (scores.size() != included.size()) {
    throw InvalidArgument("scores (" + std::to_string(scores.size()) + ") and inclusions (" +
                          std::to_string(included.size()) + ") differ in length");
  }
  if (sets.empty()) throw InvalidArgument("the set of (k+, k-) guess sets is empty");
  require_open_interval("confidence", confidence, 0, 1);
  const auto m = static_cast<std::int64_t>(scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (!std::isfinite(scores[i]))
      throw InvalidArgument("canary score " + std::to_string(i) + " is not finite");
  }
  for (const GuessSet& s : sets) {
    if (s.top_in < 0 || s.bottom_out < 0 || s.top_in + s.bottom_out < 1 ||
        s.top_in + s.bottom_out > m) {
      throw InvalidArgument("guess set (k+ = " + std::to_string(s.top_in) +
                            ", k- = " + std::to_string(s.bottom_out) +
                            ") needs 1 <= k+ + k- <= m = " + std::to_string(m));
    }
  }
  // Highest score first; ties by index, so the order is a function of the scores alone.
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  // Bonferroni: each of the K pre-declared tests runs at level beta / K.
  const int k_sets = static_cast<int>(sets.size());
  const double split_confidence = bonferroni_confidence(confidence, k_sets);
  AuditBound best;
  // The f-DP bound: the same sets at the same beta / K, its own best set (fdp_one_run_bound.h).
  std::optional<FdpAuditBound> fdp;
  double fdp_top = 0;
  bool first = true;
  for (const GuessSet& s : sets) {
    const std::int64_t guesses = s.top_in + s.bottom_out;
    best.ceiling = std::max(best.ceiling, one_run_ceiling(m, guesses, delta, split_confidence));
    std::int64_t correct = 0;
    for (std::int64_t i = 0; i < s.top_in; ++i) correct += included[order[i]] ? 1 : 0;
    for (std::int64_t i = 0; i < s.bottom_out; ++i) correct += included[order[m - 1 - i]] ? 0 : 1;
    const GuessCounts counts{m, guesses, correct};
    const double bound = one_run_epsilon_lower_bound(counts, delta, split_confidence);
    if (first || bound > best.epsilon_lower_bound) {
      best.guess_set = s;
      best.counts = counts;
      best.epsilon_lower_bound = bound;
    }
    if (delta > 0) {
      const double fdp_bound = fdp_epsilon_lower_bound(counts, delta, split_confidence);
      fdp_top = std::max(fdp_top, fdp_ceiling(m, guesses, delta, split_confidence));
      if (first || fdp_bound > fdp->epsilon_lower_bound)
        fdp = FdpAuditBound{s, counts, fdp_bound, 0.0};
    }
    first = false;
  }
  if (fdp) fdp->ceiling = fdp_top;
  best.fdp = fdp;
  best.pure_epsilon_lower_bound = one_run_epsilon_lower_bound(best.counts, 0.0, split_confidence);
  best.sets_tried = k_sets;
  return best;
}

}  // namespace dplab::audit
