// The last-iterate heuristic (audit/last_iterate_heuristic.h; Steinke et al., ICLR 2025):
//   - q = 1 is the Gaussian mechanism with sensitivity T and noise sigma sqrt(T), i.e. noise
//     multiplier sigma / sqrt(T): delta(eps) and eps(delta) equal Balle & Wang's analytic values
//     (privacy/mechanisms/gaussian_mechanism.h) to 1e-9;
//   - small T: delta(eps) equals a brute-force computation — the binomial weights as products,
//     both hockey-stick integrals (p - e^eps q)_+ and (q - e^eps p)_+ summed on a fine grid in
//     long double — to 1e-6 relative;
//   - T = 1 is one step of the Poisson-subsampled Gaussian mechanism: the PLD accountant's
//     epsilon (both directions, add/remove) agrees within its discretisation;
//   - it is below the composition accountant (PLD, all iterates) and monotone in T and sigma.
#include <QTest>

#include <cmath>
#include <vector>

#include "audit/last_iterate_heuristic.h"
#include "core/error.h"
#include "privacy/accounting/accountant_choice.h"
#include "privacy/mechanisms/gaussian_mechanism.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

// delta(eps) = max of the two hockey-stick integrals, by the trapezoid rule on [-30 s, T + 30 s]
// with 1,000,000 cells; densities from the binomial weights formed as plain products.
double brute_force_delta(double sigma, double q, int steps, double eps) {
  std::vector<long double> weight(static_cast<std::size_t>(steps + 1));
  for (int k = 0; k <= steps; ++k) {
    long double choose = 1;
    for (int j = 1; j <= k; ++j) choose = choose * (steps - k + j) / j;
    weight[k] = choose * std::pow(static_cast<long double>(q), k) *
                std::pow(1.0L - static_cast<long double>(q), steps - k);
  }
  const long double s = sigma * std::sqrt(static_cast<long double>(steps));
  const long double lo = -30 * s, hi = steps + 30 * s;
  const int cells = 1000000;
  const long double h = (hi - lo) / cells;
  const long double e = std::exp(static_cast<long double>(eps));
  const long double norm = 1 / (s * std::sqrt(2 * 3.14159265358979323846264338327950288L));
  long double forward = 0, backward = 0;
  for (int i = 0; i <= cells; ++i) {
    const long double x = lo + i * h;
    long double p = 0;
    for (int k = 0; k <= steps; ++k) p += weight[k] * std::exp(-(x - k) * (x - k) / (2 * s * s));
    p *= norm;
    const long double qd = norm * std::exp(-x * x / (2 * s * s));
    const long double end = (i == 0 || i == cells) ? 0.5L : 1.0L;
    forward += end * std::max(0.0L, p - e * qd);
    backward += end * std::max(0.0L, qd - e * p);
  }
  return static_cast<double>(std::max(forward, backward) * h);
}

}  // namespace

class TestLastIterateHeuristic : public QObject {
  Q_OBJECT

