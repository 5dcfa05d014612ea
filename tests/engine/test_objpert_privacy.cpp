// Tests of engine/objective_perturbation/privacy_bounds.h and calibration.h and of
// their (epsilon, delta) conversion: closed forms against independent quadrature of the privacy
// loss bound c + mu + |X|, every bound against the Gaussian lower bound of Example 3.4, the
// profile (Thm 3.1) against its own RDP conversion, and calibration that never overshoots.
#include <QTest>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/error.h"
#include "objective_perturbation/calibration.h"
#include "objective_perturbation/privacy_bounds.h"
#include "privacy/mechanisms/gaussian_mechanism.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab::objpert;

namespace {

ObjPertPrivacy params(double sigma, double lambda, double beta = 0.5, double L = std::sqrt(2.0)) {
  ObjPertPrivacy p;
  p.noise_std = sigma;
  p.regularization = lambda;
  p.smoothness = beta;
  p.gradient_bound = L;
  return p;
}

// E[g(|X|)], X ~ N(0, s^2), by the trapezoid rule on [0, 40 s] with 200k panels (the integrands
// here are smooth; error far below the tolerances used).
template <class G>
double half_normal_expectation(double s, G g) {
  const int panels = 200000;
  const double upper = 40.0 * s, h = upper / panels;
  double sum = 0;
  for (int i = 0; i <= panels; ++i) {
    const double x = i * h;
    const double density =
        2.0 * std::exp(-0.5 * (x / s) * (x / s)) / (s * std::sqrt(2 * std::numbers::pi));
    sum += (i == 0 || i == panels ? 0.5 : 1.0) * density * g(x);
  }
  return sum * h;
}

}  // namespace

class TestObjpertPrivacy : public QObject {
  Q_OBJECT

 private slots:
  void rdp_closed_form_matches_quadrature() {
    // Thm 3.2: c + mu + log E[e^{(alpha-1)|X|}]/(alpha-1), X ~ N(0, L^2/sigma^2).
    for (double sigma : {1.0, 3.0})
      for (double alpha : {1.5, 2.0, 8.0}) {
        const ObjPertPrivacy p = params(sigma, 2.0);
        const double s = p.gradient_bound / sigma;
        const double mgf =
            half_normal_expectation(s, [&](double x) { return std::exp((alpha - 1) * x); });
        const double expected =
            -std::log(1 - 0.5 / 2.0) + 0.5 * s * s + std::log(mgf) / (alpha - 1);
        DPLAB_COMPARE_REL(objpert_rdp(p, alpha), expected, 1e-8);
      }
  }

  void rdp_order_one_is_the_limit() {
    const ObjPertPrivacy p = params(2.0, 5.0);
    DPLAB_COMPARE_REL(objpert_rdp(p, 1.0), objpert_rdp(p, 1.0 + 1e-7), 1e-6);
  }

  void rdp_is_above_gaussian_lower_bound_on_a_grid() {
    // Example 3.4: the Gaussian mechanism (sensitivity L, noise sigma) is a special case.
    int checked = 0;
    for (double alpha : {1.0, 1.01, 1.5, 2.0, 4.0, 16.0, 64.0, 256.0, 1024.0})
      for (double sigma : {0.3, 1.0, 3.0, 10.0, 50.0})
        for (double lambda : {0.505, 1.0, 10.0, 1000.0}) {
          const ObjPertPrivacy p = params(sigma, lambda);
          const double upper = objpert_rdp(p, alpha);
          const double lower = gaussian_lower_bound_rdp(p, alpha);
          QVERIFY2(upper >= lower, qPrintable(QString("alpha %1 sigma %2 lambda %3: %4 < %5")
                                                  .arg(alpha)
                                                  .arg(sigma)
                                                  .arg(lambda)
                                                  .arg(upper)
                                                  .arg(lower)));
          ++checked;
        }
    QCOMPARE(checked, 180);
  }

