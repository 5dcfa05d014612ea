// Issue #24, through the real binary: the exit status tells the truth and every command follows
// the same rules.
// - item 4: output that never reached stdout (/dev/full) or an output file that cannot be
//   written exits 1 with the system's reason, never 0 with an empty file;
// - item 5: Ctrl-C / SIGTERM on `train` exits 130 / 143 and keeps the curve so far;
// - item 6: a value from --config is quoted as given (2^64 - 1 is not "-1"); the experiment
//   file's tuning.strategy "lt" is kept by --release private without --strategy;
// - item 9: `train --secure`; sparse-train's default corpus found like every shipped data set.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>
#include <string>

#include <signal.h>

#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using dplab::testing::cli_program;
using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// Runs the CLI with its stdout sent to `stdout_path` (e.g. /dev/full), optionally in `workdir`
// with extra environment variables.
CliRun run_cli_with(const QStringList& arguments, const QString& stdout_path,
                    const QString& workdir = {}, const QStringList& environment = {}) {
  QProcess process;
  if (!stdout_path.isEmpty()) process.setStandardOutputFile(stdout_path);
  if (!workdir.isEmpty()) process.setWorkingDirectory(workdir);
  if (!environment.isEmpty()) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto& pair : environment) env.insert(pair.section('=', 0, 0), pair.section('=', 1));
    process.setProcessEnvironment(env);
  }
  process.start(cli_program(), arguments);
  if (!process.waitForFinished(dplab::testing::cli_time_limit_ms())) {
    process.kill();
    process.waitForFinished();
    return {-1, {}, "timeout"};
  }
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

QString write(const QTemporaryDir& dir, const char* name, const QByteArray& bytes) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (file.open(QIODevice::WriteOnly)) file.write(bytes);
  return path;
}

nlohmann::json json_file(const QString& path) {
  return nlohmann::json::parse(read_file(path).toStdString(), nullptr, false);
}

// Runs `script` (sh) in a private user + mount namespace (unshare -rm), where it may mount a
// tmpfs. Exit code 99 from the script means "not possible here" (the caller skips).
CliRun run_in_namespace(const QString& script) {
  QProcess process;
  process.start("unshare", {"-rm", "sh", "-c", script});
  if (!process.waitForFinished(dplab::testing::cli_time_limit_ms())) {
    process.kill();
    process.waitForFinished();
    return {-1, {}, "timeout"};
  }
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

const QStringList kTinyTrain{"--dataset", "synthetic-binary", "--lot-size", "50", "--steps",
                             "40",        "--eval-every",     "20"};

}  // namespace

class TestCliExitStatus : public QObject {
  Q_OBJECT

