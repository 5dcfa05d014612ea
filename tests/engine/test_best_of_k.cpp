// Issue #45 item 1: the section 5.2 "best of k random candidates" table is the EXACT expectation
// E[best of k] = sum_i s_(i) C(i-1, k-1) / C(K, k) (tuning/best_of_k.h), computed for every k in
// O(K log K): it equals a brute-force enumeration of every k-subset on small pools (with ties,
// diverged = worst scores), stays finite and exact where 1 / C(K, k) underflows a double, and
// 20,000 candidates take well under a second (the Monte-Carlo it replaces took 143 s).
#include <QTest>

#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "core/random.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/best_of_k.h"
#include "tuning/honest_selection.h"
#include "tuning/pruned_comparison.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

// Mean and variance of the chosen metric over every k-subset (ties: the earliest index in the
// subset, as any order gives the same metric when equal scores have equal metrics).
std::pair<double, double> brute_force(const std::vector<ScoredValue>& v, int k) {
  const int m = static_cast<int>(v.size());
  std::vector<double> chosen;
  std::vector<int> pick;
  std::function<void(int)> walk = [&](int from) {
    if (static_cast<int>(pick.size()) == k) {
      int best = pick[0];
      for (int i : pick) {
        if (v[static_cast<std::size_t>(i)].score > v[static_cast<std::size_t>(best)].score)
          best = i;
      }
      chosen.push_back(v[static_cast<std::size_t>(best)].metric);
      return;
    }
    for (int i = from; i < m; ++i) {
      pick.push_back(i);
      walk(i + 1);
      pick.pop_back();
    }
  };
  walk(0);
  const auto count = static_cast<double>(chosen.size());
  double mean = 0, variance = 0;
  for (double x : chosen) mean += x / count;
  for (double x : chosen) variance += (x - mean) * (x - mean) / count;
  return {mean, variance};
}

// A classification search of `n` candidates (one optimizer, one repeat) with these accuracies.
SearchResults search_with(const std::vector<double>& accuracy) {
  SearchResults res;
  res.config = testing::tiny_experiment(50, 1);
  res.config.repeats = 1;
  for (std::size_t c = 0; c < accuracy.size(); ++c) {
    experiment::Candidate cand;
    cand.index = static_cast<int>(c);
    res.candidates.push_back(cand);
    JobResult job;
    job.candidate = static_cast<int>(c);
    job.status = JobStatus::kFinished;
    job.final_val_accuracy = accuracy[c];
    job.final_train_loss = 1 - accuracy[c];
    res.jobs.push_back(job);
  }
  return res;
}

}  // namespace

class TestBestOfK : public QObject {
  Q_OBJECT
 private slots:
  void equals_brute_force_enumeration() {
    Rng rng(7);
    for (int m = 1; m <= 11; ++m) {
      std::vector<ScoredValue> values;
      for (int i = 0; i < m; ++i) {
        // Scores on a coarse grid so ties happen; metric = score, as accuracy is.
        const double s = static_cast<double>(rng.below(6)) / 5.0;
        values.push_back({s, s});
      }
      const auto exact = best_of_k_moments(values);
      QCOMPARE(static_cast<int>(exact.size()), m);
      for (int k = 1; k <= m; ++k) {
        const auto [mean, variance] = brute_force(values, k);
        QCOMPARE(exact[static_cast<std::size_t>(k - 1)].k, k);
        DPLAB_COMPARE_ABS(exact[static_cast<std::size_t>(k - 1)].mean, mean, 1e-12);
        DPLAB_COMPARE_ABS(exact[static_cast<std::size_t>(k - 1)].variance, variance, 1e-12);
        DPLAB_COMPARE_ABS(expected_best_of_k(
                              [&] {
                                std::vector<double> plain;
                                for (const auto& v : values) plain.push_back(v.score);
                                return plain;
                              }(),
                              k),
                          mean, 1e-12);
      }
    }
  }

