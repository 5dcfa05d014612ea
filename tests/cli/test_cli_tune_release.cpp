// `dplab-cli tune --release explore|private`, end to end through the real binary on the tiny
// experiment: every printed epsilon is the one its own `recompute:` command gives with
// `dplab-cli account`; a private LT search trains only the runs it drew (far fewer than the
// grid) and releases only winners; secure mode writes no seed anywhere and two runs differ.
#include <sqlite3.h>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_runner.h"
#include "support/numeric_compare.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

nlohmann::json summary_of(const QString& dir) {
  return nlohmann::json::parse(read_file(dir + "/summary.json").toStdString());
}

// Runs the `recompute:` line of a tune output and returns the epsilon it prints.
double recomputed_epsilon(const QString& out) {
  const auto match = QRegularExpression("recompute: dplab-cli (.*)").match(out);
  if (!match.hasMatch()) return -1;
  const CliRun r = run_cli(match.captured(1).trimmed().split(' '));
  if (r.exit_code != 0) return -2;
  return nlohmann::json::parse(r.out.toStdString())["epsilon"].get<double>();
}

// All values of jobs.seed and every config_json in the SQLite run history.
std::string sqlite_dump(const std::string& path) {
  sqlite3* db = nullptr;
  std::string out;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
    return "cannot open";
  for (const char* sql : {"SELECT seed FROM jobs", "SELECT config_json FROM experiments",
                          "SELECT json FROM summaries"}) {
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      out += reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
      out += '\n';
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return out;
}

}  // namespace

class TestCliTuneRelease : public QObject {
  Q_OBJECT

