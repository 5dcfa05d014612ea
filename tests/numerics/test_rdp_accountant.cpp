// Tests of the RDP accountant (engine/privacy/accounting/rdp_accountant.h,
// rdp_subsampled_gaussian.h): every case of tests/data/accounting.json per its how_to_check,
// identities, properties (monotonicity, convexity, never-overshooting calibration), validation and
// extreme inputs.
#include <QTest>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/accounting/rdp_subsampled_gaussian.h"
#include "privacy/selection/private_selection.h"
#include "support/accounting_reference.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab::privacy;

namespace {

const nlohmann::json& reference() {
  return dplab::test::accounting_reference();
}

void add_cases_of_kind(const char* kind) {
  QTest::addColumn<int>("index");
  const auto& cases = reference()["cases"];
  int added = 0;
  for (int i = 0; i < static_cast<int>(cases.size()); ++i) {
    if (cases[i]["kind"] == kind) {
      QTest::newRow(cases[i]["id"].get<std::string>().c_str()) << i;
      ++added;
    }
  }
  if (added == 0) qFatal("no reference cases of kind %s", kind);
}

const nlohmann::json& case_at(int index) {
  return reference()["cases"][index];
}

SubsampledGaussian run_of(const nlohmann::json& c) {
  return {c["noise_multiplier"].get<double>(), c["sample_rate"].get<double>(),
          c["steps"].get<std::int64_t>()};
}

// how_to_check "rdp_epsilon": eps <= rdp * (1 + 1e-4) and >= pld * (1 - 1e-3).
void check_default_bounds(double epsilon, const nlohmann::json& c) {
  const double rdp = c["rdp_epsilon"].get<double>();
  if (!(epsilon <= rdp * (1 + 1e-4))) {
    QFAIL(qPrintable(QString("epsilon %1 above reference RDP %2 * (1+1e-4)")
                         .arg(epsilon, 0, 'g', 17)
                         .arg(rdp, 0, 'g', 17)));
  }
  if (c.contains("pld_epsilon")) {
    const double pld = c["pld_epsilon"].get<double>();
    if (!(epsilon >= pld * (1 - 1e-3))) {
      QFAIL(qPrintable(QString("epsilon %1 below tight PLD %2 * (1-1e-3)")
                           .arg(epsilon, 0, 'g', 17)
                           .arg(pld, 0, 'g', 17)));
    }
  }
}

}  // namespace

class TestRdpAccountant : public QObject {
  Q_OBJECT

 private slots:
  // --- reference values -------------------------------------------------------------------
  void single_run_reference_data() { add_cases_of_kind("single_run"); }
  void single_run_reference() {
    QFETCH(int, index);
    const auto& c = case_at(index);
    const auto result = epsilon_for_delta(run_of(c), c["delta"].get<double>());
    check_default_bounds(result.epsilon, c);
    QVERIFY(!result.order_at_grid_edge);
    if (c.contains("paper_accountant_epsilon")) {
      const auto paper =
          epsilon_for_delta(run_of(c), c["delta"].get<double>(), paper_compatible_options());
      DPLAB_COMPARE_REL(paper.epsilon, c["paper_accountant_epsilon"].get<double>(), 1e-3);
    }
  }

  void k_fold_ma_reference_data() { add_cases_of_kind("k_fold_ma"); }
  void k_fold_ma_reference() {
    QFETCH(int, index);
    const auto& c = case_at(index);
    SubsampledGaussian one = run_of(c);
    one.steps = c["steps_per_candidate"].get<std::int64_t>();
    const int k = c["candidates"].get<int>();
    QCOMPARE(one.steps * k, c["steps"].get<std::int64_t>());
    const double delta = c["delta"].get<double>();
    const auto ma = moments_accountant_selection(one, k, delta);
    check_default_bounds(ma.epsilon, c);
    // Identity: K runs composed in RDP == one run of K*T steps.
    DPLAB_COMPARE_REL(ma.epsilon, epsilon_for_delta(run_of(c), delta).epsilon, 1e-12);
    const auto paper = moments_accountant_selection(one, k, delta, paper_compatible_options());
    DPLAB_COMPARE_REL(paper.epsilon, c["paper_accountant_epsilon"].get<double>(), 1e-3);
  }

