// Tests of the accountant choice (engine/privacy/accounting/accountant_choice.h) and the RDP-vs-PLD
// gap series (accountant_comparison.h): parsing, Liu-Talwar fed a PLD base run, composition of many
// runs under both accountants, series monotonicity and ordering.
#include <QTest>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "privacy/accounting/accountant_choice.h"
#include "privacy/accounting/accountant_comparison.h"
#include "privacy/selection/private_selection.h"
#include "support/accounting_reference.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab::privacy;

class TestAccountantChoice : public QObject {
  Q_OBJECT

 private slots:
  void parse_and_print() {
    QCOMPARE(parse_accountant("rdp"), Accountant::kRdp);
    QCOMPARE(parse_accountant("pld"), Accountant::kPld);
    QCOMPARE(std::string(to_string(Accountant::kPld)), std::string("pld"));
    try {
      parse_accountant("prv");
      QFAIL("no exception");
    } catch (const dplab::InvalidArgument& e) {
      QVERIFY(std::string(e.what()).find("accountant") != std::string::npos);
    }
  }

  void labels_name_the_accountant_and_the_error() {
    const auto pld = run_epsilon({4.0, 0.004, 1000}, 1, 1e-5, Accountant::kPld);
    const auto label = accountant_label(pld);
    QVERIFY(label.rfind("accountant: pld", 0) == 0);
    // The error is a Richardson estimate, not a bound: the label must not read "error <=".
    QVERIFY(label.find("estimated error ~") != std::string::npos);
    QVERIFY(label.find("(Richardson)") != std::string::npos);
    QVERIFY(label.find("error <=") == std::string::npos);
    QCOMPARE(accountant_label(run_epsilon({4.0, 0.004, 1000}, 1, 1e-5, Accountant::kRdp)),
             std::string("accountant: rdp"));
  }

  void liu_talwar_with_a_pld_base_run_is_tighter() {
    const auto& data = dplab::test::accounting_reference();
    int seen = 0;
    for (const auto& c : data["cases"]) {
      if (c["kind"] != "liu_talwar") continue;
      ++seen;
      const SubsampledGaussian run{c["noise_multiplier"].get<double>(),
                                   c["sample_rate"].get<double>(), c["steps"].get<std::int64_t>()};
      const double gamma = c["gamma"].get<double>(), delta = c["delta"].get<double>(),
                   delta2 = c["delta2"].get<double>();
      const auto rdp = liu_talwar_selection_with(run, gamma, delta, Accountant::kRdp, delta2);
      const auto pld = liu_talwar_selection_with(run, gamma, delta, Accountant::kPld, delta2);
      // Same theorem, same delta1; only eps1 changes, and PLD's is smaller.
      QCOMPARE(pld.delta_per_run, rdp.delta_per_run);
      QVERIFY(pld.epsilon_per_run < rdp.epsilon_per_run);
      QVERIFY(pld.epsilon < rdp.epsilon);
      DPLAB_COMPARE_REL(pld.epsilon, 3 * pld.epsilon_per_run + 3 * std::sqrt(2 * pld.delta_per_run),
                        1e-14);
      // RDP's reference LT value is unchanged by the choice machinery.
      QVERIFY(rdp.epsilon <= c["epsilon"].get<double>() * (1 + 1e-4));
      // eps1 at delta1 (~1e-16) is not below the single run's epsilon at the larger delta.
      QVERIFY(pld.epsilon_per_run > pld_epsilon_for_delta(run, delta).epsilon);
    }
    QVERIFY(seen > 0);
  }

  void runs_compose_under_both_accountants() {
    const SubsampledGaussian a{1.0, 0.01, 400}, b{1.0, 0.01, 600}, whole{1.0, 0.01, 1000},
        c{2.0, 0.05, 300};
    const std::vector<SubsampledGaussian> split{a, b}, mixed{a, c};
    // RDP: the shared-grid sum equals the single run up to the single run's order refinement.
    const double rdp_split = runs_epsilon(split, 1e-5, Accountant::kRdp).epsilon;
    const double rdp_whole = run_epsilon(whole, 1, 1e-5, Accountant::kRdp).epsilon;
    QVERIFY(rdp_split >= rdp_whole * (1 - 1e-12));
    DPLAB_COMPARE_REL(rdp_split, rdp_whole, 2e-3);
    for (const auto accountant : {Accountant::kRdp, Accountant::kPld}) {
      const double both = runs_epsilon(mixed, 1e-5, accountant).epsilon;
      QVERIFY(both > run_epsilon(a, 1, 1e-5, accountant).epsilon);
      QVERIFY(both > run_epsilon(c, 1, 1e-5, accountant).epsilon);
    }
    QVERIFY(runs_epsilon(mixed, 1e-5, Accountant::kPld).epsilon <
            runs_epsilon(mixed, 1e-5, Accountant::kRdp).epsilon);
  }

  void calibration_under_each_accountant() {
    const double rdp = calibrate_noise_multiplier_with(2.0, 1e-5, 0.01, 1000, Accountant::kRdp);
    const double pld = calibrate_noise_multiplier_with(2.0, 1e-5, 0.01, 1000, Accountant::kPld);
    QVERIFY(pld < rdp);
    QVERIFY(run_epsilon({pld, 0.01, 1000}, 1, 1e-5, Accountant::kPld).epsilon <= 2.0);
    QVERIFY(run_epsilon({rdp, 0.01, 1000}, 1, 1e-5, Accountant::kRdp).epsilon <= 2.0);
  }

  void gap_series_order_and_growth() {
    const SubsampledGaussian run{1.1, 0.01, 500};
    const auto vs_t = accountant_gap_vs_steps(run, 1e-5, 10, 5000, 6);
    QVERIFY(vs_t.size() >= 5);
    QCOMPARE(vs_t.front().x, std::int64_t{10});
    QCOMPARE(vs_t.back().x, std::int64_t{5000});
    for (std::size_t i = 0; i < vs_t.size(); ++i) {
      QVERIFY(vs_t[i].epsilon_pld <= vs_t[i].epsilon_rdp);
      if (i > 0) {
        QVERIFY(vs_t[i].x > vs_t[i - 1].x);
        QVERIFY(vs_t[i].epsilon_rdp > vs_t[i - 1].epsilon_rdp);
        QVERIFY(vs_t[i].epsilon_pld > vs_t[i - 1].epsilon_pld);
      }
    }
    const auto vs_k = accountant_gap_vs_candidates(run, 1e-5, 20, 5);
    QCOMPARE(vs_k.front().x, std::int64_t{1});
    QCOMPARE(vs_k.back().x, std::int64_t{20});
    DPLAB_COMPARE_REL(vs_k.back().epsilon_pld, pld_selection_epsilon(run, 20, 1e-5).epsilon, 1e-12);
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, accountant_gap_vs_steps(run, 1e-5, 0, 10, 5));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestAccountantChoice)
#include "test_accountant_choice.moc"
