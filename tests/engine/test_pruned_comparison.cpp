// Section 5.2 (pruned_comparison.h): the times-best pruning keeps exactly the candidates that
// were best at some evaluation point; the best-of-k draw matches its exact expectation
// (enumerated over all k-subsets and repeat choices) within its CI; separation and errors.
// Issue #31: the spread over repeats is the exact best-of-k of each repeat with a t-interval
// (not the draws' CI, which is near zero-width when the pool has at most k candidates); the
// pooled pruning keeps the union of the settings' kept (alpha, C); Student's t quantiles.
#include <QTest>

#include <cmath>
#include <vector>

#include "core/error.h"
#include "support/expect_error.h"
#include "support/test_registry.h"
#include "support/times_best_results.h"
#include "tuning/pruned_comparison.h"

using namespace dplab;
using namespace dplab::tuning;
using dplab::testing::error_of;

namespace {

// The accuracies and curves of support/times_best_results.h (candidates 0 and 2 times-best).
const std::vector<std::vector<double>>& kAcc = testing::kTimesBestAccuracies;
const std::vector<std::vector<double>>& kCurve = testing::kTimesBestCurves;

// E[max over a uniform k-subset of the pool, each member one uniform repeat], by enumeration.
double exact_best_of_k(const std::vector<std::vector<double>>& acc, const std::vector<int>& pool,
                       int k) {
  double total = 0;
  int cases = 0;
  const int n = static_cast<int>(pool.size());
  for (int mask = 0; mask < (1 << n); ++mask) {
    if (__builtin_popcount(static_cast<unsigned>(mask)) != k) continue;
    std::vector<int> members;
    for (int i = 0; i < n; ++i)
      if (mask & (1 << i)) members.push_back(pool[static_cast<std::size_t>(i)]);
    for (int repeats = 0; repeats < (1 << k); ++repeats) {  // 2 repeats each
      double best = -1;
      for (int i = 0; i < k; ++i)
        best = std::max(best, acc[static_cast<std::size_t>(members[static_cast<std::size_t>(i)])]
                                 [static_cast<std::size_t>((repeats >> i) & 1)]);
      total += best;
      ++cases;
    }
  }
  return total / cases;
}

// E[max of a uniform k-subset of `values`] by enumeration of the subsets.
double exact_best_of_k_values(const std::vector<double>& values, int k) {
  double total = 0;
  int cases = 0;
  const int n = static_cast<int>(values.size());
  for (int mask = 0; mask < (1 << n); ++mask) {
    if (__builtin_popcount(static_cast<unsigned>(mask)) != k) continue;
    double best = -1;
    for (int i = 0; i < n; ++i)
      if (mask & (1 << i)) best = std::max(best, values[static_cast<std::size_t>(i)]);
    total += best;
    ++cases;
  }
  return total / cases;
}

}  // namespace

class TestPrunedComparison : public QObject {
  Q_OBJECT

 private slots:
  void pruning_keeps_the_times_best_candidates() {
    const SearchResults results = testing::tiny_results_with_curves(kAcc, kCurve);
    const TimesBestPruning p = prune_by_times_best(results, 0);
    QCOMPARE(p.pool, (std::vector<int>{0, 1, 2, 3}));
    QCOMPARE(p.times_best, (std::vector<int>{2, 0, 3, 0}));
    QCOMPARE(p.kept, (std::vector<int>{0, 2}));
    QCOMPARE(p.eval_points, 5);
    QCOMPARE(prune_by_times_best(results, 0, 3).kept, (std::vector<int>{2}));
  }

