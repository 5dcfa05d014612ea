// dplab-cli --accountant rdp|pld on account and calibrate: RDP is the default, PLD on request for
// one run and MA and agrees with dp_accounting's reference to 1%; LT takes a PLD base run when
// asked and gets tighter; Papernot-Steinke refuses PLD; bad values are usage errors naming the
// flag.
#include <QTest>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_runner.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using dplab::testing::run_cli;

namespace {

nlohmann::json json_of(const QStringList& args) {
  const auto r = run_cli(args);
  if (r.exit_code != 0) qFatal("exit %d: %s", r.exit_code, qPrintable(r.err));
  return nlohmann::json::parse(r.out.toStdString());
}

// fig1_n60000_floor_1_over_n of tests/data/accounting.json.
const QStringList kRun{"account",
                       "--noise-multiplier",
                       "4",
                       "--sample-rate",
                       "0.004166666666666667",
                       "--steps",
                       "10000",
                       "--delta",
                       "1e-5"};
constexpr double kRdp = 0.4010421255243527, kDpAccounting = 0.3639756768088734;

}  // namespace

class TestCliAccountant : public QObject {
  Q_OBJECT
 private slots:
  void single_run_defaults_to_rdp() {
    const auto j = json_of(kRun);
    QCOMPARE(j["accountant"].get<std::string>(), std::string("rdp"));
    DPLAB_COMPARE_REL(j["epsilon"].get<double>(), kRdp, 1e-4);
  }

  void single_run_with_pld() {
    auto args = kRun;
    args << "--accountant"
         << "pld";
    const auto j = json_of(args);
    QCOMPARE(j["accountant"].get<std::string>(), std::string("pld"));
    QVERIFY(j["accountant_label"].get<std::string>().rfind("accountant: pld", 0) == 0);
    QVERIFY(j["accountant_label"].get<std::string>().find("(Richardson)") != std::string::npos);
    QVERIFY(!j.contains("pld_error_bound"));  // named for what it is: an estimate
    DPLAB_COMPARE_REL(j["epsilon"].get<double>(), kDpAccounting, 1e-2);
    QVERIFY(j["epsilon"].get<double>() >= kDpAccounting - j["pld_error_estimate"].get<double>());
    DPLAB_COMPARE_REL(j["epsilon_rdp"].get<double>(), kRdp, 1e-4);
    QVERIFY(j["pld_discretization"].get<double>() > 0);
    QVERIFY(j["pld_tail_mass"].get<double>() > 0);
  }

  void rdp_on_request_and_for_the_paper_conversion() {
    auto args = kRun;
    args << "--accountant"
         << "rdp";
    const auto j = json_of(args);
    QCOMPARE(j["accountant"].get<std::string>(), std::string("rdp"));
    DPLAB_COMPARE_REL(j["epsilon"].get<double>(), kRdp, 1e-4);
    auto paper = kRun;
    paper << "--conversion"
          << "classic";
    QCOMPARE(json_of(paper)["accountant"].get<std::string>(), std::string("rdp"));
  }

  void ma_with_pld() {
    auto args = kRun;
    args << "--candidates"
         << "4";
    QCOMPARE(json_of(args)["accountant"].get<std::string>(), std::string("rdp"));  // default
    args << "--accountant"
         << "pld";
    const auto j = json_of(args);
    QCOMPARE(j["accountant"].get<std::string>(), std::string("pld"));
    DPLAB_COMPARE_REL(j["epsilon"].get<double>(), 0.773622167514496, 1e-2);  // kfold K4 reference
    QVERIFY(j["epsilon"].get<double>() < j["epsilon_rdp"].get<double>());
    QVERIFY(j["epsilon_single_run"].get<double>() < j["epsilon"].get<double>());
  }

  void liu_talwar_with_a_pld_base_run() {
    auto args = kRun;
    args << "--candidates"
         << "10"
         << "--selection"
         << "lt";
    QCOMPARE(json_of(args)["accountant"].get<std::string>(), std::string("rdp"));  // LT default
    args << "--accountant"
         << "pld";
    const auto j = json_of(args);
    QCOMPARE(j["accountant"].get<std::string>(), std::string("pld"));
    QVERIFY(j["epsilon"].get<double>() < j["epsilon_with_rdp_base_run"].get<double>());
    QVERIFY(j["epsilon_per_run"].get<double>() < j["epsilon_per_run_rdp"].get<double>());
  }

  void calibrate_with_pld_never_overshoots() {
    const auto j = json_of({"calibrate", "--epsilon", "1", "--delta", "1e-5", "--sample-rate",
                            "0.004", "--steps", "5000", "--accountant", "pld"});
    QCOMPARE(j["accountant"].get<std::string>(), std::string("pld"));
    QVERIFY(j["epsilon"].get<double>() <= 1.0);
    QVERIFY(j["epsilon"].get<double>() >= 1.0 * (1 - 2e-3));
    QVERIFY(j["noise_multiplier"].get<double>() < j["noise_multiplier_rdp"].get<double>());
  }

  void usage_errors_name_the_flag() {
    for (const auto& extra :
         {QStringList{"--accountant", "prv"}, QStringList{"--pld-precision", "max"},
          QStringList{"--selection", "ps", "--ps-distribution", "poisson", "--ps-mu", "10",
                      "--accountant", "pld"},
          QStringList{"--accountant", "pld", "--conversion", "classic"}}) {
      auto args = kRun;
      args << extra;
      const auto r = run_cli(args);
      QCOMPARE(r.exit_code, 2);
      QVERIFY2(r.err.contains(extra.contains("--pld-precision") ? "--pld-precision" : "--"),
               qPrintable(r.err));
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestCliAccountant)
#include "test_cli_accountant.moc"