 private slots:
  void explore_charges_all_runs() {
    dplab::testing::TempFiles tmp;
    const std::string config = tmp.write("tiny.json", dplab::testing::tiny_experiment_json(50, 2));
    const QString out = QString::fromStdString(tmp.path("out"));
    const CliRun r = run_cli(
        {"tune", "--config", QString::fromStdString(config), "--threads", "1", "--out", out});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto s = summary_of(out);
    QCOMPARE(s["release"]["mode"].get<std::string>(), std::string("explore"));
    QCOMPARE(s["release"]["runs_trained"].get<int>(), 10);  // 5 candidates x 2 repeats
    const double eps = s["release"]["epsilon"].get<double>();
    DPLAB_COMPARE_REL(recomputed_epsilon(r.out), eps, 1e-12);
    // Printed rounded up, with mode, delta and the validation assumption.
    const QString shown =
        QString::fromStdString(s["release"]["epsilon_rounded_up"].get<std::string>());
    QVERIFY(shown.toDouble() >= eps && shown.toDouble() < eps + 0.01);
    QVERIFY2(r.out.contains("eps <= " + shown + " (explore: all 10 runs trained"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("validation: public"));
    QVERIFY(r.out.contains("planning: MA over K"));
    // The K-only MA figure of an optimizer is below the cost of what was released.
    QVERIFY(s["optimizers"][0]["epsilon_ma"].get<double>() < eps);
  }

  void private_lt_trains_only_its_draws() {
    dplab::testing::TempFiles tmp;
    std::string text = dplab::testing::tiny_experiment_json(50, 3);
    text.replace(text.find("\"seed\": 42"), 10, "\"seed\": 42, \"tuning\": {\"gamma\": 0.5}");
    const std::string config = tmp.write("tiny.json", text);
    const QString out = QString::fromStdString(tmp.path("out"));
    const CliRun r = run_cli({"tune", "--config", QString::fromStdString(config), "--threads", "2",
                              "--out", out, "--release", "private", "--strategy", "lt"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto s = summary_of(out);
    QCOMPARE(s["release"]["selection"].get<std::string>(), std::string("lt"));
    QCOMPARE(s["release"]["hard_stop"].get<int>(), 93);  // ceil(ln(1e20) / 0.5)
    // The runs trained are curator-only (issue #23 item 2): in curator-only.json, not here.
    const auto curator = nlohmann::json::parse(read_file(out + "/curator-only.json").toStdString());
    int sum = 0;
    for (const auto& rep : curator["replicates"]) sum += rep["runs_trained"].get<int>();
    for (const auto& rep : s["replicates"]) QVERIFY(rep["released_candidate"].is_object());
    QCOMPARE(s["replicates"].size(), std::size_t{3});
    QCOMPARE(curator["runs_trained"].get<int>(), sum);
    QVERIFY(sum < 15);  // the grid would train 5 x 3; E[runs] = 2 per replicate
    // `recompute` gives one replicate search; the headline composes the 3 (basic composition
    // for LT: 3 eps, 3 delta).
    const double per = s["release"]["epsilon_per_replicate"].get<double>();
    DPLAB_COMPARE_REL(recomputed_epsilon(r.out), per, 1e-12);
    DPLAB_COMPARE_REL(s["release"]["epsilon"].get<double>(), 3 * per, 1e-12);
    DPLAB_COMPARE_REL(s["release"]["delta"].get<double>(),
                      3 * s["release"]["delta_per_replicate"].get<double>(), 1e-12);
    QVERIFY(s["released_accuracy"]["mean"].is_number());
    // Only winners: no per-run curves, no training losses.
    QVERIFY(!QFile::exists(out + "/curves.csv"));
    const QByteArray winners = read_file(out + "/winners.csv");
    QVERIFY2(winners.startsWith("replicate,candidate,label,iteration,val_accuracy,epsilon_label\n"),
             winners.constData());
    QVERIFY(winners.contains(",\"eps <= "));
    QVERIFY(!winners.contains("loss"));
  }

  void private_ma_and_ps_recompute() {
    for (const QStringList& extra :
         {QStringList{"--strategy", "ma"},
          QStringList{"--strategy", "ps", "--ps-distribution", "poisson", "--ps-mu", "2"},
          QStringList{"--strategy", "ps", "--ps-distribution", "tnb", "--ps-eta", "1", "--ps-gamma",
                      "0.5"}}) {
      dplab::testing::TempFiles tmp;
      const std::string config =
          tmp.write("tiny.json", dplab::testing::tiny_experiment_json(30, 1));
      const QString out = QString::fromStdString(tmp.path("out"));
      const CliRun r = run_cli(QStringList{"tune", "--config", QString::fromStdString(config),
                                           "--threads", "2", "--out", out, "--release", "private"} +
                               extra);
      QVERIFY2(r.exit_code == 0, qPrintable(r.err));
      const auto s = summary_of(out);
      DPLAB_COMPARE_REL(recomputed_epsilon(r.out), s["release"]["epsilon"].get<double>(), 1e-12);
      if (extra[1] == "ma") {
        const auto curator =
            nlohmann::json::parse(read_file(out + "/curator-only.json").toStdString());
        QCOMPARE(curator["runs_trained"].get<int>(), 5);
      }
    }
  }

  void secure_writes_no_seed_and_differs() {
    dplab::testing::TempFiles tmp;
    const std::string config = tmp.write("tiny.json", dplab::testing::tiny_experiment_json(40, 1));
    QByteArray winners[2];
    for (int i = 0; i < 2; ++i) {
      const QString out = QString::fromStdString(tmp.path(i == 0 ? "a" : "b"));
      const std::string db = tmp.path(i == 0 ? "a.sqlite" : "b.sqlite");
      const CliRun r = run_cli({"tune", "--config", QString::fromStdString(config), "--threads",
                                "2", "--out", out, "--db", QString::fromStdString(db), "--release",
                                "private", "--strategy", "ma", "--secure"});
      QVERIFY2(r.exit_code == 0, qPrintable(r.err));
      QVERIFY(!r.out.contains("seed", Qt::CaseInsensitive) ||
              r.out.contains("no seed was written"));
      QVERIFY(!r.err.contains("seed", Qt::CaseInsensitive));
      const QByteArray summary = read_file(out + "/summary.json");
      QVERIFY(!summary.isEmpty());
      QVERIFY(!summary.contains("\"seed\""));
      QVERIFY(summary.contains("no seed was written"));
      winners[i] = read_file(out + "/winners.csv");
      // No seed column or value; the label's noise source says none was written.
      QVERIFY(!winners[i].split('\n').front().contains("seed"));
      QVERIFY(winners[i].contains("no seed was written"));
      QVERIFY(!winners[i].contains("not secure"));
      const std::string stored = sqlite_dump(db);
      QVERIFY(stored.find("\"seed\"") == std::string::npos);  // config_json without seed
      // Every jobs.seed is 0.
      QVERIFY(QString::fromStdString(stored).startsWith("0\n0\n0\n0\n0\n"));
      // The history says what was charged: private ma, 5 runs charged (the runs trained are
      // curator-only); `show` prints only the released winner.
      const CliRun list =
          run_cli({"history", "list", "--db", QString::fromStdString(db), "--json"});
      QVERIFY2(list.exit_code == 0, qPrintable(list.err));
      QVERIFY2(list.out.contains("\"release_mode\": \"private ma\"") &&
                   !list.out.contains("\"runs_trained\"") &&
                   list.out.contains("\"runs_charged\": 5"),
               qPrintable(list.out));
      const CliRun show =
          run_cli({"history", "show", "--db", QString::fromStdString(db), "--id", "1"});
      QVERIFY2(show.exit_code == 0 && show.out.contains("released winner(s)") &&
                   show.out.contains("replicate 1:"),
               qPrintable(show.out + show.err));
    }
    QVERIFY(winners[0] != winners[1]);  // same config, different noise
  }

  void bad_release_flags_exit_2() {
    dplab::testing::TempFiles tmp;
    const QString config =
        QString::fromStdString(tmp.write("tiny.json", dplab::testing::tiny_experiment_json(10, 1)));
    const QString out = QString::fromStdString(tmp.path("o"));
    const CliRun a = run_cli({"tune", "--config", config, "--out", out, "--strategy", "lt"});
    QCOMPARE(a.exit_code, 2);
    QVERIFY2(a.err.contains("--strategy"), qPrintable(a.err));
    const CliRun b = run_cli({"tune", "--config", config, "--out", out, "--secure"});
    QCOMPARE(b.exit_code, 2);
    QVERIFY2(b.err.contains("--secure"), qPrintable(b.err));
    const CliRun c = run_cli({"tune", "--config", config, "--out", out, "--release", "private",
                              "--validation", "private"});
    QCOMPARE(c.exit_code, 2);
    QVERIFY2(c.err.contains("--validation-noise"), qPrintable(c.err));
    const CliRun d = run_cli({"tune", "--config", config, "--out", out, "--release", "secret"});
    QCOMPARE(d.exit_code, 2);
    QVERIFY(d.err.contains("--release"));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestCliTuneRelease)
#include "test_cli_tune_release.moc"