  void best_of_k_matches_its_exact_expectation() {
    const SearchResults results = testing::tiny_results_with_curves(kAcc, kCurve);
    const std::vector<int> dpsgd = {0, 1, 2, 3};
    const int draws = 40000;
    for (int k : {1, 2, 3, 4}) {
      const BestOfKComparison c =
          compare_best_of_k(results, "dpsgd", dpsgd, k, "dpadam", {4}, 1, draws, 11);
      const double exact = exact_best_of_k(kAcc, dpsgd, k);
      const double se = c.a.sd / std::sqrt(static_cast<double>(draws));
      QVERIFY2(std::abs(c.a.mean - exact) < 4 * se,
               qPrintable(QString("k=%1 mean %2 exact %3").arg(k).arg(c.a.mean).arg(exact)));
      QCOMPARE(c.a.k, k);
      QVERIFY(std::abs(c.b.mean - exact_best_of_k(kAcc, {4}, 1)) < 4 * c.b.sd / std::sqrt(draws));
      QVERIFY(c.a.ci_low < c.a.mean && c.a.mean < c.a.ci_high);
      QCOMPARE(c.difference, c.a.mean - c.b.mean);
    }
    // k larger than the pool: every candidate, i.e. the best of one repeat each.
    QCOMPARE(compare_best_of_k(results, "a", {0, 2}, 4, "b", {4}, 1, 10, 1).a.k, 2);
    // Seeded: the same seed gives the same numbers.
    QCOMPARE(compare_best_of_k(results, "a", dpsgd, 2, "b", {4}, 1, 100, 5).a.mean,
             compare_best_of_k(results, "a", dpsgd, 2, "b", {4}, 1, 100, 5).a.mean);
  }

  void separation() {
    std::vector<std::vector<double>> acc(5, {0.5, 0.5});
    acc[4] = {0.9, 0.9};
    const SearchResults results = testing::tiny_results_with_curves(acc, kCurve);
    const auto far = compare_best_of_k(results, "dpadam", {4}, 1, "dpsgd", {0, 1, 2, 3}, 4, 50, 3);
    QVERIFY(far.separated);
    QVERIFY(std::abs(far.difference - 0.4) < 1e-12);
    const auto same = compare_best_of_k(results, "x", {0, 1}, 1, "y", {2, 3}, 1, 50, 3);
    QVERIFY(!same.separated);
  }

  void repeat_spread_is_the_exact_best_of_k_of_each_repeat() {
    const SearchResults results = testing::tiny_results_with_curves(kAcc, kCurve);
    const std::vector<int> dpsgd = {0, 1, 2, 3};
    for (int k : {1, 2, 3, 4}) {
      const RepeatSpread s = repeat_spread(results, dpsgd, k);
      QCOMPARE(s.per_repeat.size(), std::size_t{2});
      double sum = 0;
      for (std::size_t r = 0; r < 2; ++r) {
        std::vector<double> values;
        for (int c : dpsgd) values.push_back(kAcc[static_cast<std::size_t>(c)][r]);
        // Closed form vs enumeration: two code paths, so a tolerance (1e-12).
        QVERIFY(std::abs(s.per_repeat[r] - exact_best_of_k_values(values, k)) < 1e-12);
        sum += s.per_repeat[r];
      }
      QVERIFY(std::abs(s.mean - sum / 2) < 1e-12);
      // Two repeats: t_{0.975, 1} = 12.706 times sd / sqrt(2), sd = |x_0 - x_1| / sqrt(2).
      const double half = 12.7062047 * std::abs(s.per_repeat[0] - s.per_repeat[1]) / 2;
      QVERIFY(std::abs((s.ci_high - s.ci_low) / 2 - half) < 1e-9);
      QCOMPARE(s.min, std::min(s.per_repeat[0], s.per_repeat[1]));
      QCOMPARE(s.max, std::max(s.per_repeat[0], s.per_repeat[1]));
    }
    // k = 4 over a pool of 4: repeat 0's max is 0.90 (candidate 2), repeat 1's 0.80.
    const RepeatSpread all = repeat_spread(results, dpsgd, 4);
    QCOMPARE(all.per_repeat, (std::vector<double>{0.90, 0.80}));
  }

  // The zero-width CI: a pool of at most k candidates, every draw takes all of them, so
  // the draws only re-sample the repeats; with many draws their CI is much narrower than the
  // spread of the repeats (here 0.90 vs 0.80 for the best of {0, 2}).
  void draw_ci_is_narrow_where_the_repeat_interval_is_not() {
    const SearchResults results = testing::tiny_results_with_curves(kAcc, kCurve);
    const auto drawn = compare_best_of_k(results, "a", {0, 2}, 4, "b", {4}, 1, 10000, 7);
    const RepeatSpread spread = repeat_spread(results, {0, 2}, 4);
    QVERIFY(drawn.a.ci_high - drawn.a.ci_low < 0.005);
    QVERIFY(spread.ci_high - spread.ci_low > 0.5);  // 12.7 x 0.05 x 2
    // One repeat: no interval.
    SearchResults one = testing::tiny_results_with_curves(kAcc, kCurve);
    one.config.repeats = 1;
    std::vector<JobResult> first;
    for (const auto& job : one.jobs)
      if (job.repeat == 0) first.push_back(job);
    one.jobs = first;
    const RepeatSpread single = repeat_spread(one, {0, 2}, 4);
    QCOMPARE(single.per_repeat.size(), std::size_t{1});
    QVERIFY(std::isnan(single.ci_low) && std::isnan(single.ci_high));
  }

