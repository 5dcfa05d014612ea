// One-run audit bound (audit/one_run_bound.h; Steinke, Nasr & Jagielski 2023):
//   - the reference table (pure eps, beta = 0.05; exact binomial sums + bisection computed
//     independently) to 1e-3;
//   - the log-space tail and alpha term against a brute-force enumeration of all 2^r
//     correct/wrong patterns in long double (small r);
//   - the bound's defining property: p(bound) < beta <= p(bound + 1e-5);
//   - monotonicity, (eps, delta) <= pure, ceiling = logit(beta^(1/r)) ~ ln(r/3), no underflow at
//     r = 1e6, Bonferroni over guess sets.
#include <QTest>

#include <cmath>
#include <vector>

#include "audit/one_run_bound.h"
#include "core/error.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using audit::GuessCounts;

namespace {

// Exact P[W >= v] and alpha for W ~ Binomial(r, q), by enumerating every subset of correct
// guesses (2^r patterns) with long double products: no binomial coefficient, no recurrence.
struct Enumerated {
  long double upper_tail = 0;  // P[W >= v]
  long double alpha = 0;       // max_{1<=i<=v} P[v - i <= W < v] / i
};

Enumerated enumerate(int r, int v, long double q) {
  std::vector<long double> pmf(static_cast<std::size_t>(r + 1), 0.0L);
  for (unsigned pattern = 0; pattern < (1u << r); ++pattern) {
    long double p = 1;
    int correct = 0;
    for (int i = 0; i < r; ++i) {
      const bool right = (pattern >> i) & 1u;
      p *= right ? q : 1 - q;
      correct += right ? 1 : 0;
    }
    pmf[static_cast<std::size_t>(correct)] += p;
  }
  Enumerated e;
  for (int k = v; k <= r; ++k) e.upper_tail += pmf[static_cast<std::size_t>(k)];
  long double partial = 0;
  for (int i = 1; i <= v; ++i) {
    partial += pmf[static_cast<std::size_t>(v - i)];
    e.alpha = std::max(e.alpha, partial / i);
  }
  return e;
}

double q_of(double eps) {
  return 1.0 / (1.0 + std::exp(-eps));
}

}  // namespace

class TestOneRunBound : public QObject {
  Q_OBJECT

 private slots:
  void reference_table_data() {
    QTest::addColumn<int>("r");
    QTest::addColumn<int>("v");
    QTest::addColumn<double>("expected");
    // /work/shared/reference/one-run-audit.md, pure eps at beta = 0.05 (m = r).
    QTest::newRow("50/50") << 50 << 50 << 2.7847;
    QTest::newRow("50/45") << 50 << 45 << 1.3936;
    QTest::newRow("100/100") << 100 << 100 << 3.4930;
    QTest::newRow("100/90") << 100 << 90 << 1.6308;
    QTest::newRow("100/75") << 100 << 75 << 0.7022;
    QTest::newRow("200/150") << 200 << 150 << 0.8214;
    QTest::newRow("500/500") << 500 << 500 << 5.1144;
    QTest::newRow("1000/1000") << 1000 << 1000 << 5.8091;
    QTest::newRow("1000/600") << 1000 << 600 << 0.2975;
  }
  void reference_table() {
    QFETCH(int, r);
    QFETCH(int, v);
    QFETCH(double, expected);
    const double bound = audit::one_run_epsilon_lower_bound({r, r, v}, 0.0, 0.95);
    DPLAB_COMPARE_ABS(bound, expected, 1e-3);
  }

  // The log-space tail and alpha equal the brute-force enumeration (long double, 2^r patterns).
  void tail_and_alpha_match_enumeration_data() {
    QTest::addColumn<int>("r");
    QTest::addColumn<int>("v");
    QTest::addColumn<double>("eps");
    QTest::newRow("r1 v1") << 1 << 1 << 0.5;
    QTest::newRow("r8 v6 eps1") << 8 << 6 << 1.0;
    QTest::newRow("r12 v12 eps3") << 12 << 12 << 3.0;
    QTest::newRow("r14 v3 eps0.2") << 14 << 3 << 0.2;
    QTest::newRow("r16 v10 eps0") << 16 << 10 << 0.0;
    QTest::newRow("r16 v16 eps8") << 16 << 16 << 8.0;
  }
  void tail_and_alpha_match_enumeration() {
    QFETCH(int, r);
    QFETCH(int, v);
    QFETCH(double, eps);
    const long double q = 1.0L / (1.0L + std::exp(-static_cast<long double>(eps)));
    const Enumerated exact = enumerate(r, v, q);
    const double log_q = -std::log1p(std::exp(-eps)), log_1mq = -std::log1p(std::exp(eps));
    DPLAB_COMPARE_REL(std::exp(audit::log_binomial_upper_tail(r, v, log_q, log_1mq)),
                      static_cast<double>(exact.upper_tail), 1e-12);
    DPLAB_COMPARE_REL(std::exp(audit::log_alpha_term(r, v, log_q, log_1mq)),
                      static_cast<double>(exact.alpha), 1e-12);
    // p-value with delta: beta + 2 m delta alpha (m = 3r), capped at 1.
    const double delta = 1e-3;
    const long double expected_p = std::min(
        1.0L, exact.upper_tail + 2.0L * 3 * r * static_cast<long double>(delta) * exact.alpha);
    DPLAB_COMPARE_REL(audit::one_run_p_value({3 * r, r, v}, eps, delta),
                      static_cast<double>(expected_p), 1e-12);
  }