  void algorithm1_adds_the_output_gaussian() {
    ObjPertPrivacy p = params(2.0, 4.0);
    p.tau = 0.01;
    p.output_noise_std = 0.15;
    // Sensitivity 2 tau / lambda: alpha (2 tau/lambda)^2 / (2 sigma_out^2).
    const double extra = 3.0 * std::pow(2 * 0.01 / 4.0, 2) / (2 * 0.15 * 0.15);
    DPLAB_COMPARE_REL(algorithm1_rdp(p, 3.0), objpert_rdp(p, 3.0) + extra, 1e-13);
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, algorithm1_rdp(p, 1.0));
  }

  void profile_matches_quadrature_of_the_loss_bound() {
    // delta(eps) = E[(1 - e^{eps - c - mu - |X|})_+], both branches of (3.1).
    const ObjPertPrivacy p = params(2.0, 3.0);
    const double s = p.gradient_bound / p.noise_std, c = -std::log(1 - 0.5 / 3.0), mu = 0.5 * s * s;
    for (double eps : {0.0, 0.1, c + 0.5 * mu, c + mu, 0.8, 1.5, 3.0}) {
      const double expected = half_normal_expectation(
          s, [&](double x) { return std::max(0.0, -std::expm1(eps - c - mu - x)); });
      DPLAB_COMPARE_ABS(objpert_profile_delta(p, eps), expected, 1e-8);  // kink: O(h^2)
    }
  }

  void profile_is_between_gaussian_and_rdp_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("lambda");
    QTest::addColumn<double>("delta");
    for (double sigma : {0.5, 2.0, 5.0, 20.0})
      for (double lambda : {0.6, 5.0, 20.0, 500.0})
        for (double delta : {1e-3, 1e-5, 1e-8})
          QTest::newRow(qPrintable(QString("s%1_l%2_d%3").arg(sigma).arg(lambda).arg(delta)))
              << sigma << lambda << delta;
  }
  void profile_is_between_gaussian_and_rdp() {
    QFETCH(double, sigma);
    QFETCH(double, lambda);
    QFETCH(double, delta);
    const ObjPertPrivacy p = params(sigma, lambda);
    const double lower = gaussian_lower_bound_epsilon(p, delta);
    const double profile = objpert_profile_epsilon(p, delta);
    const double rdp = objpert_rdp_epsilon(p, delta);
    QVERIFY2(lower <= profile,
             qPrintable(QString("gaussian %1 > profile %2").arg(lower).arg(profile)));
    QVERIFY2(profile <= rdp, qPrintable(QString("profile %1 > rdp %2").arg(profile).arg(rdp)));
    // The same statements in delta at the profile's epsilon.
    QVERIFY(gaussian_lower_bound_delta(p, profile) <= delta * (1 + 1e-9));
    QVERIFY(objpert_profile_delta(p, profile) <= delta * (1 + 1e-9));
  }

  void figure1_ordering() {
    // Paper Figure 1 (left: sigma 5, L 1, lambda 20; right: sigma 10, L 1, lambda 5), beta 1:
    // Gaussian lower bound <= Thm 3.1 <= Thm 3.2 (RDP) <= Kifer et al.
    for (const ObjPertPrivacy& p : {params(5.0, 20.0, 1.0, 1.0), params(10.0, 5.0, 1.0, 1.0)})
      for (double delta : {1e-2, 1e-4, 1e-6, 1e-8, 1e-10}) {
        const double g = gaussian_lower_bound_epsilon(p, delta),
                     h = objpert_profile_epsilon(p, delta), r = objpert_rdp_epsilon(p, delta),
                     k = kifer_epsilon(p, delta);
        QVERIFY2(
            g <= h && h <= r && r <= k,
            qPrintable(QString("delta %1: %2 %3 %4 %5").arg(delta).arg(g).arg(h).arg(r).arg(k)));
      }
  }

  void kifer_hand_value() {
    // sigma 5, L 1, beta 1, lambda 20, delta 1e-5: a = 4/25, b = 8 ln(2e5)/25;
    // eps = (a + sqrt(a^2 + 4b))/2 = 2.0372...; 2 beta/lambda = 0.1 is smaller.
    const ObjPertPrivacy p = params(5.0, 20.0, 1.0, 1.0);
    const double a = 4.0 / 25.0, b = 8.0 * std::log(2e5) / 25.0;
    DPLAB_COMPARE_REL(kifer_epsilon(p, 1e-5), 0.5 * (a + std::sqrt(a * a + 4 * b)), 1e-11);
    // lambda close to beta: the regulariser condition 2 beta/lambda dominates.
    DPLAB_COMPARE_REL(kifer_epsilon(params(50.0, 1.001, 1.0, 1.0), 1e-5), 2.0 / 1.001, 1e-11);
  }

  void rdp_conversion_grid_is_dense_enough() {
    // The conversion eps = r + log(1-1/a) - (log delta + log a)/(a-1) minimised by brute force
    // over 40,000 orders: the bound's order grid loses < 0.1% (and never goes below).
    for (const ObjPertPrivacy& p : {params(1.0, 2.0), params(20.0, 50.0), params(200.0, 1e4)})
      for (double delta : {1e-5, 1e-9}) {
        double best = HUGE_VAL;
        for (int i = 0; i <= 40000; ++i) {
          const double a = 1.0 + std::pow(10.0, -3.0 + 8.0 * i / 40000);
          best = std::min(best, objpert_rdp(p, a) + std::log1p(-1 / a) -
                                    (std::log(delta) + std::log(a)) / (a - 1));
        }
        const double eps = objpert_rdp_epsilon(p, delta);
        QVERIFY(eps >= best * (1 - 1e-12));
        QVERIFY2(eps <= best * 1.001, qPrintable(QString("%1 vs %2").arg(eps).arg(best)));
      }
  }

  void validation_names_the_field() {
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument,
                             objpert_rdp(params(1.0, 0.5), 2.0));  // lambda = beta
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, objpert_rdp(params(0.0, 2.0), 2.0));
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument,
                             objpert_profile_epsilon(params(1.0, 2.0), 0.0));
  }

  void calibration_never_overshoots_data() {
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    for (double eps : {0.025, 0.1, 0.5, 1.0, 4.0, 8.0})
      for (double delta : {1e-5, 1e-8})
        QTest::newRow(qPrintable(QString("e%1_d%2").arg(eps).arg(delta))) << eps << delta;
  }
  void calibration_never_overshoots() {
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    CalibrationRequest request;
    request.epsilon = epsilon;
    request.delta = delta;
    request.gradient_bound = std::sqrt(2.0);
    request.smoothness = 0.5;
    request.tau = 0.01;
    request.output_noise_std = 0.15;
    const Calibration c = calibrate_algorithm1(request);
    QVERIFY(c.epsilon <= epsilon);
    DPLAB_COMPARE_REL(algorithm1_rdp_epsilon(c.privacy, delta), c.epsilon, 1e-12);
    QVERIFY(c.noise_factor >= kPaperNoiseFactor);
    DPLAB_COMPARE_REL(c.privacy.noise_std, c.noise_factor * c.gaussian_noise_std, 1e-12);
    DPLAB_COMPARE_REL(
        c.gaussian_noise_std,
        std::sqrt(2.0) * dplab::privacy::analytic_gaussian_noise_multiplier(epsilon, delta), 1e-12);
    // lambda is the smallest that works: 0.1% less overshoots.
    ObjPertPrivacy smaller = c.privacy;
    smaller.regularization *= 0.999;
    if (smaller.regularization > smaller.smoothness)
      QVERIFY(algorithm1_rdp_epsilon(smaller, delta) > epsilon);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestObjpertPrivacy)
#include "test_objpert_privacy.moc"
