// Tests of `dplab-cli account` and `dplab-cli calibrate`, run as a process: JSON fields and
// values for reference cases, the sweep CSV, and exit status 2 with the flag named in stderr
// for each invalid input. The binary is $DPLAB_CLI (set by CTest).
#include <QTest>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_runner.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using dplab::testing::run_cli;

namespace {

const QStringList kRun5k{
    "account", "--noise-multiplier", "4", "--sampling-rate", "0.05", "--steps", "10000", "--delta",
    "1e-4"};

}  // namespace

class TestCliAccount : public QObject {
  Q_OBJECT

 private slots:
  void single_run_json() {
    const auto r = run_cli(kRun5k);
    QCOMPARE(r.exit_code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString());
    // tests/data/accounting.json fig1_n5000: rdp 5.5632455963733, pld 5.0799726494.
    QVERIFY(j["epsilon"].get<double>() <= 5.563245596373326 * (1 + 1e-4));
    QVERIFY(j["epsilon"].get<double>() >= 5.079972649402302 * (1 - 1e-3));
    QCOMPARE(j["delta"].get<double>(), 1e-4);
    QVERIFY(j["best_order"].get<double>() > 1.0);
    QCOMPARE(j["selection"].get<std::string>(), std::string("none"));
    QCOMPARE(j["candidates"].get<int>(), 1);
    QCOMPARE(j["conversion"].get<std::string>(), std::string("improved"));
    QVERIFY(j.contains("order_at_grid_edge"));
  }

  void paper_conversion() {
    auto args = kRun5k;
    args << "--conversion"
         << "classic";
    const auto j = nlohmann::json::parse(run_cli(args).out.toStdString());
    DPLAB_COMPARE_REL(j["epsilon"].get<double>(), 6.281904505709237, 1e-3);
  }

  void lt_json() {
    auto args = kRun5k;
    args << "--selection"
         << "lt"
         << "--gamma"
         << "1";
    const auto r = run_cli(args);
    QCOMPARE(r.exit_code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["selection"].get<std::string>(), std::string("lt"));
    QVERIFY(j["epsilon"].get<double>() <= 29.025580491018182 * (1 + 1e-4));
    DPLAB_COMPARE_REL(j["delta_per_run"].get<double>(), 2.357646212645174e-12, 1e-9);
    DPLAB_COMPARE_REL(j["upsilon"].get<double>(), 46.051701859880914, 1e-9);
    QVERIFY(j["epsilon_per_run"].get<double>() <= 9.675191325533651 * (1 + 1e-4));
    QCOMPARE(j["gamma"].get<double>(), 1.0);
    // Default gamma = 1/K, log base 2 gives a larger Upsilon.
    auto args2 = kRun5k;
    args2 << "--selection"
          << "lt"
          << "--candidates"
          << "10"
          << "--lt-log-base"
          << "2";
    const auto j2 = nlohmann::json::parse(run_cli(args2).out.toStdString());
    DPLAB_COMPARE_REL(j2["gamma"].get<double>(), 0.1, 1e-15);
    DPLAB_COMPARE_REL(j2["upsilon"].get<double>(), 10 * 20 * std::log2(10.0), 1e-12);
  }

  void ma_json() {
    const auto r =
        run_cli({"account", "--noise-multiplier", "4", "--sampling-rate", "0.004166666666666667",
                 "--steps", "10000", "--delta", "1e-5", "--candidates", "4"});
    QCOMPARE(r.exit_code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["selection"].get<std::string>(), std::string("ma"));
    QCOMPARE(j["candidates"].get<int>(), 4);
    // kfold_n60000_floor_1_over_n_K4: rdp 0.84707591941996, pld 0.77362216751
    QVERIFY(j["epsilon"].get<double>() <= 0.8470759194199649 * (1 + 1e-4));
    QVERIFY(j["epsilon"].get<double>() >= 0.773622167514496 * (1 - 1e-3));
  }

