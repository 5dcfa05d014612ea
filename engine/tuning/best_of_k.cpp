// Exact best-of-k moments by the top-down ratio recurrence (see best_of_k.h).
#include "tuning/best_of_k.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "core/error.h"

namespace dplab::tuning {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// P(max rank <= i) below this: the ranks under i are skipped (their finite part is < 1e-18 of
// the largest |value|, well under the 1.1e-16 rounding of the sum).
constexpr double kTailMass = 1e-18;

// The metrics sorted by score, with prefix counts of non-finite metrics (index i counts ranks
// 1..i), so a skipped range's non-finite part is found in O(1).
struct SortedPool {
  std::vector<double> metric;  // rank i (1-based) at metric[i - 1]
  std::vector<int> nan, pos_inf, neg_inf;
};

SortedPool sort_pool(std::vector<ScoredValue> values) {
  for (auto& v : values) {
    if (std::isnan(v.score)) v.score = -kInf;  // never better than anything; keeps the order strict
  }
  std::stable_sort(values.begin(), values.end(),
                   [](const ScoredValue& a, const ScoredValue& b) { return a.score < b.score; });
  SortedPool p;
  p.nan.assign(values.size() + 1, 0);
  p.pos_inf = p.neg_inf = p.nan;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i].metric;
    p.metric.push_back(v);
    p.nan[i + 1] = p.nan[i] + (std::isnan(v) ? 1 : 0);
    p.pos_inf[i + 1] = p.pos_inf[i] + (v == kInf ? 1 : 0);
    p.neg_inf[i + 1] = p.neg_inf[i] + (v == -kInf ? 1 : 0);
  }
  return p;
}

// What ranks lo..hi (1-based, inclusive, lo <= hi) contribute when each has a weight > 0 that
// is too small to matter for a finite value: 0, +-inf or NaN.
double non_finite_part(const SortedPool& p, int lo, int hi) {
  const auto count = [&](const std::vector<int>& prefix) {
    return prefix[static_cast<std::size_t>(hi)] - prefix[static_cast<std::size_t>(lo - 1)];
  };
  const int nans = count(p.nan), pos = count(p.pos_inf), neg = count(p.neg_inf);
  if (nans > 0 || (pos > 0 && neg > 0)) return kNaN;
  if (pos > 0) return kInf;
  if (neg > 0) return -kInf;
  return 0.0;
}

// Calls f(weight, value) for the ranks i = m down to the truncation point (w_k(i) > 0 each) and
// returns what the skipped ranks k..i_stop add (non_finite_part; 0 when none were skipped).
template <class F>
double walk_weights(const SortedPool& p, int k, F&& f) {
  const int m = static_cast<int>(p.metric.size());
  double weight = static_cast<double>(k) / m;  // w_k(m) = C(m - 1, k - 1) / C(m, k)
  double below = 1.0;                          // P(max rank <= i)
  for (int i = m; i >= k; --i) {
    f(weight, p.metric[static_cast<std::size_t>(i - 1)]);
    if (i == k) break;
    below *= static_cast<double>(i - k) / i;  // P(max rank <= i - 1)
    if (below < kTailMass) return non_finite_part(p, k, i - 1);
    weight *= static_cast<double>(i - k) / (i - 1);  // w_k(i - 1)
  }
  return 0.0;
}

BestOfKMoments moments(const SortedPool& p, int k) {
  BestOfKMoments out;
  out.k = k;
  const double rest = walk_weights(p, k, [&](double w, double v) { out.mean += w * v; });
  out.mean += rest;
  if (!std::isfinite(out.mean)) {
    out.variance = kNaN;
    return out;
  }
  (void)walk_weights(
      p, k, [&](double w, double v) { out.variance += w * (v - out.mean) * (v - out.mean); });
  return out;
}

}  // namespace

double BestOfKMoments::sd() const {
  return std::sqrt(variance);
}

std::vector<BestOfKMoments> best_of_k_moments(std::vector<ScoredValue> values) {
  const SortedPool pool = sort_pool(std::move(values));
  std::vector<BestOfKMoments> out;
  out.reserve(pool.metric.size());
  for (int k = 1; k <= static_cast<int>(pool.metric.size()); ++k) out.push_back(moments(pool, k));
  return out;
}

double expected_best_of_k(const std::vector<double>& values, int k) {
  if (k < 1 || k > static_cast<int>(values.size())) {
    throw InvalidArgument("best of k: k = " + std::to_string(k) + " must be in 1.." +
                          std::to_string(values.size()));
  }
  std::vector<ScoredValue> scored;
  scored.reserve(values.size());
  for (const double v : values) scored.push_back({v, v});
  return moments(sort_pool(std::move(scored)), k).mean;
}

}  // namespace dplab::tuning