 private slots:
  // Item 4: stdout on a full device. Each exited 0 before, its output lost.
  void stdoutOnFullDeviceExits1_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("account") << QStringList{"account", "--noise-multiplier",
                                            "1.1",     "--sampling-rate",
                                            "0.01",    "--steps",
                                            "1000",    "--delta",
                                            "1e-5"};
    QTest::newRow("objpert bounds")
        << QStringList{"objpert", "--bounds-csv", "@DIR@/b.csv", "--sigma", "5", "--lambda", "20"};
    QTest::newRow("history list") << QStringList{"history", "list", "--db", "@DIR@/h.sqlite"};
    QTest::newRow("--help") << QStringList{"--help"};
  }
  void stdoutOnFullDeviceExits1() {
    QFETCH(QStringList, arguments);
    QTemporaryDir dir;
    arguments.replaceInStrings("@DIR@", dir.path());
    if (arguments.contains("history")) {
      // A history with one run in it, so `list` has something to print.
      dplab::testing::TempFiles tmp;
      const std::string config =
          tmp.write("tiny.json", dplab::testing::tiny_experiment_json(20, 1));
      const CliRun made = run_cli({"tune", "--config", QString::fromStdString(config), "--out",
                                   dir.filePath("out"), "--db", dir.filePath("h.sqlite")});
      QVERIFY2(made.exit_code == 0, qPrintable(made.err));
    }
    const CliRun ok = run_cli_with(arguments, dir.filePath("stdout.txt"));
    QVERIFY2(ok.exit_code == 0, qPrintable(ok.err));
    QVERIFY(QFileInfo(dir.filePath("stdout.txt")).size() > 0);
    const CliRun full = run_cli_with(arguments, "/dev/full");
    QCOMPARE(full.exit_code, 1);
    QVERIFY2(full.err.contains("cannot write to standard output: No space left on device (disk "
                               "full)"),
             qPrintable(full.err));
  }

  // Item 4: output files that cannot be written exit 1 with the reason (a device that is full;
  // a folder that is a file), never 0 with an empty file.
  void unwritableOutputFileExits1() {
    QTemporaryDir dir;
    const CliRun full =
        run_cli({"objpert", "--bounds-csv", "/dev/full", "--sigma", "5", "--lambda", "20"});
    QCOMPARE(full.exit_code, 1);
    QVERIFY2(full.err.contains("/dev/full: cannot write: No space left on device (disk full)"),
             qPrintable(full.err));
    QVERIFY(full.out.isEmpty());  // nothing claims the file was written

    const QString file = write(dir, "plain", "x");
    const CliRun not_dir =
        run_cli({"objpert", "--bounds-csv", file + "/b.csv", "--sigma", "5", "--lambda", "20"});
    QCOMPARE(not_dir.exit_code, 1);
    // The system's reason for a folder that is a file (libstdc++ says one of these).
    QVERIFY2(not_dir.err.contains(file) &&
                 (not_dir.err.contains("Not a directory") || not_dir.err.contains("File exists")),
             qPrintable(not_dir.err));
  }

  // Item 5: SIGINT / SIGTERM during `train` stop it within a step, write the curve so far and a
  // summary marked cancelled, and exit 130 / 143. The default action killed it and left --out
  // empty before.
  void trainSignalKeepsTheCurveSoFar_data() {
    QTest::addColumn<int>("signal");
    QTest::addColumn<int>("status");
    QTest::newRow("SIGINT") << int(SIGINT) << 130;
    QTest::newRow("SIGTERM") << int(SIGTERM) << 143;
  }
  void trainSignalKeepsTheCurveSoFar() {
    QFETCH(int, signal);
    QFETCH(int, status);
    QTemporaryDir dir;
    const QString out = dir.filePath("out");
    QProcess process;
    process.start(cli_program(), {"train", "--dataset", "synthetic-binary", "--lot-size", "50",
                                  "--steps", "50000000", "--eval-every", "200", "--out", out});
    QVERIFY(process.waitForStarted());
    // The first curve point is printed on stderr ("step 200/50000000 ..."): training is running.
    QByteArray err;
    while (!err.contains("step ") && process.state() == QProcess::Running) {
      process.waitForReadyRead(1000);
      err += process.readAllStandardError();
    }
    QVERIFY2(err.contains("step "), err.constData());
    QCOMPARE(::kill(static_cast<pid_t>(process.processId()), signal), 0);
    QVERIFY(process.waitForFinished(60'000));
    err += process.readAllStandardError();
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), status);
    QVERIFY2(err.contains("kept the curve so far"), err.constData());
    const QList<QByteArray> lines = read_file(out + "/curve.csv").trimmed().split('\n');
    // The header, at least one point carrying the epsilon label (with what it does not cover).
    QVERIFY2(lines.size() >= 2, "curve.csv has no point");
    QVERIFY(lines.front().startsWith("iteration,"));
    QVERIFY(lines[1].contains(",\"eps <= "));
    const auto summary = json_file(out + "/summary.json");
    QCOMPARE(summary["status"].get<std::string>(), std::string("cancelled"));
    const auto queries = summary["privacy"]["noise_gradient_queries"].get<long long>();
    QVERIFY(queries >= 200 && queries < 50000000);
    QVERIFY(summary["privacy"]["epsilon"].get<double>() > 0);  // the steps taken are charged
  }

  // Item 6: a number from --config beyond int64 is quoted as written (it was read as -1).
  void configValuesQuotedAsGiven() {
    QTemporaryDir dir;
    const QString seed = write(dir, "seed.json", R"({"seed": 18446744073709551615})");
    const CliRun a = run_cli({"train", "--config", seed, "--out", dir.filePath("o")});
    QCOMPARE(a.exit_code, 2);
    QVERIFY2(a.err.contains("--seed: 18446744073709551615 is out of range"), qPrintable(a.err));
    const QString steps = write(dir, "steps.json", R"({"steps": 18446744073709551615})");
    const CliRun b = run_cli({"train", "--config", steps, "--out", dir.filePath("o")});
    QCOMPARE(b.exit_code, 2);
    QVERIFY2(b.err.contains("--steps: 18446744073709551615 is out of range"), qPrintable(b.err));
  }

  // Item 6: the file's tuning.strategy "lt" gives an LT release when --release private comes
  // without --strategy (it ran private MA over every candidate before).
  void fileStrategyKeptWithoutTheFlag() {
    dplab::testing::TempFiles tmp;
    std::string text = dplab::testing::tiny_experiment_json(30, 1);
    text.replace(text.find("\"seed\": 42"), 10,
                 "\"seed\": 42, \"tuning\": {\"strategy\": \"lt\", \"gamma\": 0.5}");
    const std::string config = tmp.write("lt.json", text);
    const QString out = QString::fromStdString(tmp.path("out"));
    const CliRun r = run_cli({"tune", "--config", QString::fromStdString(config), "--threads", "1",
                              "--out", out, "--release", "private"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto s = json_file(out + "/summary.json");
    QCOMPARE(s["release"]["selection"].get<std::string>(), std::string("lt"));
    // A flag still overrides the file.
    const QString out_ma = QString::fromStdString(tmp.path("out-ma"));
    const CliRun ma = run_cli({"tune", "--config", QString::fromStdString(config), "--threads", "1",
                               "--out", out_ma, "--release", "private", "--strategy", "ma"});
    QVERIFY2(ma.exit_code == 0, qPrintable(ma.err));
    QCOMPARE(json_file(out_ma + "/summary.json")["release"]["selection"].get<std::string>(),
             std::string("ma"));
  }

  // Item 7: a history on a read-only disk can be listed, shown and exported (it failed with
  // "attempt to write a readonly database": the history was opened for writing).
  void readOnlyHistoryCanBeRead() {
    QTemporaryDir dir;
    dplab::testing::TempFiles tmp;
    const std::string config = tmp.write("tiny.json", dplab::testing::tiny_experiment_json(20, 1));
    const QString mount = dir.filePath("ro");
    QVERIFY(QDir().mkpath(mount));
    const QString cli = "'" + cli_program() + "'";
    const QString db = "'" + mount + "/h.sqlite'";
    const CliRun r = run_in_namespace(
        "mount -t tmpfs none '" + mount + "' || exit 99; " + cli + " tune --config '" +
        QString::fromStdString(config) + "' --out '" + mount + "/out' --db " + db +
        " >/dev/null || exit 98; mount -o remount,ro '" + mount + "' || exit 99; " + cli +
        " history list --db " + db + " || exit 97; " + cli + " history show --db " + db +
        " --id 1 >/dev/null || exit 96; exec " + cli + " history export --db " + db +
        " --id 1 --out '" + dir.filePath("exported") + "' >/dev/null");
    if (r.exit_code == 99) QSKIP("cannot mount a tmpfs in a user namespace here");
    QVERIFY2(r.exit_code == 0, qPrintable(QString::number(r.exit_code) + ": " + r.err));
    QVERIFY2(r.out.contains("tiny"), qPrintable(r.out));
    QVERIFY(QFile::exists(dir.filePath("exported/summary.json")));
  }

  // Item 7: --resume on a missing history is an error naming it; it used to create an empty
  // database there and then report "no such experiment".
  void resumeOnMissingHistoryIsAnError() {
    QTemporaryDir dir;
    const QString db = dir.filePath("missing.sqlite");
    const CliRun r = run_cli({"tune", "--resume", "1", "--db", db});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("--resume: no run history at '" + db + "'"), qPrintable(r.err));
    QVERIFY(!QFile::exists(db));
  }

  // Item 7: a directory as --dataset says so.
  void directoryAsDatasetSaysSo() {
    QTemporaryDir dir;
    const CliRun r = run_cli({"train", "--dataset", dir.path(), "--out", dir.filePath("o")});
    QVERIFY(r.exit_code == 1 || r.exit_code == 2);
    QVERIFY2(r.err.contains("is a directory"), qPrintable(r.err));
  }

  // Item 9: train --secure, as tune --secure: no seed used or written, two runs differ.
  void trainSecure() {
    QTemporaryDir dir;
    const CliRun a =
        run_cli(QStringList{"train", "--secure", "--out", dir.filePath("a")} + kTinyTrain);
    QVERIFY2(a.exit_code == 0, qPrintable(a.err));
    const CliRun b =
        run_cli(QStringList{"train", "--secure", "--out", dir.filePath("b")} + kTinyTrain);
    QVERIFY2(b.exit_code == 0, qPrintable(b.err));
    const auto sa = json_file(dir.filePath("a/summary.json"));
    QCOMPARE(sa["config"]["secure"].get<bool>(), true);
    QVERIFY(!sa["config"].contains("seed"));
    QVERIFY(!read_file(dir.filePath("a/summary.json")).contains("\"seed\""));
    QVERIFY(sa["privacy"]["epsilon"].get<double>() > 0);
    // OS entropy: the two curves are not the same run.
    QVERIFY(read_file(dir.filePath("a/curve.csv")) != read_file(dir.filePath("b/curve.csv")));

    const CliRun seeded = run_cli(
        QStringList{"train", "--secure", "--seed", "3", "--out", dir.filePath("c")} + kTinyTrain);
    QCOMPARE(seeded.exit_code, 2);
    QVERIFY2(seeded.err.contains("--secure draws every seed"), qPrintable(seeded.err));
    const CliRun baseline =
        run_cli(QStringList{"train", "--secure", "--optimizer", "sgd", "--out", dir.filePath("d")} +
                kTinyTrain);
    QCOMPARE(baseline.exit_code, 2);
    QVERIFY2(baseline.err.contains("--secure needs a private optimizer"), qPrintable(baseline.err));
  }

  // Item 9: sparse-train's default corpus is found like every shipped data set
  // ($DPLAB_DATA_DIR first), from any working directory; it was "datasets/kjv/kjv.txt" relative
  // to the working directory.
  void sparseDefaultCorpusFromTheDataFolder() {
    QTemporaryDir data, elsewhere;
    QVERIFY(QDir().mkpath(data.filePath("kjv")));
    QVERIFY(
        QFile::copy(QString::fromStdString(dplab::testing::test_data_dir() + "/small_corpus.txt"),
                    data.filePath("kjv/kjv.txt")));
    const QStringList small{"--vocabulary",   "50",  "--dim",           "8",
                            "--train-tokens", "400", "--test-tokens",   "200",
                            "--epochs",       "1",   "--eval-examples", "300",
                            "--eval-points",  "2",   "--methods",       "nonprivate"};
    const CliRun r =
        run_cli_with(QStringList{"sparse-train", "--out", elsewhere.filePath("out")} + small, {},
                     elsewhere.path(), {"DPLAB_DATA_DIR=" + data.path()});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("corpus " + data.filePath("kjv/kjv.txt")), qPrintable(r.out));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestCliExitStatus)
#include "test_cli_exit_status.moc"
