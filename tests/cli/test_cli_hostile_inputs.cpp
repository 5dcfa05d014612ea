// Hostile output paths and cluster flags through the real binary (issue #45):
// - item 10: one output-folder rule for every command with --out: an empty --out is a usage
//   error (exit 2) naming the flag; a regular file, a symbolic-link loop or an unwritable place is
//   an error naming the path and the reason (never "internal error: filesystem error"), found
//   before any training;
// - item 9: `slurm` checks every flag and --out before it writes anything (a bad --out used to
//   leave a plan that refused a rerun), parses --time strictly, and its errors name --out;
// - item 11: `slurm` forwards the private-subsampled flags to the planner, so a bad one is an
//   error (--tuning-fraction abc used to exit 0).
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <string>

#include "support/cli_runner.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using dplab::testing::CliRun;
using dplab::testing::run_cli;

namespace {

QString corpus() {
  return QString::fromStdString(dplab::testing::test_data_dir() + "/small_corpus.txt");
}

// A command that trains, with --out left for the test to append.
QStringList training_command(const QString& name, const QString& experiment) {
  if (name == "train")
    return {"train", "--dataset", "synthetic-binary", "--steps", "20", "--eval-every", "10"};
  if (name == "tune") return {"tune", "--config", experiment};
  if (name == "canary") return {"canary", "--corpus", corpus(), "--canaries", "10"};
  if (name == "sparse-train")
    return {"sparse-train",
            "--corpus",
            corpus(),
            "--vocabulary",
            "50",
            "--dim",
            "8",
            "--train-tokens",
            "400",
            "--test-tokens",
            "200",
            "--epochs",
            "1",
            "--methods",
            "nonprivate"};
  return {};
}

bool write_text(const QString& path, const QByteArray& text) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

}  // namespace

class TestCliHostileInputs : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString experiment_;

  CliRun slurm(const QStringList& extra) {
    return run_cli(QStringList{"slurm", experiment_} + extra);
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    experiment_ = dir_.filePath("tiny.json");
    QVERIFY(write_text(experiment_,
                       QByteArray::fromStdString(dplab::testing::tiny_experiment_json(20, 1))));
  }

  void output_folder_problems_are_named_before_training_data() {
    QTest::addColumn<QString>("command");
    for (const char* c : {"train", "tune", "canary", "sparse-train"}) QTest::newRow(c) << c;
  }
  void output_folder_problems_are_named_before_training() {
    QFETCH(QString, command);
    QTemporaryDir scratch;
    QVERIFY(scratch.isValid());
    const QStringList base = training_command(command, experiment_);

    // A regular file where the folder should be.
    const QString file = scratch.filePath("a-file");
    QVERIFY(write_text(file, "x\n"));
    const CliRun on_file = run_cli(base + QStringList{"--out", file});
    QCOMPARE(on_file.exit_code, 1);
    QVERIFY2(on_file.err.contains("--out '" + file + "': exists and is not a folder (a file)"),
             qPrintable(on_file.err));
    QVERIFY2(!on_file.err.contains("internal error"), qPrintable(on_file.err));

    // A symbolic link that points at itself.
    const QString loop = scratch.filePath("loop");
    std::filesystem::create_symlink(loop.toStdString(), loop.toStdString());
    const CliRun on_loop = run_cli(base + QStringList{"--out", loop});
    QCOMPARE(on_loop.exit_code, 1);
    QVERIFY2(on_loop.err.contains("--out '" + loop + "'") &&
                 on_loop.err.contains("Too many levels of symbolic links"),
             qPrintable(on_loop.err));
    QVERIFY2(!on_loop.err.contains("internal error"), qPrintable(on_loop.err));

    // An empty name: a usage error naming the flag.
    const CliRun empty = run_cli(base + QStringList{"--out", ""});
    QCOMPARE(empty.exit_code, 2);
    QVERIFY2(empty.err.contains("--out") && empty.err.contains("empty"), qPrintable(empty.err));
    QVERIFY2(!empty.err.contains("internal error"), qPrintable(empty.err));
  }

  // --time in Slurm's formats, strictly; a bad one leaves no folder behind.
  void slurm_time_is_checked_before_anything_is_written() {
    const QString out = dir_.filePath("time-plan");
    const CliRun r = slurm({"--out", out, "--time", "99999999999999999999:00:00"});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("--time '99999999999999999999:00:00'"), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(out));
    const CliRun minutes = slurm({"--out", out, "--time", "1-0:60"});
    QCOMPARE(minutes.exit_code, 2);
    QVERIFY2(minutes.err.contains("the minutes must be below 60"), qPrintable(minutes.err));
    QVERIFY(!QFileInfo::exists(out));
  }

  // A plan folder whose path cannot go into an #SBATCH line used to be refused after the plan
  // was written, and the rerun then refused the folder ("already holds a plan").
  void slurm_checks_the_folder_path_before_planning() {
    const QString out = dir_.filePath("with space");
    const CliRun r = slurm({"--out", out});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("cannot go into an #SBATCH line"), qPrintable(r.err));
    QVERIFY2(!QFileInfo::exists(out + "/plan.json"), "a plan was written before the check");
  }

  // Errors about the output folder name --out (they named tune's --plan).
  void slurm_errors_name_out() {
    const QString file = dir_.filePath("slurm-file");
    QVERIFY(write_text(file, "x\n"));
    const CliRun on_file = slurm({"--out", file});
    QCOMPARE(on_file.exit_code, 1);
    QVERIFY2(on_file.err.contains("--out '" + file + "': exists and is not a folder"),
             qPrintable(on_file.err));
    QVERIFY2(!on_file.err.contains("--plan"), qPrintable(on_file.err));
    const CliRun empty = slurm({"--out", ""});
    QCOMPARE(empty.exit_code, 2);
    QVERIFY2(empty.err.contains("--out: the folder name is empty"), qPrintable(empty.err));

    const QString out = dir_.filePath("twice");
    const CliRun first = slurm({"--out", out});
    QVERIFY2(first.exit_code == 0, qPrintable(first.err));
    const CliRun again = slurm({"--out", out});
    QCOMPARE(again.exit_code, 2);
    QVERIFY2(again.err.contains("--out: '" + out + "' already holds a plan"),
             qPrintable(again.err));
    QVERIFY2(!again.err.contains("--plan"), qPrintable(again.err));
  }

  // The five private-subsampled flags reach the planner, which checks them (exit 2).
  void slurm_forwards_the_subsample_flags() {
    const QString out = dir_.filePath("subsample-plan");
    const CliRun r = slurm({"--out", out, "--tuning-fraction", "abc"});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("--tuning-fraction"), qPrintable(r.err));
    QVERIFY2(!QFileInfo::exists(out), "a refused plan left its folder behind");
    for (const char* flag : {"--final-data", "--subset-batching", "--lr-transfer"}) {
      const CliRun bad = slurm({"--out", out, "--release", "private-subsampled", flag, "nonsense"});
      QCOMPARE(bad.exit_code, 2);
      QVERIFY2(bad.err.contains(flag), qPrintable(bad.err));
      QVERIFY(!QFileInfo::exists(out));
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestCliHostileInputs)
#include "test_cli_hostile_inputs.moc"
