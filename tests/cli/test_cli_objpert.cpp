// Tests of `dplab-cli objpert`, run as a process: one Algorithm 1 run (JSON with every bound's
// epsilon, the solver's reached gradient norm), both solvers, Figure 1's CSV, a tiny comparison
// preset, and exit status 2 naming the flag for bad input.
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::read_file;
using dplab::testing::run_cli;

class TestCliObjpert : public QObject {
  Q_OBJECT

 private slots:
  void listed_with_help() {
    const auto top = run_cli({"--help"});
    QCOMPARE(top.exit_code, 0);
    QVERIFY2(top.out.contains("\n  objpert "), qPrintable(top.out));
    const auto r = run_cli({"objpert", "--help"});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.out.contains("Usage: dplab-cli objpert"));
    QVERIFY(r.out.contains("--compare"));
  }

  void single_run_reports_every_bound() {
    const auto r = run_cli({"objpert", "--dataset", "synthetic-l", "--epsilon", "1", "--delta",
                            "1e-5", "--seed", "3"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto j = nlohmann::json::parse(r.out.toStdString());
    const double eps = j["epsilon"];
    QVERIFY(eps <= 1.0 && eps > 0.9);
    QCOMPARE(j["bounds"]["algorithm1_rdp_thm41"].get<double>(), eps);
    const auto& step = j["bounds"]["objective_perturbation_step_only"];
    const double g = step["gaussian_lower_bound"], h = step["profile_thm31"],
                 rdp = step["rdp_thm32"];
    QVERIFY(g <= h && h <= rdp && rdp <= eps);
    QVERIFY(!j["solver"].contains("gradient_norm"));  // data-dependent: not released
    QVERIFY(j["solver"]["iterations"].get<long>() >= 1);
    QCOMPARE(j["privacy"]["noise_factor"].get<double>(), 1.3);
    QCOMPARE(j["privacy"]["smoothness"].get<double>(), 0.5);
    const double acc = j["test_accuracy"];
    QVERIFY2(acc > 0.8 && acc <= 1.0, qPrintable(QString::number(acc)));
  }

  void gradient_descent_solver() {
    const auto r = run_cli({"objpert", "--dataset", "synthetic-l", "--epsilon", "0.1", "--delta",
                            "1e-5", "--solver", "gd"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["solver"]["kind"].get<std::string>(), std::string("gd"));
    QVERIFY(!j["solver"].contains("gradient_norm"));
  }

  void figure1_csv() {
    QTemporaryDir dir;
    const QString csv = dir.path() + "/fig1.csv";
    const auto r = run_cli({"objpert", "--bounds-csv", csv, "--sigma", "5", "--lambda", "20",
                            "--clip", "1", "--smoothness", "1", "--points", "5"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QList<QByteArray> lines = read_file(csv).trimmed().split('\n');
    QCOMPARE(lines.size(), 6);
    QCOMPARE(lines[0],
             QByteArray("delta,gaussian_lower_bound,profile_thm31,rdp_thm32,kifer_thm28"));
  }

  void tiny_comparison_preset() {
    QTemporaryDir dir;
    QFile preset(dir.path() + "/p.json");
    QVERIFY(preset.open(QIODevice::WriteOnly));
    preset.write(R"({"experiment": "objpert-vs-dpsgd", "dataset": {"source": "synthetic-l"},
      "epsilons": [1], "trials": 1,
      "dpsgd": {"lot_size": 200, "epochs": 1, "grid_size": 2, "prob_more_than_grid": 0.5}})");
    preset.close();
    const auto r = run_cli(
        {"objpert", "--compare", preset.fileName(), "--quiet", "--out", dir.path() + "/s.json"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto j = nlohmann::json::parse(read_file(dir.path() + "/s.json").toStdString());
    QCOMPARE(j["rows"].size(), std::size_t(1));
    const auto& row = j["rows"][0];
    for (const char* m : {"dishonest_dpsgd", "algorithm1", "honest_dpsgd"}) {
      QVERIFY(row[m]["epsilon"].get<double>() <= 1.0);
      QVERIFY(row[m].contains("epsilon_covers"));
    }
    QCOMPARE(j["dpsgd_steps"].get<long>(), 40L);  // 8,000 training rows / 200
  }

  void bad_usage_names_the_flag_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("flag");
    QTest::newRow("solver") << QStringList{"objpert", "--dataset", "synthetic-l", "--epsilon", "1",
                                           "--delta", "1e-5",      "--solver",    "adam"}
                            << "--solver";
    QTest::newRow("delta") << QStringList{"objpert", "--dataset", "synthetic-l", "--epsilon", "1",
                                          "--delta", "2"}
                           << "--delta";
    QTest::newRow("no mode") << QStringList{"objpert", "--epsilon", "1"} << "--dataset";
    QTest::newRow("lambda") << QStringList{"objpert", "--bounds-csv", "x.csv", "--sigma",
                                           "1",       "--lambda",     "0.5"}
                            << "--lambda";
    QTest::newRow("adult path")
        << QStringList{"objpert",      "--dataset", "adult", "--dataset-path",
                       "/nonexistent", "--epsilon", "1",     "--delta",
                       "1e-5"}
        << "--dataset";
    QTest::newRow("preset") << QStringList{"objpert", "--compare", "/nonexistent/p.json"}
                            << "--compare";
  }
  void bad_usage_names_the_flag() {
    QFETCH(QStringList, args);
    QFETCH(QString, flag);
    const auto r = run_cli(args);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(flag), qPrintable(r.err));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestCliObjpert)
#include "test_cli_objpert.moc"
