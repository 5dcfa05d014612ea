// Tests of `dplab-cli account --selection ps` (Papernot-Steinke random stopping), run as a
// process: the printed epsilon equals the engine's, satisfies the accounting.json reference
// criterion, and every inconsistent flag combination exits with status 2 naming the flag.
#include <QTest>
#include <nlohmann/json.hpp>
#include <string>

#include "privacy/selection/papernot_steinke.h"
#include "support/cli_runner.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using dplab::testing::run_cli;

namespace {

// accounting.json ps_poisson_mu10.
const QStringList kRun{"account",
                       "--noise-multiplier",
                       "4",
                       "--sample-rate",
                       "0.006910467976891395",
                       "--steps",
                       "2500",
                       "--delta",
                       "1e-6",
                       "--selection",
                       "ps"};

}  // namespace

class TestCliAccountPs : public QObject {
  Q_OBJECT

 private slots:
  void poisson_json() {
    const auto r = run_cli(kRun + QStringList{"--ps-distribution", "poisson", "--ps-mu", "10"});
    QCOMPARE(r.exit_code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["selection"].get<std::string>(), std::string("ps"));
    QCOMPARE(j["ps_distribution"].get<std::string>(), std::string("poisson"));
    QCOMPARE(j["expected_runs"].get<double>(), 10.0);
    const double eps = j["epsilon"].get<double>();
    QVERIFY(eps <= 0.8450806901588443 * (1 + 1e-4));
    QVERIFY(eps >= j["epsilon_single_run"].get<double>());
    DPLAB_COMPARE_REL(
        eps,
        dplab::privacy::papernot_steinke_poisson({4.0, 0.006910467976891395, 2500}, 10.0, 1e-6)
            .epsilon,
        1e-12);
  }

  void tnb_json() {
    const auto r = run_cli(
        kRun + QStringList{"--ps-distribution", "tnb", "--ps-eta", "1", "--ps-gamma", "0.1"});
    QCOMPARE(r.exit_code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString());
    DPLAB_COMPARE_REL(j["expected_runs"].get<double>(), 10.0, 1e-12);  // geometric: 1/gamma
    DPLAB_COMPARE_REL(
        j["epsilon"].get<double>(),
        dplab::privacy::papernot_steinke_tnb({4.0, 0.006910467976891395, 2500}, 1.0, 0.1, 1e-6)
            .epsilon,
        1e-12);
  }

  void bad_flags_data() {
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("flag");
    QTest::newRow("no_distribution") << QStringList{} << "--ps-distribution";
    QTest::newRow("unknown_distribution")
        << QStringList{"--ps-distribution", "zipf"} << "--ps-distribution";
    QTest::newRow("mu_below_1") << QStringList{"--ps-distribution", "poisson", "--ps-mu", "0.5"}
                                << "--ps-mu";
    QTest::newRow("missing_mu") << QStringList{"--ps-distribution", "poisson"} << "--ps-mu";
    QTest::newRow("eta_for_poisson")
        << QStringList{"--ps-distribution", "poisson", "--ps-mu", "2", "--ps-eta", "1"}
        << "--ps-eta";
    QTest::newRow("gamma_1") << QStringList{"--ps-distribution", "tnb", "--ps-eta", "1",
                                            "--ps-gamma",        "1"}
                             << "--ps-gamma";
    QTest::newRow("eta_minus_1") << QStringList{"--ps-distribution", "tnb", "--ps-eta", "-1",
                                                "--ps-gamma",        "0.5"}
                                 << "--ps-eta";
    QTest::newRow("candidates") << QStringList{"--candidates", "3",       "--ps-distribution",
                                               "poisson",      "--ps-mu", "2"}
                                << "--candidates";
  }
  void bad_flags() {
    QFETCH(QStringList, extra);
    QFETCH(QString, flag);
    const auto r = run_cli(kRun + extra);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(flag), qPrintable(r.err));
  }

  void ps_flags_need_ps() {
    const auto r = run_cli({"account", "--noise-multiplier", "1", "--sample-rate", "0.1", "--steps",
                            "10", "--delta", "1e-5", "--ps-mu", "3"});
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.err.contains("--ps-mu"));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestCliAccountPs)
#include "test_cli_account_ps.moc"