  void sweep_csv() {
    auto args = kRun5k;
    args << "--sweep-candidates"
         << "1:200";
    const auto r = run_cli(args);
    QCOMPARE(r.exit_code, 0);
    const QStringList lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 201);
    QCOMPARE(lines[0], QString("K,eps_ma,eps_lt"));
    QVERIFY(lines[1].startsWith("1,"));
    QVERIFY(lines[200].startsWith("200,"));
    for (int i = 1; i <= 200; ++i) {
      const auto fields = lines[i].split(',');
      QCOMPARE(fields.size(), 3);
      bool ok1 = false, ok2 = false;
      QVERIFY(std::isfinite(fields[1].toDouble(&ok1)) && ok1);
      QVERIFY(std::isfinite(fields[2].toDouble(&ok2)) && ok2);
    }
  }

  void calibrate_json() {
    const auto r = run_cli({"calibrate", "--epsilon", "2", "--delta", "1e-5", "--sampling-rate",
                            "0.01", "--steps", "1000"});
    QCOMPARE(r.exit_code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString());
    QVERIFY(j["noise_multiplier"].get<double>() > 0.5 && j["noise_multiplier"].get<double>() < 2.0);
    QVERIFY(j["epsilon"].get<double>() <= 2.0);
    QVERIFY(j["epsilon"].get<double>() >= 2.0 * (1 - 1e-3));
  }

  // The old spelling --sample-rate stays accepted (hidden) and means the same q.
  void sample_rate_alias() {
    QStringList old = kRun5k;
    old[old.indexOf("--sampling-rate")] = "--sample-rate";
    const auto r = run_cli(old);
    QCOMPARE(r.exit_code, 0);
    QCOMPARE(r.out, run_cli(kRun5k).out);
    const auto j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["sampling_rate"].get<double>(), 0.05);
    QVERIFY(!run_cli({"account", "--help"}).out.contains("--sample-rate"));
    const auto both = run_cli(QStringList(kRun5k) << "--sample-rate"
                                                  << "0.1");
    QCOMPARE(both.exit_code, 2);
    QVERIFY2(both.err.contains("--sampling-rate is given twice"), qPrintable(both.err));
  }

  void help_exits_zero() {
    const auto r = run_cli({"account", "--help"});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.out.contains("--noise-multiplier"));
    QCOMPARE(run_cli({"calibrate", "--help"}).exit_code, 0);
  }

  void invalid_input_exits_2_naming_the_flag_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("flag");
    auto with = [](const QString& flag, const QString& value) {
      QStringList args = kRun5k;
      const int at = args.indexOf(flag);
      if (at >= 0) {
        args[at + 1] = value;
      } else {
        args << flag << value;
      }
      return args;
    };
    QTest::newRow("sigma_negative") << with("--noise-multiplier", "-1") << "--noise-multiplier";
    QTest::newRow("sigma_zero") << with("--noise-multiplier", "0") << "--noise-multiplier";
    QTest::newRow("q_zero") << with("--sampling-rate", "0") << "--sampling-rate";
    QTest::newRow("q_above_one") << with("--sampling-rate", "1.5") << "--sampling-rate";
    QTest::newRow("steps_zero") << with("--steps", "0") << "--steps";
    QTest::newRow("steps_text") << with("--steps", "many") << "--steps";
    QTest::newRow("delta_zero") << with("--delta", "0") << "--delta";
    QTest::newRow("delta_one") << with("--delta", "1") << "--delta";
    QTest::newRow("candidates_zero") << with("--candidates", "0") << "--candidates";
    QTest::newRow("gamma_zero") << (with("--gamma", "0") << "--selection"
                                                         << "lt")
                                << "--gamma";
    QTest::newRow("gamma_above_one") << (with("--gamma", "1.5") << "--selection"
                                                                << "lt")
                                     << "--gamma";
    QTest::newRow("selection_bad") << with("--selection", "best") << "--selection";
    QTest::newRow("conversion_bad") << with("--conversion", "tight") << "--conversion";
    QTest::newRow("log_base_bad") << with("--lt-log-base", "10") << "--lt-log-base";
    QTest::newRow("sweep_bad") << with("--sweep-candidates", "5") << "--sweep-candidates";
    // Flags the selected mode does not read are refused, not ignored (issue #24 item 6).
    QTest::newRow("delta2_without_lt") << (with("--delta2", "1e-10") << "--candidates"
                                                                     << "5"
                                                                     << "--selection"
                                                                     << "ma")
                                       << "--delta2 needs --selection lt";
    QTest::newRow("log_base_without_lt") << (with("--lt-log-base", "2") << "--candidates"
                                                                        << "5"
                                                                        << "--selection"
                                                                        << "ma")
                                         << "--lt-log-base needs --selection lt";
    QTest::newRow("pld_precision_with_rdp")
        << with("--pld-precision", "tight") << "--pld-precision is a PLD setting";
    QTest::newRow("calibrate_pld_precision_with_rdp")
        << QStringList{"calibrate", "--epsilon", "1",  "--delta",      "1e-5", "--sampling-rate",
                       "0.01",      "--steps",   "10", "--accountant", "rdp",  "--pld-precision",
                       "fast"}
        << "--pld-precision is a PLD setting";
    QTest::newRow("unknown_flag") << with("--noise", "1") << "--noise";
    QTest::newRow("missing_delta")
        << QStringList{"account", "--noise-multiplier", "1", "--sampling-rate", "0.1", "--steps",
                       "10"}
        << "--delta";
    QTest::newRow("calibrate_eps")
        << QStringList{"calibrate",       "--epsilon", "-1",      "--delta", "1e-5",
                       "--sampling-rate", "0.01",      "--steps", "10"}
        << "--epsilon";
    QTest::newRow("calibrate_q") << QStringList{"calibrate", "--epsilon", "1",
                                                "--delta",   "1e-5",      "--sampling-rate",
                                                "2",         "--steps",   "10"}
                                 << "--sampling-rate";
  }
  void invalid_input_exits_2_naming_the_flag() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, flag);
    const auto r = run_cli(arguments);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(flag), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
  }
};

DPLAB_TEST_APPLESS_MAIN(TestCliAccount)
#include "test_cli_account.moc"
