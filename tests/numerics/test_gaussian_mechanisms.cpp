// Tests of engine/privacy/mechanisms/gaussian_mechanism.h and composition.h: hand-checkable values,
// the exact delta(epsilon) of Balle & Wang (2018) as the oracle for calibration, and the ordering
// basic >= advanced >= optimal composition.
#include <QTest>
#include <cmath>
#include <vector>

#include "core/error.h"
#include "privacy/accounting/composition.h"
#include "privacy/mechanisms/gaussian_mechanism.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab::privacy;

class TestGaussianMechanisms : public QObject {
  Q_OBJECT

 private slots:
  void classic_bound() {
    // sqrt(2 ln(1.25/1e-5))/0.5 = 2 * sqrt(2 * 11.736069016284437) = 9.6899...
    DPLAB_COMPARE_REL(classic_gaussian_noise_multiplier(0.5, 1e-5),
                      2.0 * std::sqrt(2.0 * std::log(125000.0)), 1e-15);
    DPLAB_COMPARE_REL(classic_gaussian_epsilon(classic_gaussian_noise_multiplier(0.5, 1e-5), 1e-5),
                      0.5, 1e-14);
    QVERIFY(std::isinf(classic_gaussian_epsilon(1.0, 1e-5)));  // would be >= 1: no guarantee
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, classic_gaussian_noise_multiplier(1.5, 1e-5));
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, classic_gaussian_noise_multiplier(0.5, 0.0));
  }

  void analytic_delta_hand_values_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    // Phi(1/(2s) - e s) - e^e Phi(-1/(2s) - e s), evaluated with erfc in double precision.
    QTest::newRow("s1_e0") << 1.0 << 0.0 << 0.38292492254802624;  // 2 Phi(1/2) - 1
    QTest::newRow("s1_e1") << 1.0 << 1.0 << 0.1269367375066439;
    QTest::newRow("s2_e0.5") << 2.0 << 0.5 << 0.05244032328766962;
  }
  void analytic_delta_hand_values() {
    QFETCH(double, sigma);
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    DPLAB_COMPARE_REL(analytic_gaussian_delta(sigma, epsilon), delta, 1e-12);
  }

  void analytic_delta_tiny_values_are_positive_and_decreasing() {
    double previous = 1.0;
    for (double eps = 0.0; eps <= 40.0; eps += 0.5) {
      const double d = analytic_gaussian_delta(1.0, eps);
      QVERIFY(std::isfinite(d) && d >= 0.0 && d <= previous);
      previous = d;
    }
    QVERIFY(analytic_gaussian_delta(1.0, 20.0) > 0.0);  // ~1e-90, log space keeps it
  }

  void analytic_calibration_is_exact_and_safe_data() {
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    for (double eps : {0.1, 0.5, 1.0, 4.0, 10.0})
      for (double delta : {1e-3, 1e-5, 1e-10}) {
        QTest::newRow(qPrintable(QString("e%1_d%2").arg(eps).arg(delta))) << eps << delta;
      }
  }
  void analytic_calibration_is_exact_and_safe() {
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    const double sigma = analytic_gaussian_noise_multiplier(epsilon, delta);
    QVERIFY(analytic_gaussian_delta(sigma, epsilon) <= delta);              // never unsafe
    QVERIFY(analytic_gaussian_delta(sigma * (1 - 1e-8), epsilon) > delta);  // and tight
    if (epsilon < 1.0) QVERIFY(sigma <= classic_gaussian_noise_multiplier(epsilon, delta));
    const double eps_back = analytic_gaussian_epsilon(sigma, delta);
    QVERIFY(eps_back <= epsilon * (1 + 1e-9));
    DPLAB_COMPARE_REL(eps_back, epsilon, 1e-6);
    QVERIFY(analytic_gaussian_delta(sigma, eps_back) <= delta);
  }

  void analytic_epsilon_zero_when_delta_large() {
    QCOMPARE(analytic_gaussian_epsilon(1.0, 0.5), 0.0);  // delta(0) = 0.383 <= 0.5
  }

  void basic_composition_sums() {
    const std::vector<PrivacyGuarantee> list{{0.5, 1e-6}, {1.0, 0.0}, {0.25, 2e-6}};
    const auto total = basic_composition(list);
    DPLAB_COMPARE_REL(total.epsilon, 1.75, 1e-15);
    DPLAB_COMPARE_REL(total.delta, 3e-6, 1e-12);
    const auto k = basic_composition({0.1, 1e-7}, 10);
    DPLAB_COMPARE_REL(k.epsilon, 1.0, 1e-12);
    DPLAB_COMPARE_REL(k.delta, 1e-6, 1e-12);
  }

  void advanced_composition_closed_forms() {
    // DRV10: eps sqrt(2k ln(1/d')) + k eps (e^eps - 1); k = 100, eps = 0.1, d' = 1e-5.
    const auto drv = advanced_composition_drv({0.1, 0.0}, 100, 1e-5);
    DPLAB_COMPARE_REL(drv.epsilon, 0.1 * std::sqrt(200.0 * std::log(1e5)) + 10.0 * std::expm1(0.1),
                      1e-14);
    DPLAB_COMPARE_REL(drv.delta, 1e-5, 1e-14);
    // KOV15 Thm 3.4: never worse than basic or DRV.
    const auto kov = advanced_composition_kov({0.1, 0.0}, 100, 1e-5);
    QVERIFY(kov.epsilon <= drv.epsilon);
    QVERIFY(kov.epsilon <= 10.0);
    const double drift = 100 * 0.1 * std::tanh(0.05);
    DPLAB_COMPARE_REL(kov.epsilon, drift + 0.1 * std::sqrt(200.0 * std::log(1e5)), 1e-14);
    // With few, large epsilons basic composition is the minimum.
    DPLAB_COMPARE_REL(advanced_composition_kov({2.0, 0.0}, 2, 1e-5).epsilon, 4.0, 1e-15);
  }

  void optimal_composition_hand_values() {
    // k = 1: delta_rr(eps) = 0, so the total delta is the mechanism's own.
    DPLAB_COMPARE_ABS(optimal_composition_delta({1.0, 1e-6}, 1, 1.0), 1e-6, 1e-18);
    // k = 2, eps' = 0: (e^{2e} - 1)/(1 + e^e)^2 = tanh(e/2); e = 1 -> tanh(0.5).
    DPLAB_COMPARE_REL(optimal_composition_delta({1.0, 0.0}, 2, 0.0), std::tanh(0.5), 1e-14);
    // At eps' = k eps nothing is left.
    QCOMPARE(optimal_composition_delta({0.3, 0.0}, 7, 2.1), 0.0);
  }

  void optimal_composition_is_tightest() {
    for (std::int64_t k : {1, 10, 100, 1000}) {
      const PrivacyGuarantee each{0.1, 1e-8};
      const double delta_total = 1e-5 + (1 - std::pow(1 - 1e-8, double(k)));
      const auto opt = optimal_composition(each, k, delta_total);
      QVERIFY(optimal_composition_delta(each, k, opt.epsilon) <= delta_total);
      const auto kov = advanced_composition_kov(each, k, 1e-5);
      QVERIFY2(opt.epsilon <= kov.epsilon * (1 + 1e-9), qPrintable(QString("k=%1").arg(k)));
      QVERIFY(opt.epsilon <= basic_composition(each, k).epsilon * (1 + 1e-9));
    }
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, optimal_composition({0.1, 1e-3}, 10, 1e-5));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestGaussianMechanisms)
#include "test_gaussian_mechanisms.moc"
