// Section 5.2 (pruned_comparison.h): the times-best pruning keeps exactly the candidates that
// were best at some evaluation point; the best-of-k draw matches its exact expectation
// (enumerated over all k-subsets and repeat choices) within its CI; separation and errors.
#include <QTest>

#include <cmath>
#include <vector>

#include "core/error.h"
#include "support/expect_error.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/pruned_comparison.h"

using namespace dplab;
using namespace dplab::tuning;
using dplab::testing::error_of;

namespace {

// The tiny experiment (4 DPSGD candidates, 1 DPAdam, 2 repeats) with final accuracies
// acc[c][r] and curves at iterations 10..50 whose accuracy is curve[c][point] for both repeats.
SearchResults make_results(const std::vector<std::vector<double>>& acc,
                           const std::vector<std::vector<double>>& curve) {
  SearchResults results;
  results.config = testing::tiny_experiment();
  results.candidates = experiment::expand_candidates(results.config);
  for (std::size_t c = 0; c < results.candidates.size(); ++c) {
    for (int r = 0; r < results.config.repeats; ++r) {
      JobResult job;
      job.candidate = static_cast<int>(c);
      job.repeat = r;
      job.status = JobStatus::kFinished;
      job.final_val_accuracy = acc[c][static_cast<std::size_t>(r)];
      for (std::size_t p = 0; p < curve[c].size(); ++p) {
        training::CurvePoint point;
        point.iteration = static_cast<std::int64_t>(10 * (p + 1));
        point.val_accuracy = curve[c][p];
        job.curve.push_back(point);
      }
      results.jobs.push_back(job);
    }
  }
  return results;
}

const std::vector<std::vector<double>> kAcc = {
    {0.70, 0.80}, {0.60, 0.65}, {0.90, 0.75}, {0.50, 0.55}, {0.85, 0.86}};
const std::vector<std::vector<double>> kCurve = {{0.9, 0.9, 0.1, 0.1, 0.1},
                                                 {0.2, 0.2, 0.2, 0.2, 0.2},
                                                 {0.1, 0.1, 0.9, 0.9, 0.9},
                                                 {0.3, 0.3, 0.3, 0.3, 0.3},
                                                 {0.5, 0.5, 0.5, 0.5, 0.5}};

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

}  // namespace

class TestPrunedComparison : public QObject {
  Q_OBJECT

 private slots:
  void pruning_keeps_the_times_best_candidates() {
    const SearchResults results = make_results(kAcc, kCurve);
    const TimesBestPruning p = prune_by_times_best(results, 0);
    QCOMPARE(p.pool, (std::vector<int>{0, 1, 2, 3}));
    QCOMPARE(p.times_best, (std::vector<int>{2, 0, 3, 0}));
    QCOMPARE(p.kept, (std::vector<int>{0, 2}));
    QCOMPARE(p.eval_points, 5);
    QCOMPARE(prune_by_times_best(results, 0, 3).kept, (std::vector<int>{2}));
  }

  void best_of_k_matches_its_exact_expectation() {
    const SearchResults results = make_results(kAcc, kCurve);
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
    const SearchResults results = make_results(acc, kCurve);
    const auto far = compare_best_of_k(results, "dpadam", {4}, 1, "dpsgd", {0, 1, 2, 3}, 4, 50, 3);
    QVERIFY(far.separated);
    QVERIFY(std::abs(far.difference - 0.4) < 1e-12);
    const auto same = compare_best_of_k(results, "x", {0, 1}, 1, "y", {2, 3}, 1, 50, 3);
    QVERIFY(!same.separated);
  }

  void errors() {
    SearchResults results = make_results(kAcc, kCurve);
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
