// The privacy–utility trade-off (chart_series/privacy_utility.h): the expected score of a
// random-stopping selection's winner (probability generating functions) against direct sums over
// the run-count laws and against a seeded simulation of the selection; the epsilons against
// release_cost (one implementation of each rule); and the shape of the LT sweep.
#include <QTest>

#include <algorithm>
#include <cmath>

#include "chart_series/privacy_utility.h"
#include "core/error.h"
#include "core/random.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/accounting.h"
#include "tuning/honest_selection.h"
#include "tuning/release_cost.h"
#include "tuning/run_count_laws.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

class TestPrivacyUtility : public QObject {
  Q_OBJECT
 private slots:
  void bestOfFixedDrawsByHand() {
    const std::vector<double> s = {0.1, 0.5, 0.9};
    auto draws = [&](int j) {
      return expected_best_of_random_draws(s, [j](double x) { return std::pow(x, j); });
    };
    DPLAB_COMPARE_REL(draws(1), 0.5, 1e-15);  // one draw: the mean
    // Two draws: P[max = 0.1] = 1/9, P[max = 0.5] = 3/9, P[max = 0.9] = 5/9.
    DPLAB_COMPARE_REL(draws(2), (0.1 * 1 + 0.5 * 3 + 0.9 * 5) / 9.0, 1e-15);
    QVERIFY(std::isnan(expected_best_of_random_draws({}, [](double x) { return x; })));
  }

  void generatingFunctionsMatchTheLaws() {
    for (double gamma : {0.05, 0.3, 1.0}) {
      const std::int64_t stop = lt_hard_stop(gamma, 1e-3);
      for (double x : {0.0, 0.25, 0.7, 0.99, 1.0}) {
        double direct = 0;
        for (std::int64_t j = 1; j <= stop; ++j)
          direct += truncated_geometric_pmf(j, gamma, stop) * std::pow(x, static_cast<double>(j));
        DPLAB_COMPARE_ABS(truncated_geometric_pgf(x, gamma, stop), direct, 1e-12);
      }
    }
    for (double mu : {1.0, 4.0, 10.0}) {
      for (double x : {0.0, 0.3, 0.8, 1.0}) {
        double direct = 0;
        for (std::int64_t j = 1; j <= 200; ++j)
          direct += poisson_pmf(j, mu) * std::pow(x, static_cast<double>(j));
        direct /= 1.0 - poisson_pmf(0, mu);
        DPLAB_COMPARE_ABS(poisson_pgf_at_least_one(x, mu), direct, 1e-12);
      }
    }
  }

  // Liu–Talwar selection simulated: stop after each uniform draw with probability gamma (hard
  // stop U), keep the best. The mean of 200,000 seeded selections agrees with the formula within
  // 5 standard errors.
  void expectedWinnerAgreesWithSimulation() {
    const std::vector<double> s = {0.2, 0.35, 0.4, 0.7, 0.72, 0.9};
    const double gamma = 0.25;
    const std::int64_t stop = lt_hard_stop(gamma, 0.01);
    const double formula = expected_best_of_random_draws(
        s, [&](double x) { return truncated_geometric_pgf(x, gamma, stop); });
    Rng rng(20261123);
    const int trials = 200000;
    double sum = 0, sum_sq = 0;
    for (int t = 0; t < trials; ++t) {
      const std::int64_t j = sample_truncated_geometric(rng, gamma, stop);
      double best = -1;
      for (std::int64_t d = 0; d < j; ++d) best = std::max(best, s[rng.below(s.size())]);
      sum += best;
      sum_sq += best * best;
    }
    const double mean = sum / trials;
    const double se = std::sqrt((sum_sq / trials - mean * mean) / trials);
    qInfo("LT expected winner: formula %.6f, simulation %.6f +- %.6f", formula, mean, se);
    QVERIFY(std::abs(mean - formula) < 5 * se);
  }

  void pointsOfARealRun() {
    const auto config = testing::tiny_experiment(50, 2);
    const SearchResults results = Runner(config, load_experiment_data(config)).run();
    const PrivacyUtility pu = privacy_utility(results);
    QVERIFY(!pu.regression);
    const RunMechanism& m = results.mechanism;
    // Per optimizer: explore, ma, lt, ps; then the whole search.
    QCOMPARE(pu.points.size(), std::size_t{2 * 4 + 1});
    const PrivacyUtilityPoint& all = pu.points.back();
    QCOMPARE(all.optimizer_index, -1);
    QVERIFY(!all.plan);
    QCOMPARE(all.epsilon, explore_release_cost(results).epsilon);
    for (int o = 0; o < 2; ++o) {
      const auto pool = experiment::candidates_of(results.candidates, o);
      const int k = static_cast<int>(pool.size());
      const PrivacyUtilityPoint* p = &pu.points[static_cast<std::size_t>(4 * o)];
      QCOMPARE(p[0].mode, std::string("explore"));
      QVERIFY(!p[0].plan);
      QVERIFY(p[1].plan && p[2].plan && p[3].plan);
      // MA over K candidates = K runs composed, and a private release's headline composes its R
      // replicate searches (issue #23 item 6): K * R runs, the accountant's own function.
      DPLAB_COMPARE_REL(p[1].epsilon,
                        epsilon_moments_accountant(m.noise_multiplier, m.sampling_rate, m.steps,
                                                   k * config.repeats, m.delta, config.accounting),
                        1e-9);
      QCOMPARE(p[2].gamma, 1.0 / k);
      // Explore and MA release the best candidate: its score.
      double best = -1;
      for (const auto& s : score_candidates(results, pool)) best = std::max(best, s.score);
      QCOMPARE(p[0].metric, best);
      QCOMPARE(p[1].metric, best);
      // A random-stopping winner is at most the best and at least the worst candidate.
      QVERIFY(p[2].metric <= best + 1e-12 && p[3].metric <= best + 1e-12);
      QVERIFY(p[0].label.find("explore") != std::string::npos);
    }
    // The sweep: more expected runs cost more epsilon and release a better expected winner.
    QCOMPARE(pu.lt_sweep.size(), std::size_t{2 * 8});
    for (int o = 0; o < 2; ++o) {
      for (int i = 1; i < 8; ++i) {
        const auto& a = pu.lt_sweep[static_cast<std::size_t>(8 * o + i - 1)];
        const auto& b = pu.lt_sweep[static_cast<std::size_t>(8 * o + i)];
        QVERIFY(b.expected_runs > a.expected_runs);
        QVERIFY(b.epsilon >= a.epsilon);
        QVERIFY(b.metric >= a.metric - 1e-12);
      }
    }
  }

  void privateRunIsRefused() {
    auto config = testing::tiny_experiment(20, 1);
    SearchResults results;
    results.config = config;
    results.config.release.mode = experiment::ReleaseMode::kPrivate;
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, privacy_utility(results));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestPrivacyUtility)
#include "test_privacy_utility.moc"