  void liu_talwar_reference_data() { add_cases_of_kind("liu_talwar"); }
  void liu_talwar_reference() {
    QFETCH(int, index);
    const auto& c = case_at(index);
    QCOMPARE(c["log"].get<std::string>(), std::string("natural"));
    const auto lt =
        liu_talwar_selection(run_of(c), c["gamma"].get<double>(), c["delta"].get<double>(),
                             c["delta2"].get<double>(), LogBase::kNatural);
    DPLAB_COMPARE_REL(lt.upsilon, c["Upsilon"].get<double>(), 1e-9);
    DPLAB_COMPARE_REL(lt.delta_per_run, c["delta_per_run"].get<double>(), 1e-9);
    QVERIFY(lt.epsilon <= c["epsilon"].get<double>() * (1 + 1e-4));
    QVERIFY(lt.epsilon_per_run <= c["epsilon_per_run"].get<double>() * (1 + 1e-4));
    // Sanity (not from how_to_check): a finer grid can only gain a little.
    QVERIFY(lt.epsilon >= c["epsilon"].get<double>() * (1 - 1e-2));
    DPLAB_COMPARE_REL(lt.epsilon, 3 * lt.epsilon_per_run + 3 * std::sqrt(2 * lt.delta_per_run),
                      1e-14);
  }

  void rdp_log_moment_reference_data() { add_cases_of_kind("rdp_log_moment"); }
  void rdp_log_moment_reference() {
    QFETCH(int, index);
    const auto& c = case_at(index);
    const double sigma = c["noise_multiplier"].get<double>(), q = c["sample_rate"].get<double>(),
                 order = c["order"].get<double>();
    DPLAB_COMPARE_REL(log_moment_subsampled_gaussian(sigma, q, order), c["log_A"].get<double>(),
                      1e-6);
    DPLAB_COMPARE_REL(rdp_subsampled_gaussian(sigma, q, order), c["rdp_per_step"].get<double>(),
                      1e-6);
  }

  // --- closed forms and identities ----------------------------------------------------------
  void plain_gaussian_when_q_is_one() {
    for (double order : {1.5, 2.0, 7.3, 32.0}) {
      DPLAB_COMPARE_REL(rdp_subsampled_gaussian(2.0, 1.0, order), order / (2 * 4.0), 1e-15);
    }
    // Integer series at q -> 1 agrees with the closed form.
    DPLAB_COMPARE_REL(rdp_subsampled_gaussian(2.0, 1.0 - 1e-12, 5.0), 5.0 / 8.0, 1e-9);
  }

  void fractional_and_integer_orders_agree_near_integers() {
    // The two-series formula is continuous in alpha and meets the integer formula.
    for (double order : {2.0, 3.0, 10.0, 40.0}) {
      const double at = log_moment_subsampled_gaussian(1.3, 0.02, order);
      const double near = log_moment_subsampled_gaussian(1.3, 0.02, order + 1e-9);
      DPLAB_COMPARE_REL(near, at, 1e-6);
    }
  }

  void special_cases() {
    const auto zero_steps = epsilon_for_delta({1.0, 0.1, 0}, 1e-5);
    QCOMPARE(zero_steps.epsilon, 0.0);
    QCOMPARE(epsilon_for_delta({1.0, 0.0, 100}, 1e-5).epsilon, 0.0);
    const auto no_noise = epsilon_for_delta({0.0, 0.1, 100}, 1e-5);
    QVERIFY(std::isinf(no_noise.epsilon) && no_noise.epsilon > 0);
    QCOMPARE(delta_for_epsilon({0.0, 0.1, 100}, 5.0), 1.0);
    QCOMPARE(delta_for_epsilon({1.0, 0.1, 0}, 0.0), 0.0);
    // Huge noise: epsilon clamped at 0, never negative.
    const auto tiny = epsilon_for_delta({1e4, 1e-6, 1}, 0.5);
    QVERIFY(tiny.epsilon >= 0.0 && std::isfinite(tiny.epsilon));
  }

  void improved_never_worse_than_classic() {
    for (double sigma : {0.7, 1.0, 4.0})
      for (double q : {0.001, 0.05, 1.0}) {
        const SubsampledGaussian run{sigma, q, 1000};
        AccountingOptions classic;
        classic.conversion = Conversion::kClassic;
        QVERIFY(epsilon_for_delta(run, 1e-5).epsilon <=
                epsilon_for_delta(run, 1e-5, classic).epsilon);
      }
  }