  // The bound is what it claims: the enumerated p-value at the bound is below beta and, 1e-5
  // above it, no longer below (bisection to 1e-6, rounded down).
  void bound_is_the_rejection_edge() {
    for (const auto& [r, v, delta] :
         std::vector<std::tuple<int, int, double>>{{10, 10, 0}, {16, 14, 0}, {16, 15, 1e-3}}) {
      const GuessCounts c{2 * r, r, v};
      const double bound = audit::one_run_epsilon_lower_bound(c, delta, 0.95);
      QVERIFY(bound > 0);
      auto p = [&](double eps) {
        const Enumerated e = enumerate(r, v, q_of(eps));
        return static_cast<double>(e.upper_tail + 2.0L * c.canaries * delta * e.alpha);
      };
      QVERIFY2(p(bound) < 0.05, qPrintable(QString::number(p(bound), 'g', 17)));
      QVERIFY2(p(bound + 1e-5) >= 0.05, qPrintable(QString::number(p(bound + 1e-5), 'g', 17)));
    }
  }

  void no_evidence_gives_zero() {
    QCOMPARE(audit::one_run_epsilon_lower_bound({100, 100, 50}, 0.0, 0.95), 0.0);
    QCOMPARE(audit::one_run_epsilon_lower_bound({100, 0, 0}, 0.0, 0.95), 0.0);
    QCOMPARE(audit::one_run_epsilon_lower_bound({100, 100, 10}, 1e-5, 0.95), 0.0);
  }

  void more_correct_gives_a_larger_bound() {
    double previous = -1;
    for (int v = 500; v <= 1000; v += 25) {
      const double bound = audit::one_run_epsilon_lower_bound({1000, 1000, v}, 1e-5, 0.95);
      QVERIFY2(bound >= previous, qPrintable(QString("v = %1").arg(v)));
      if (v >= 575) QVERIFY(bound > previous);
      previous = bound;
    }
  }

  void more_guesses_at_equal_accuracy_give_a_larger_bound() {
    double previous = -1;
    for (int r : {20, 40, 100, 200, 400, 1000}) {  // 90 % correct
      const double bound = audit::one_run_epsilon_lower_bound({1000, r, r * 9 / 10}, 0.0, 0.95);
      QVERIFY2(bound > previous, qPrintable(QString("r = %1").arg(r)));
      previous = bound;
    }
  }

  void approximate_bound_is_never_above_pure() {
    for (int r : {10, 100, 1000}) {
      for (double accuracy : {0.6, 0.8, 0.95, 1.0}) {
        const int v = static_cast<int>(std::lround(accuracy * r));
        const double pure = audit::one_run_epsilon_lower_bound({1000, r, v}, 0.0, 0.95);
        for (double delta : {1e-6, 1e-5, 1e-3}) {
          const double approx = audit::one_run_epsilon_lower_bound({1000, r, v}, delta, 0.95);
          QVERIFY2(approx <= pure, qPrintable(QString("r %1 v %2 delta %3: %4 > %5")
                                                  .arg(r)
                                                  .arg(v)
                                                  .arg(delta)
                                                  .arg(approx)
                                                  .arg(pure)));
        }
      }
    }
    // delta matters when m delta is not tiny: m = 1e4, delta = 1e-4 lowers the bound visibly.
    QVERIFY(audit::one_run_epsilon_lower_bound({10000, 1000, 1000}, 1e-4, 0.95) <
            audit::one_run_epsilon_lower_bound({10000, 1000, 1000}, 0.0, 0.95) - 0.1);
  }

  void ceiling_is_logit_of_beta_root_and_about_log_r_over_3() {
    for (int r : {10, 100, 1000, 10000, 100000}) {
      const double ceiling = audit::one_run_ceiling(r, r, 0.0, 0.95);
      const double q = std::pow(0.05, 1.0 / r);
      DPLAB_COMPARE_ABS(ceiling, std::log(q / (1 - q)), 1e-6);
      if (r >= 1000) DPLAB_COMPARE_ABS(ceiling, std::log(r / 3.0), 0.01);
    }
  }

  // m = r = 1e6: no underflow (binomial terms ~ e^-693147 at eps = 0), finite and ordered.
  void large_counts_do_not_underflow() {
    const std::int64_t m = 1000000;
    const double ceiling = audit::one_run_ceiling(m, m, 0.0, 0.95);
    DPLAB_COMPARE_ABS(ceiling, std::log(m / 3.0), 0.01);
    const double strong = audit::one_run_epsilon_lower_bound({m, m, 600000}, 1e-6, 0.95);
    const double weak = audit::one_run_epsilon_lower_bound({m, m, 502000}, 1e-6, 0.95);
    QVERIFY(std::isfinite(strong) && std::isfinite(weak));
    // 60 % correct: eps near logit(0.6) = 0.405 minus a z/sqrt(r) margin (~0.0066).
    QVERIFY2(strong > 0.39 && strong < 0.4055, qPrintable(QString::number(strong, 'g', 17)));
    QVERIFY(weak > 0 && weak < strong);
    QCOMPARE(audit::one_run_epsilon_lower_bound({m, m, 500000}, 0.0, 0.95), 0.0);
  }