  void student_t_quantiles() {
    // Reference values of t_{0.975, df} (R's qt(0.975, df)).
    const std::pair<int, double> reference[] = {{1, 12.7062047}, {2, 4.3026527},  {3, 3.1824463},
                                                {10, 2.2281389}, {30, 2.0422725}, {31, 2.0395134},
                                                {40, 2.0210754}, {60, 2.0002978}, {120, 1.9799304}};
    for (const auto& [df, t] : reference)
      QVERIFY2(std::abs(student_t_975(df) - t) < 1e-5, qPrintable(QString::number(df)));
    QVERIFY(error_of<InvalidArgument>([] { student_t_975(0); }).contains("df = 0"));
  }

  // Two settings of the same (alpha, C) grid with different winners: the pooled pool keeps the
  // union of their kept cells, the pooled score is the sum, the total the sum of the totals.
  void pooled_pruning_keeps_the_union() {
    const SearchResults a =
        testing::tiny_results_with_curves(kAcc, kCurve);  // kept: candidates 0 and 2
    const std::vector<std::vector<double>> other_curve = {{0.1, 0.1, 0.1, 0.1, 0.1},
                                                          {0.9, 0.9, 0.9, 0.9, 0.2},
                                                          {0.1, 0.1, 0.1, 0.1, 0.1},
                                                          {0.1, 0.1, 0.1, 0.1, 0.8},
                                                          {0.5, 0.5, 0.5, 0.5, 0.5}};
    const SearchResults b =
        testing::tiny_results_with_curves(kAcc, other_curve);  // kept: candidates 1 and 3
    const PruningScores sa = pruning_scores(a, 0, "A");
    const PruningScores sb = pruning_scores(b, 0, "B");
    QCOMPARE(sb.times_best, (std::vector<int>{0, 4, 0, 1}));
    QCOMPARE(sa.eval_points, 5);
    const PooledPruning only_a = prune_pooled(a, 0, {sa});
    QCOMPARE(only_a.kept, prune_by_times_best(a, 0).kept);  // one setting: the unpooled pruning
    const PooledPruning pooled = prune_pooled(a, 0, {sa, sb});
    QCOMPARE(pooled.kept, (std::vector<int>{0, 1, 2, 3}));
    QCOMPARE(pooled.pooled_score, (std::vector<int>{2, 4, 3, 1}));
    QCOMPARE(pooled.score_total, 10);
    QCOMPARE(pooled.setting_scores.size(), std::size_t{2});
    QCOMPARE(pooled.setting_scores[1], sb.times_best);
    QCOMPARE(pooled.settings, (std::vector<std::string>{"A", "B"}));
    // A higher threshold on the pooled score: only cells with >= 3 points.
    QCOMPARE(prune_pooled(a, 0, {sa, sb}, 3).kept, (std::vector<int>{1, 2}));
    QVERIFY(error_of<InvalidArgument>([&] { prune_pooled(a, 0, {}); }).contains("setting"));
  }

  void errors() {
    SearchResults results = testing::tiny_results_with_curves(kAcc, kCurve);
    QVERIFY(error_of<InvalidArgument>([&] {
              compare_best_of_k(results, "a", {0}, 1, "b", {1}, 1, 1, 0);
            }).contains("draws"));
    QVERIFY(error_of<InvalidArgument>([&] {
              compare_best_of_k(results, "a", {0}, 0, "b", {1}, 1, 10, 0);
            }).contains("k = 0"));
    for (auto& job : results.jobs)
      if (job.candidate == 1) job.status = JobStatus::kFailed;
    QVERIFY(error_of<InvalidArgument>([&] {
              compare_best_of_k(results, "a", {1}, 1, "b", {0}, 1, 10, 0);
            }).contains("no finished run"));
    results.is_regression = true;
    QVERIFY(error_of<InvalidArgument>([&] {
              prune_by_times_best(results, 0);
            }).contains("classification"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestPrunedComparison)
#include "test_pruned_comparison.moc"