  void order_search_modes_are_ordered() {
    // Refinement can only improve on the grid; exact continuous search only on the chord.
    const SubsampledGaussian run{1.1, 0.004266666666666667, 14040};
    AccountingOptions grid, exact;
    grid.order_search = OrderSearch::kGrid;
    exact.order_search = OrderSearch::kExact;
    const double e_grid = epsilon_for_delta(run, 1e-5, grid).epsilon;
    const double e_chord = epsilon_for_delta(run, 1e-5).epsilon;
    const double e_exact = epsilon_for_delta(run, 1e-5, exact).epsilon;
    QVERIFY(e_chord <= e_grid);
    QVERIFY(e_exact <= e_chord);
    QVERIFY(e_exact >= e_grid * (1 - 1e-3));
  }

  void grid_edge_is_flagged() {
    // Plain Gaussian, sigma = 50, delta = 1e-200: eps(alpha) = alpha/5000 + 460/(alpha-1) is
    // smallest near alpha = 1516, beyond the grid's 1024.
    const auto r = epsilon_for_delta({50.0, 1.0, 1}, 1e-200);
    QVERIFY(r.order_at_grid_edge);
    QCOMPARE(r.best_order, 1024.0);
    QVERIFY(!epsilon_for_delta({1.0, 0.01, 1000}, 1e-5).order_at_grid_edge);
  }

  void orders_grid() {
    const auto orders = rdp_orders();
    QCOMPARE(orders.front(), 1.1);
    QCOMPARE(orders.back(), 1024.0);
    QVERIFY(std::is_sorted(orders.begin(), orders.end()));
    for (int a = 11; a <= 512; ++a)
      QVERIFY(std::binary_search(orders.begin(), orders.end(), double(a)));
    QCOMPARE(rdp_orders(512.0).back(), 512.0);
  }

  // --- properties ------------------------------------------------------------------------
  void epsilon_monotone_in_parameters() {
    const double delta = 1e-5;
    double previous = 0;
    for (std::int64_t t : {1, 10, 100, 1000, 10000, 100000}) {
      const double e = epsilon_for_delta({1.0, 0.01, t}, delta).epsilon;
      QVERIFY2(e >= previous, "epsilon must grow with T");
      previous = e;
    }
    previous = 0;
    for (double q : {1e-5, 1e-4, 1e-3, 0.01, 0.1, 0.5, 1.0}) {
      const double e = epsilon_for_delta({1.0, q, 1000}, delta).epsilon;
      QVERIFY2(e >= previous, "epsilon must grow with q");
      previous = e;
    }
    previous = INFINITY;
    for (double sigma : {0.5, 0.8, 1.0, 2.0, 4.0, 10.0}) {
      const double e = epsilon_for_delta({sigma, 0.01, 1000}, delta).epsilon;
      QVERIFY2(e <= previous, "epsilon must shrink with sigma");
      previous = e;
    }
    previous = 0;
    for (int k = 1; k <= 64; k *= 2) {
      const double e = moments_accountant_selection({4.0, 0.05, 1000}, k, 1e-4).epsilon;
      QVERIFY2(e >= previous, "epsilon must grow with K");
      previous = e;
    }
  }