  void regression_metrics_lower_is_better_and_diverged_is_worst() {
    // score = -metric (validation MSE); a diverged run scores -inf with metric +inf: it is chosen
    // only when it is the whole draw, i.e. k = 1 (weight 1/m > 0), whose mean is then +inf;
    // every k >= 2 always draws a better one.
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<ScoredValue> values{{-0.5, 0.5}, {-0.2, 0.2}, {-inf, inf}, {-0.9, 0.9}};
    const auto exact = best_of_k_moments(values);
    QVERIFY(std::isinf(exact[0].mean));
    for (int k = 2; k <= 4; ++k) {
      const auto [mean, variance] = brute_force(values, k);
      DPLAB_COMPARE_ABS(exact[static_cast<std::size_t>(k - 1)].mean, mean, 1e-12);
      DPLAB_COMPARE_ABS(exact[static_cast<std::size_t>(k - 1)].variance, variance, 1e-12);
    }
    DPLAB_COMPARE_ABS(exact[3].mean, 0.2, 1e-15);  // k = K: the best, always
    DPLAB_COMPARE_ABS(exact[3].sd(), 0.0, 1e-15);
  }

  void protocol_table_is_the_exact_expectation() {
    const std::vector<double> acc{0.5, 0.8, 0.7, 0.2, 0.75, 0.8, 0.1};
    const SearchResults res = search_with(acc);
    std::vector<int> pool(acc.size());
    for (std::size_t i = 0; i < pool.size(); ++i) pool[i] = static_cast<int>(i);
    const auto rows = random_subset_protocol(res, pool, 100);
    std::vector<ScoredValue> values;
    for (double a : acc) values.push_back({a, a});
    QCOMPARE(rows.size(), acc.size());
    for (int k = 1; k <= static_cast<int>(acc.size()); ++k) {
      const auto [mean, variance] = brute_force(values, k);
      const ProtocolRow& row = rows[static_cast<std::size_t>(k - 1)];
      QCOMPARE(row.k, k);
      QCOMPARE(row.trials, 100);
      DPLAB_COMPARE_ABS(row.mean, mean, 1e-12);
      const double half = 1.959963984540054 * std::sqrt(variance) / 10;
      DPLAB_COMPARE_ABS(row.ci_high - row.mean, half, 1e-12);
      DPLAB_COMPARE_ABS(row.mean - row.ci_low, half, 1e-12);
    }
  }

  void large_pools_do_not_underflow() {
    // 1 / C(2000, 1000) ~ 1e-600 is 0 in a double: a start from it gives E = 0. Values
    // v_(i) = (i - 1) / (m - 1): the max rank of k has mean k (m + 1) / (k + 1), so
    // E[best of k] = (k (m + 1) / (k + 1) - 1) / (m - 1).
    const int m = 2000;
    std::vector<double> values;
    for (int i = 0; i < m; ++i) values.push_back(static_cast<double>(i) / (m - 1));
    for (int k : {1, 2, 10, 1000, 1999, 2000}) {
      const double expected = (static_cast<double>(k) * (m + 1) / (k + 1) - 1) / (m - 1);
      DPLAB_COMPARE_REL(expected_best_of_k(values, k), expected, 1e-12);
    }
    // The section 5.2 spread (pruned_comparison) uses the same computation.
    const SearchResults res = search_with(values);
    std::vector<int> pool(values.size());
    for (std::size_t i = 0; i < pool.size(); ++i) pool[i] = static_cast<int>(i);
    DPLAB_COMPARE_REL(repeat_spread(res, pool, 1000).mean,
                      (1000.0 * (m + 1) / 1001.0 - 1) / (m - 1), 1e-12);
  }

  void twenty_thousand_candidates_in_well_under_a_second() {
    Rng rng(3);
    std::vector<double> acc;
    for (int i = 0; i < 20000; ++i) acc.push_back(rng.uniform());
    const SearchResults res = search_with(acc);
    std::vector<int> pool(acc.size());
    for (std::size_t i = 0; i < pool.size(); ++i) pool[i] = static_cast<int>(i);
    const auto started = std::chrono::steady_clock::now();
    const auto rows = random_subset_protocol(res, pool, 100);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    qInfo("best of k for 20,000 candidates: %.3f s", seconds);
    QCOMPARE(rows.size(), acc.size());
    QVERIFY2(seconds < 0.5, qPrintable(QString("took %1 s").arg(seconds)));
    // Monotone in k, ends at the best.
    for (std::size_t k = 1; k < rows.size(); ++k) QVERIFY(rows[k].mean >= rows[k - 1].mean - 1e-12);
    DPLAB_COMPARE_ABS(rows.back().mean, *std::max_element(acc.begin(), acc.end()), 1e-12);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestBestOfK)
#include "test_best_of_k.moc"