 private slots:
  void full_batch_is_the_gaussian_mechanism_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<int>("steps");
    QTest::newRow("sigma 1, T 1") << 1.0 << 1;
    QTest::newRow("sigma 0.8, T 10") << 0.8 << 10;
    QTest::newRow("sigma 2, T 100") << 2.0 << 100;
    QTest::newRow("sigma 5, T 1000") << 5.0 << 1000;
  }
  void full_batch_is_the_gaussian_mechanism() {
    QFETCH(double, sigma);
    QFETCH(int, steps);
    const double equivalent = sigma / std::sqrt(static_cast<double>(steps));
    for (double delta : {1e-5, 1e-8}) {
      DPLAB_COMPARE_REL(audit::last_iterate_epsilon(sigma, 1.0, steps, delta),
                        privacy::analytic_gaussian_epsilon(equivalent, delta), 1e-9);
    }
    for (double eps : {0.0, 0.5, 2.0}) {
      DPLAB_COMPARE_REL(audit::last_iterate_delta(sigma, 1.0, steps, eps),
                        privacy::analytic_gaussian_delta(equivalent, eps), 1e-9);
    }
  }

  void small_steps_match_brute_force_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("q");
    QTest::addColumn<int>("steps");
    QTest::addColumn<double>("eps");
    QTest::newRow("T 1, q 0.1") << 0.7 << 0.1 << 1 << 0.5;
    QTest::newRow("T 2, q 0.5") << 1.0 << 0.5 << 2 << 1.0;
    QTest::newRow("T 3, q 0.2") << 0.7 << 0.2 << 3 << 0.5;
    QTest::newRow("T 5, q 0.1") << 1.5 << 0.1 << 5 << 0.2;
    QTest::newRow("T 5, q 0.5") << 0.6 << 0.5 << 5 << 2.0;
    QTest::newRow("T 8, q 0.3") << 0.5 << 0.3 << 8 << 1.5;
  }
  void small_steps_match_brute_force() {
    QFETCH(double, sigma);
    QFETCH(double, q);
    QFETCH(int, steps);
    QFETCH(double, eps);
    const double brute = brute_force_delta(sigma, q, steps, eps);
    QVERIFY2(brute > 1e-4, qPrintable(QString::number(brute)));  // a case that tests something
    DPLAB_COMPARE_REL(audit::last_iterate_delta(sigma, q, steps, eps), brute, 1e-6);
  }

  // eps(delta) is the inverse of delta(eps), from the safe side.
  void epsilon_inverts_delta() {
    const double eps = audit::last_iterate_epsilon(0.9, 0.05, 200, 1e-5);
    QVERIFY(eps > 0);
    QVERIFY(audit::last_iterate_delta(0.9, 0.05, 200, eps) <= 1e-5);
    QVERIFY(audit::last_iterate_delta(0.9, 0.05, 200, eps * (1 - 1e-8)) > 1e-5);
  }

  // One step: the last iterate is the only iterate, so this is the subsampled Gaussian mechanism
  // itself; the PLD accountant bounds it from above within its estimated error.
  void one_step_is_the_subsampled_gaussian() {
    for (const auto& [sigma, q] : {std::pair{0.8, 0.1}, std::pair{0.5, 0.3}}) {
      const double heuristic = audit::last_iterate_epsilon(sigma, q, 1, 1e-5);
      const auto pld = privacy::run_epsilon({sigma, q, 1}, 1, 1e-5, privacy::Accountant::kPld);
      QVERIFY2(heuristic <= pld.epsilon * (1 + 1e-9),
               qPrintable(QString("%1 > %2").arg(heuristic).arg(pld.epsilon)));
      DPLAB_COMPARE_ABS(heuristic, pld.epsilon, 2 * pld.pld_error_bound + 1e-3 * pld.epsilon);
    }
  }

  // The last iterate is a post-processing of all iterates: below the composition's epsilon.
  void below_the_composition_accountant() {
    for (const auto& [sigma, q, steps] :
         {std::tuple{1.0, 0.01, 1000}, std::tuple{0.8, 0.02, 500}, std::tuple{2.0, 0.1, 100}}) {
      const double heuristic = audit::last_iterate_epsilon(sigma, q, steps, 1e-5);
      const double pld =
          privacy::run_epsilon({sigma, q, steps}, 1, 1e-5, privacy::Accountant::kPld).epsilon;
      QVERIFY2(heuristic > 0 && heuristic < pld, qPrintable(QString("sigma %1 q %2 T %3: %4 vs %5")
                                                                .arg(sigma)
                                                                .arg(q)
                                                                .arg(steps)
                                                                .arg(heuristic)
                                                                .arg(pld)));
    }
  }

  // Not monotone in T at the very start, and rightly so: at T = 1 the canary's one possible
  // insertion is all there is, at T = 2 the second step's noise already hides it better than its
  // second chance reveals it (sigma 1, q 0.02: 0.44 at T = 1, 0.34 at T = 2, 0.33 at T = 5; the
  // composition grows from 0.44 to 0.52 and 0.65). From T = 10 on it grows with T.
  void monotone_in_steps_and_noise() {
    double previous = 0;
    const double one_step = audit::last_iterate_epsilon(1.0, 0.02, 1, 1e-5);
    QVERIFY(audit::last_iterate_epsilon(1.0, 0.02, 2, 1e-5) < one_step);
    for (int steps : {10, 30, 100, 1000}) {
      const double eps = audit::last_iterate_epsilon(1.0, 0.02, steps, 1e-5);
      QVERIFY2(eps > previous, qPrintable(QString("T = %1").arg(steps)));
      previous = eps;
    }
    previous = INFINITY;
    for (double sigma : {0.5, 1.0, 2.0, 4.0}) {
      const double eps = audit::last_iterate_epsilon(sigma, 0.02, 500, 1e-5);
      QVERIFY2(eps < previous, qPrintable(QString("sigma = %1").arg(sigma)));
      previous = eps;
    }
  }

  void edge_cases() {
    QVERIFY(std::isinf(audit::last_iterate_epsilon(0.0, 0.1, 10, 1e-5)));
    QCOMPARE(audit::last_iterate_epsilon(1.0, 0.0, 10, 1e-5), 0.0);
    QCOMPARE(audit::last_iterate_epsilon(1.0, 0.1, 0, 1e-5), 0.0);
    QCOMPARE(audit::last_iterate_delta(1.0, 0.0, 10, 0.5), 0.0);
    // Large T with small q: the truncated mixture stays finite and sensible.
    const double big = audit::last_iterate_epsilon(1.0, 0.001, 100000, 1e-6);
    QVERIFY(std::isfinite(big) && big > 0);
  }

  void invalid_inputs_name_the_field() {
    using testing::error_of;
    QVERIFY(error_of<InvalidArgument>([] {
              audit::last_iterate_epsilon(1.0, 1.5, 10, 1e-5);
            }).contains("sampling_rate"));
    QVERIFY(error_of<InvalidArgument>([] {
              audit::last_iterate_epsilon(-1.0, 0.5, 10, 1e-5);
            }).contains("noise_multiplier"));
    QVERIFY(error_of<InvalidArgument>([] {
              audit::last_iterate_epsilon(1.0, 0.5, 10, 0.0);
            }).contains("delta"));
    QVERIFY(error_of<InvalidArgument>([] {
              audit::last_iterate_delta(1.0, 0.5, -1, 1.0);
            }).contains("steps"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestLastIterateHeuristic)
#include "test_last_iterate_heuristic.moc"