  void guess_sets_pay_bonferroni() {
    // 100 canaries, scores perfectly ordered by inclusion: every guess is right.
    std::vector<double> scores;
    std::vector<bool> included;
    for (int i = 0; i < 100; ++i) {
      included.push_back(i % 2 == 0);
      scores.push_back(included.back() ? 10.0 + i : -10.0 - i);
    }
    const std::vector<audit::GuessSet> one{{25, 25}};
    const auto single = audit::best_bound_over_guess_sets(scores, included, one, 0.0, 0.95);
    QCOMPARE(single.counts.guesses, std::int64_t{50});
    QCOMPARE(single.counts.correct, std::int64_t{50});
    DPLAB_COMPARE_ABS(single.epsilon_lower_bound, 2.7847, 1e-3);
    DPLAB_COMPARE_ABS(single.ceiling, single.epsilon_lower_bound, 1e-9);

    const auto sets = audit::default_guess_sets(100);
    QVERIFY(sets.size() >= 4);
    const auto best = audit::best_bound_over_guess_sets(scores, included, sets, 0.0, 0.95);
    const double beta_split = 0.05 / static_cast<double>(sets.size());
    QCOMPARE(best.sets_tried, static_cast<int>(sets.size()));
    DPLAB_COMPARE_ABS(best.epsilon_lower_bound,
                      audit::one_run_epsilon_lower_bound(best.counts, 0.0, 1 - beta_split), 1e-9);
    // The split costs something: the 50-guess set alone at beta/K is below it at beta.
    QVERIFY(best.epsilon_lower_bound < single.epsilon_lower_bound);
    QVERIFY(best.epsilon_lower_bound > 2.0);

    // Reversed scores: every guess wrong, bound 0.
    std::vector<double> reversed;
    for (double s : scores) reversed.push_back(-s);
    QCOMPARE(
        audit::best_bound_over_guess_sets(reversed, included, sets, 0.0, 0.95).epsilon_lower_bound,
        0.0);
  }

  void ceiling_is_the_largest_set_s_even_when_nothing_is_shown() {
    // Scores ordered exactly against inclusion: every guess is wrong, no set rejects eps = 0, and
    // the chosen set is merely the first (the smallest). The ceiling must still be what the audit
    // could have shown, the largest set's, not the first's (the old code returned the first's).
    const double kDelta = 1e-5;
    std::vector<double> scores;
    std::vector<bool> included;
    for (int i = 0; i < 200; ++i) {
      included.push_back(i % 2 == 0);
      scores.push_back(included.back() ? -1.0 - i : 1.0 + i);  // ordered exactly wrong
    }
    const auto sets = audit::default_guess_sets(200);
    const auto bound = audit::best_bound_over_guess_sets(scores, included, sets, kDelta, 0.95);
    QCOMPARE(bound.epsilon_lower_bound, 0.0);
    const double split = 1 - 0.05 / static_cast<double>(sets.size());
    double largest = 0;
    std::int64_t smallest_guesses = 200;
    for (const auto& s : sets) {
      largest =
          std::max(largest, audit::one_run_ceiling(200, s.top_in + s.bottom_out, kDelta, split));
      smallest_guesses = std::min(smallest_guesses, s.top_in + s.bottom_out);
    }
    DPLAB_COMPARE_ABS(bound.ceiling, largest, 1e-12);
    QVERIFY(bound.ceiling > audit::one_run_ceiling(200, smallest_guesses, kDelta, split) + 0.5);
  }

  void invalid_inputs_name_the_field() {
    using testing::error_of;
    QVERIFY(error_of<InvalidArgument>([] {
              audit::one_run_epsilon_lower_bound({10, 11, 5}, 0.0, 0.95);
            }).contains("guesses"));
    QVERIFY(error_of<InvalidArgument>([] {
              audit::one_run_epsilon_lower_bound({10, 5, 6}, 0.0, 0.95);
            }).contains("correct"));
    QVERIFY(error_of<InvalidArgument>([] {
              audit::one_run_epsilon_lower_bound({10, 5, 5}, 0.0, 1.0);
            }).contains("confidence"));
    QVERIFY(error_of<InvalidArgument>([] {
              audit::best_bound_over_guess_sets({1.0, 2.0}, {true}, {{1, 0}}, 0.0, 0.95);
            }).contains("differ"));
    QVERIFY(error_of<InvalidArgument>([] {
              audit::best_bound_over_guess_sets({1.0, 2.0}, {true, false}, {{2, 1}}, 0.0, 0.95);
            }).contains("k+"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestOneRunBound)
#include "test_one_run_bound.moc"
