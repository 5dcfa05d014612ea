#include "privacy/accounting/accountant_comparison.h"

#include <algorithm>
#include <cmath>

#include "core/validate.h"

namespace dplab::privacy {
namespace {

// Up to `points` distinct integers from first to last, geometric when last/first > 10.
std::vector<std::int64_t> spread(std::int64_t first, std::int64_t last, int points) {
  std::vector<std::int64_t> xs;
  if (points < 2 || first == last) return {last};
  const bool geometric = last > 10 * first;
  for (int i = 0; i < points; ++i) {
    const double f = static_cast<double>(i) / (points - 1);
    const double v = geometric ? std::exp(std::log(static_cast<double>(first)) * (1 - f) +
                                          std::log(static_cast<double>(last)) * f)
                               : static_cast<double>(first) + f * static_cast<double>(last - first);
    const auto x = std::clamp<std::int64_t>(std::llround(v), first, last);
    if (xs.empty() || x != xs.back()) xs.push_back(x);
  }
  return xs;
}

AccountantGapPoint point(const SubsampledGaussian& run, std::int64_t total_steps, std::int64_t x,
                         double delta, const PldOptions& pld) {
  SubsampledGaussian all = run;
  all.steps = total_steps;
  const auto p = pld_epsilon_for_delta(all, delta, pld);
  return {x, epsilon_for_delta(all, delta).epsilon, p.epsilon, p.error_bound};
}

}  // namespace

std::vector<AccountantGapPoint> accountant_gap_vs_steps(const SubsampledGaussian& run, double delta,
                                                        std::int64_t steps_first,
                                                        std::int64_t steps_last, int points,
                                                        const PldOptions& pld) {
  if (steps_first < 1) fail_field("steps_first", static_cast<double>(steps_first), "must be >= 1");
  if (steps_last < steps_first)
    fail_field("steps_last", static_cast<double>(steps_last), "must be >= steps_first");
  if (points < 1 || points > 1000) fail_field("points", points, "must be in [1, 1000]");
  std::vector<AccountantGapPoint> out;
  for (const auto t : spread(steps_first, steps_last, points))
    out.push_back(point(run, t, t, delta, pld));
  return out;
}

std::vector<AccountantGapPoint> accountant_gap_vs_candidates(const SubsampledGaussian& run,
                                                             double delta, int max_candidates,
                                                             int points, const PldOptions& pld) {
  if (max_candidates < 1) fail_field("max_candidates", max_candidates, "must be >= 1");
  if (points < 1 || points > 1000) fail_field("points", points, "must be in [1, 1000]");
  std::vector<AccountantGapPoint> out;
  for (const auto k : spread(1, max_candidates, points))
    out.push_back(point(run, k * run.steps, k, delta, pld));
  return out;
}

}  // namespace dplab::privacy