  void rdp_monotone_and_convex_in_order_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("q");
    QTest::newRow("s4_q0.05") << 4.0 << 0.05;
    QTest::newRow("s1.1_q0.004") << 1.1 << 0.004266666666666667;
    QTest::newRow("s0.8_q0.01") << 0.8 << 0.01;
    QTest::newRow("s2_q0.5") << 2.0 << 0.5;
    QTest::newRow("s0.5_q0.2") << 0.5 << 0.2;
  }
  void rdp_monotone_and_convex_in_order() {
    QFETCH(double, sigma);
    QFETCH(double, q);
    // Orders mixing the fractional and integer formulas: 1.1..10.9 step 0.1 then 11..60.
    std::vector<double> orders;
    for (int i = 11; i <= 109; ++i) orders.push_back(i / 10.0);
    for (int a = 11; a <= 60; ++a) orders.push_back(a);
    const auto curve = rdp_curve(sigma, q);
    std::vector<double> rdp, log_a;
    for (double a : orders) {
      rdp.push_back(rdp_subsampled_gaussian(sigma, q, a));
      log_a.push_back(rdp.back() * (a - 1));
    }
    for (std::size_t i = 1; i < orders.size(); ++i) {
      // Tolerance: 1e-9 relative, the series' truncation (1e-10) plus rounding.
      QVERIFY2(rdp[i] >= rdp[i - 1] * (1 - 1e-9),
               qPrintable(QString("eps_RDP decreases at alpha = %1").arg(orders[i])));
    }
    for (std::size_t i = 1; i + 1 < orders.size(); ++i) {
      // Convexity of (alpha - 1) eps(alpha) = log A: chord above the middle point.
      const double a0 = orders[i - 1], a1 = orders[i], a2 = orders[i + 1];
      const double chord = log_a[i - 1] + (log_a[i + 1] - log_a[i - 1]) * (a1 - a0) / (a2 - a0);
      QVERIFY2(log_a[i] <= chord * (1 + 1e-9) + 1e-15,
               qPrintable(QString("log A not convex at alpha = %1").arg(a1)));
    }
  }

  void delta_for_epsilon_inverts_epsilon_for_delta_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("q");
    QTest::addColumn<qlonglong>("steps");
    QTest::addColumn<double>("delta");
    QTest::newRow("paper_5k") << 4.0 << 0.05 << qlonglong(10000) << 1e-4;
    QTest::newRow("abadi") << 1.1 << 0.004266666666666667 << qlonglong(14040) << 1e-5;
    QTest::newRow("small_q") << 4.0 << 0.0002631578947368421 << qlonglong(10000) << 1e-6;
    QTest::newRow("lt_delta") << 4.0 << 0.05 << qlonglong(10000) << 2.357646212645174e-12;
  }
  void delta_for_epsilon_inverts_epsilon_for_delta() {
    QFETCH(double, sigma);
    QFETCH(double, q);
    QFETCH(qlonglong, steps);
    QFETCH(double, delta);
    for (auto search : {OrderSearch::kGrid, OrderSearch::kInterpolated}) {
      for (auto conversion : {Conversion::kImproved, Conversion::kClassic}) {
        AccountingOptions options;
        options.order_search = search;
        options.conversion = conversion;
        const SubsampledGaussian run{sigma, q, steps};
        const double epsilon = epsilon_for_delta(run, delta, options).epsilon;
        const double back = delta_for_epsilon(run, epsilon, options);
        // Grid: exact inverse. Refined: both golden searches converge to ~1e-9 in alpha.
        DPLAB_COMPARE_REL(back, delta, 1e-6);
      }
    }
  }

  void calibration_never_overshoots_data() {
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    QTest::addColumn<double>("q");
    QTest::addColumn<qlonglong>("steps");
    for (double eps : {0.5, 1.0, 3.0, 8.0})
      for (double q : {0.001, 0.01, 0.1})
        for (qlonglong t : {100LL, 10000LL}) {
          QTest::newRow(qPrintable(QString("eps%1_q%2_T%3").arg(eps).arg(q).arg(t)))
              << eps << 1e-5 << q << t;
        }
    QTest::newRow("q1_T1") << 2.0 << 1e-5 << 1.0 << qlonglong(1);
  }
  void calibration_never_overshoots() {
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    QFETCH(double, q);
    QFETCH(qlonglong, steps);
    const double sigma = calibrate_noise_multiplier(epsilon, delta, q, steps);
    const double achieved = epsilon_for_delta({sigma, q, steps}, delta).epsilon;
    QVERIFY2(achieved <= epsilon,
             qPrintable(QString("overshoot: %1 > %2").arg(achieved, 0, 'g', 17).arg(epsilon)));
    // Within 1e-4 relative of the smallest sigma: slightly less noise already overshoots.
    const double below = epsilon_for_delta({sigma * (1 - 1e-4), q, steps}, delta).epsilon;
    QVERIFY2(below > epsilon,
             qPrintable(QString("sigma not minimal: %1 at sigma*(1-1e-4)").arg(below, 0, 'g', 17)));
  }

  void calibration_paper_mode() {
    const auto paper = paper_compatible_options();
    const double sigma = calibrate_noise_multiplier(2.0, 1e-5, 0.01, 1000, paper);
    QVERIFY(epsilon_for_delta({sigma, 0.01, 1000}, 1e-5, paper).epsilon <= 2.0);
    QVERIFY(sigma > calibrate_noise_multiplier(2.0, 1e-5, 0.01, 1000));  // classic is looser
  }

  // --- validation --------------------------------------------------------------------------
  void validation_names_the_field_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("field");
    QTest::newRow("sigma") << 0 << "noise_multiplier";
    QTest::newRow("q_high") << 1 << "sampling_rate";
    QTest::newRow("q_nan") << 2 << "sampling_rate";
    QTest::newRow("steps") << 3 << "steps";
    QTest::newRow("delta_zero") << 4 << "delta";
    QTest::newRow("delta_one") << 5 << "delta";
    QTest::newRow("epsilon") << 6 << "epsilon";
    QTest::newRow("calibrate_eps") << 7 << "target_epsilon";
    QTest::newRow("candidates") << 8 << "candidates";
    QTest::newRow("gamma") << 9 << "gamma";
    QTest::newRow("delta2") << 10 << "delta2";
    QTest::newRow("order") << 11 << "order";
  }
  void validation_names_the_field() {
    QFETCH(int, which);
    QFETCH(QString, field);
    const SubsampledGaussian ok{1.0, 0.01, 100};
    try {
      switch (which) {
        case 0:
          epsilon_for_delta({-1.0, 0.01, 100}, 1e-5);
          break;
        case 1:
          epsilon_for_delta({1.0, 1.5, 100}, 1e-5);
          break;
        case 2:
          epsilon_for_delta({1.0, NAN, 100}, 1e-5);
          break;
        case 3:
          epsilon_for_delta({1.0, 0.01, -3}, 1e-5);
          break;
        case 4:
          epsilon_for_delta(ok, 0.0);
          break;
        case 5:
          epsilon_for_delta(ok, 1.0);
          break;
        case 6:
          delta_for_epsilon(ok, -1.0);
          break;
        case 7:
          calibrate_noise_multiplier(0.0, 1e-5, 0.01, 100);
          break;
        case 8:
          moments_accountant_selection(ok, 0, 1e-5);
          break;
        case 9:
          liu_talwar_selection(ok, 1.5, 1e-5);
          break;
        case 10:
          liu_talwar_selection(ok, 1.0, 1e-5, 1e-4);
          break;
        case 11:
          log_moment_subsampled_gaussian(1.0, 0.1, 1.0);
          break;
      }
      QFAIL("no exception");
    } catch (const dplab::InvalidArgument& e) {
      const QString message = e.what();
      QVERIFY2(message.startsWith(field + " = "), qPrintable(message));
    }
  }

  // --- extremes ----------------------------------------------------------------------------
  void extreme_inputs_are_finite_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("q");
    for (double sigma : {0.3, 1.0, 100.0})
      for (double q : {1e-6, 0.01, 0.5, 1.0}) {
        QTest::newRow(qPrintable(QString("s%1_q%2").arg(sigma).arg(q))) << sigma << q;
      }
  }
  void extreme_inputs_are_finite() {
    QFETCH(double, sigma);
    QFETCH(double, q);
    for (std::int64_t t : {std::int64_t{1}, std::int64_t{10'000'000}}) {
      const auto r = epsilon_for_delta({sigma, q, t}, 1e-5);
      QVERIFY2(std::isfinite(r.epsilon) && r.epsilon >= 0,
               qPrintable(QString("eps = %1").arg(r.epsilon)));
      QVERIFY(std::isfinite(r.best_order) && r.best_order >= 1);  // 1: the KL bound
      const double d = delta_for_epsilon({sigma, q, t}, 1.0);
      QVERIFY(std::isfinite(d) && d >= 0 && d <= 1);
    }
    for (double order : {1.1, 1.5, 2.0, 10.9, 64.0, 1024.0}) {
      const double rdp = rdp_subsampled_gaussian(sigma, q, order);
      QVERIFY2(std::isfinite(rdp) && rdp >= 0,
               qPrintable(QString("rdp(%1) = %2").arg(order).arg(rdp)));
    }
  }

  void cache_is_used() {
    clear_rdp_cache();
    QCOMPARE(rdp_cache_size(), std::size_t{0});
    epsilon_for_delta({3.0, 0.02, 10}, 1e-5);
    epsilon_for_delta({3.0, 0.02, 1000}, 1e-6);
    moments_accountant_selection({3.0, 0.02, 1000}, 7, 1e-5);
    QCOMPARE(rdp_cache_size(), std::size_t{1});
    const auto a = rdp_curve(3.0, 0.02);
    const auto b = rdp_curve(3.0, 0.02);
    QCOMPARE(a.get(), b.get());
  }
};

DPLAB_TEST_APPLESS_MAIN(TestRdpAccountant)
#include "test_rdp_accountant.moc"
