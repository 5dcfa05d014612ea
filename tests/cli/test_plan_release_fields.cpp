// Issue #45 items 2 and 3, the cluster path's release checks:
// - `tune --plan` and `slurm` refuse release mode private-subsampled up front (exit 2, naming
//   --plan / slurm and the mode), before any data is loaded, any job trained or any file written
//   (they trained the whole search on the login node, then exited 0 without a plan.json);
// - a non-default value in a release field the mode does not use ("ps_mu" in explore) gives a
//   plan whose id matches its content, so run-jobs and history merge take it (every one refused
//   it: "plan_id does not match the content").
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <string>

#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using dplab::testing::CliRun;
using dplab::testing::run_cli;

namespace {

// tiny_experiment_json with a "release" object added before the closing brace.
std::string with_release(const std::string& release) {
  std::string text = dplab::testing::tiny_experiment_json(50, 2);
  const auto end = text.rfind('}');
  return text.substr(0, end) + ", \"release\": " + release + "\n}";
}

}  // namespace

class PlanReleaseFieldsTest : public QObject {
  Q_OBJECT

  dplab::testing::TempFiles files_;

  QString path(const QString& name) const {
    return QString::fromStdString(files_.path(name.toUtf8().constData()));
  }
  QString write(const QString& name, const std::string& text) {
    return QString::fromStdString(files_.write(name.toUtf8().constData(), text));
  }

 private slots:
  void initTestCase() { QVERIFY(files_.isValid()); }

  void subsampledPlanIsRefused() {
    const QString tiny = write("tiny.json", dplab::testing::tiny_experiment_json(2000, 2));
    const QString in_file = write(
        "kk23.json",
        with_release(R"({"mode": "private-subsampled", "tuning_fraction": 0.5, "ps_mu": 2})"));
    QElapsedTimer timer;
    timer.start();
    const QString by_flag = path("plan-flag");
    const CliRun flag =
        run_cli({"tune", "--config", tiny, "--plan", by_flag, "--release", "private-subsampled"});
    QCOMPARE(flag.exit_code, 2);
    QVERIFY2(flag.err.contains("--plan") && flag.err.contains("slurm") &&
                 flag.err.contains("private-subsampled"),
             qPrintable(flag.err));
    QVERIFY(!QFile::exists(by_flag + "/plan.json"));
    const QString by_file = path("plan-file");
    const CliRun file = run_cli({"tune", "--config", in_file, "--plan", by_file});
    QCOMPARE(file.exit_code, 2);
    QVERIFY2(file.err.contains("private-subsampled"), qPrintable(file.err));
    QVERIFY(!QDir(by_file).exists());
    const QString slurm_dir = path("slurm-kk23");
    const CliRun slurm = run_cli({"slurm", in_file, "--out", slurm_dir});
    QCOMPARE(slurm.exit_code, 2);
    QVERIFY2(slurm.err.contains("slurm") && slurm.err.contains("private-subsampled"),
             qPrintable(slurm.err));
    QVERIFY(!QDir(slurm_dir).exists());
    const CliRun slurm_flag =
        run_cli({"slurm", tiny, "--out", path("slurm-flag"), "--release", "private-subsampled"});
    QCOMPARE(slurm_flag.exit_code, 2);
    QVERIFY(!QDir(path("slurm-flag")).exists());
    // Nothing was trained: 2000 steps x 5 candidates x 2 repeats would take seconds.
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
  }

  void unusedReleaseFieldPlanRunsAndMerges() {
    // ps_mu (Papernot-Steinke's mean) and a TNB gamma mean nothing in explore or private MA.
    const std::string releases[] = {
        R"({"mode": "explore", "ps_mu": 5})",
        R"({"mode": "private", "selection": "ma", "ps_gamma": 0.3, "ps_mu": 3})"};
    for (int i = 0; i < 2; ++i) {
      const std::string& release = releases[i];
      const QString tag = QString::number(i);
      const QString experiment = write("unused-" + tag + ".json", with_release(release));
      const QString dir = path("plan-" + tag);
      const CliRun p = run_cli({"tune", "--config", experiment, "--plan", dir});
      QVERIFY2(p.exit_code == 0, qPrintable(p.err));
      for (int shard = 0; shard < 2; ++shard) {
        const CliRun r = run_cli({"run-jobs", dir, "--shard", QString::number(shard), "--shards",
                                  "2", "--threads", "1"});
        QVERIFY2(r.exit_code == 0, qPrintable(QString::fromStdString(release) + ": " + r.err));
      }
      const CliRun m = run_cli(
          {"history", "merge", dir, "--db", dir + "-history.sqlite", "--out", dir + "-out"});
      QVERIFY2(m.exit_code == 0, qPrintable(QString::fromStdString(release) + ": " + m.err));
      QVERIFY(QFile::exists(dir + "-out/summary.json"));
    }
  }
};

DPLAB_TEST_GUILESS_MAIN(PlanReleaseFieldsTest)
#include "test_plan_release_fields.moc"
