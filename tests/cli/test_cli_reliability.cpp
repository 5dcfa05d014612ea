// dplab-cli under faults (issue #11), through the real binary:
// - a job that fails makes `tune` exit 1 with the first failure's reason (item 6);
// - an unwritable --out is found before the first job, with the system's reason (item 3);
// - a full disk under --db: exit 1 naming "disk full", and the counts say what was stored (item 2);
// - kill -9 mid-run: the run is "interrupted"; --resume runs only the missing jobs and the
//   result equals an uninterrupted run, byte for byte in curves.csv (item 8); SIGTERM exits 143;
// - train: a diverged run exits 1 (item 7); a directory as --config says so (item 10).
// The fault tests mount a tmpfs in a private user+mount namespace (unshare -rm); they are
// skipped where that is not allowed.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <signal.h>

#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::cli_program;
using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// Synthetic binary data, 4 dpsgd candidates x 1 repeat; `steps` sets the run length.
QByteArray experiment(long long steps, int eval_every = 10, const char* extra_privacy = "") {
  return QString(
             R"({"name": "rel", "dataset": {"source": "synthetic-binary", "num_samples": 600, "dim": 5},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1.0, "lot_size": 50, "steps": %1 %3},
    "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5], "clip": [0.5, 1]}}],
    "eval_every": %2, "seed": 7})")
      .arg(steps)
      .arg(eval_every)
      .arg(extra_privacy)
      .toUtf8();
}

QString write(const QTemporaryDir& dir, const char* name, const QByteArray& bytes) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (file.open(QIODevice::WriteOnly)) file.write(bytes);
  return path;
}

// Runs dplab-cli with a fresh tmpfs (mount options `options`) mounted on `mount_point`, inside a
// private user+mount namespace. exit_code 99 means the mount itself failed (skip).
CliRun run_with_tmpfs(const QString& options, const QString& mount_point, const QStringList& args) {
  QStringList quoted;
  for (const auto& a : args) quoted << "'" + a + "'";
  const QString script = "mount -t tmpfs -o " + options + " none '" + mount_point +
                         "' || exit 99; exec '" + cli_program() + "' " + quoted.join(' ');
  QProcess process;
  process.start("unshare", {"-rm", "sh", "-c", script});
  if (!process.waitForFinished(120'000)) {
    process.kill();
    process.waitForFinished();
    return {-1, {}, "timeout"};
  }
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

bool user_namespaces_work() {
  QProcess p;
  p.start("unshare", {"-rm", "true"});
  return p.waitForFinished(10'000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

}  // namespace

class CliReliabilityTest : public QObject {
  Q_OBJECT

 private slots:
  // Item 6 of issue #11, then issue #24 item 5: a run length no job could finish (its learning
  // curve alone would need petabytes) exited 0 with "0 of 4 jobs finished"; then 1 after every
  // job failed for memory. Now the run-size cap every command shares refuses it before any job,
  // naming the key and the cap.
  void hugeStepsRefusedBeforeAnyJob() {
    QTemporaryDir dir;
    const QString config = write(dir, "fail.json", experiment(1000000000000000, 1));
    const CliRun run =
        run_cli({"tune", "--config", config, "--threads", "1", "--out", dir.filePath("out")});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("privacy.steps") && run.err.contains("[1, 100000000]") &&
                 run.err.contains("got 1000000000000000"),
             qPrintable(run.err));
    QVERIFY2(!run.err.contains("candidates x"), qPrintable(run.err));  // no job started
  }

  // Item 3: --out on a read-only file system fails before the first job, naming the reason.
  void readOnlyOutCheckedFirst() {
    if (!user_namespaces_work()) QSKIP("unshare -rm is not allowed here");
    QTemporaryDir dir;
    const QString config = write(dir, "ok.json", experiment(200));
    QDir().mkpath(dir.filePath("ro"));
    const CliRun run = run_with_tmpfs(
        "ro", dir.filePath("ro"), {"tune", "--config", config, "--out", dir.filePath("ro/out")});
    if (run.exit_code == 99) QSKIP("cannot mount a tmpfs");
    QCOMPARE(run.exit_code, 1);
    QVERIFY2(run.err.contains("--out") && run.err.contains("Read-only file system"),
             qPrintable(run.err));
    QVERIFY2(!run.err.contains("candidates x"), qPrintable(run.err));  // no job started
  }

  // Item 2: the run history on a full disk: exit 1 naming "disk full", and the stored count is
  // honest (it claimed all jobs before while most were dropped).
  void fullDiskUnderDbExit1() {
    if (!user_namespaces_work()) QSKIP("unshare -rm is not allowed here");
    QTemporaryDir dir;
    const QString config = write(dir, "big.json", experiment(20000, 10));
    QDir().mkpath(dir.filePath("small"));
    const CliRun run =
        run_with_tmpfs("size=96k", dir.filePath("small"),
                       {"tune", "--config", config, "--threads", "2", "--out", dir.filePath("out"),
                        "--db", dir.filePath("small/runs.sqlite"), "--db-retry", "0.5"});
    if (run.exit_code == 99) QSKIP("cannot mount a tmpfs");
    QCOMPARE(run.exit_code, 1);
    QVERIFY2(run.err.contains("disk full") && run.err.contains("could not be stored"),
             qPrintable(run.err));
    QVERIFY2(!run.err.contains(": 4 of 4 jobs stored"), qPrintable(run.err));
    // The results themselves are kept in --out.
    QVERIFY(QFile::exists(dir.filePath("out/summary.json")));
  }

  // Item 8: kill -9 mid-run, reopen -> interrupted; --resume finishes it and the result equals
  // an uninterrupted run (curves.csv byte for byte).
  void killResumeEqualsUninterrupted() {
    QTemporaryDir dir;
    const QString config = write(dir, "long.json", experiment(20000, 100));
    const QString db = dir.filePath("runs.sqlite");
    QProcess tune;
    tune.start(cli_program(), {"tune", "--config", config, "--threads", "1", "--out",
                               dir.filePath("a"), "--db", db});
    QVERIFY(tune.waitForStarted());
    // Wait until at least one job is stored, then kill without warning.
    QElapsedTimer timer;
    timer.start();
    bool one_stored = false;
    while (timer.elapsed() < 60'000 && !one_stored) {
      QThread::msleep(20);
      QProcess sqlite;
      sqlite.start("sqlite3", {db, "SELECT COUNT(*) FROM jobs WHERE status = 'finished'"});
      if (sqlite.waitForFinished(5000) && sqlite.readAllStandardOutput().trimmed().toInt() >= 1)
        one_stored = true;
    }
    if (!one_stored) {
      tune.kill();
      tune.waitForFinished();
      QSKIP("sqlite3 shell not available or no job stored in 60 s");
    }
    ::kill(static_cast<pid_t>(tune.processId()), SIGKILL);
    tune.waitForFinished();
    QProcess status;
    status.start("sqlite3", {db, "SELECT status FROM experiments"});
    status.waitForFinished();
    QCOMPARE(QString::fromUtf8(status.readAllStandardOutput()).trimmed(),
             QString("running"));  // not yet opened
    const CliRun resumed = run_cli(
        {"tune", "--resume", "1", "--db", db, "--threads", "2", "--out", dir.filePath("b")});
    QVERIFY2(resumed.exit_code == 0, qPrintable(resumed.err));
    QVERIFY2(resumed.err.contains("4 of 4 jobs stored"), qPrintable(resumed.err));
    const CliRun fresh =
        run_cli({"tune", "--config", config, "--threads", "2", "--out", dir.filePath("c")});
    QVERIFY2(fresh.exit_code == 0, qPrintable(fresh.err));
    // Every number is the uninterrupted run's; only the label differs: the resumed run states
    // what it spent over its two attempts (the killed one charged its upper bound), never less.
    const auto without_label = [](const QByteArray& csv) {
      QByteArrayList rows;
      for (const QByteArray& line : csv.trimmed().split('\n'))
        rows << line.left(
            line.lastIndexOf(line.startsWith("candidate,") ? ",epsilon_label" : ",\"eps <= "));
      return rows;
    };
    const QByteArray resumed_csv = read_file(dir.filePath("b/curves.csv"));
    QVERIFY(!resumed_csv.isEmpty());
    const QByteArray fresh_csv = read_file(dir.filePath("c/curves.csv"));
    QCOMPARE(without_label(resumed_csv), without_label(fresh_csv));
    const auto epsilon_of = [](const QByteArray& csv) {
      const QByteArray row = csv.split('\n').at(1);
      return row.mid(row.lastIndexOf(",\"eps <= ") + 9).split(' ').front().toDouble();
    };
    QVERIFY2(epsilon_of(resumed_csv) >= epsilon_of(fresh_csv), resumed_csv.split('\n').at(1));
    // A finished run is not resumable.
    const CliRun again = run_cli({"tune", "--resume", "1", "--db", db, "--out", dir.filePath("d")});
    QCOMPARE(again.exit_code, 1);
    QVERIFY2(again.err.contains("is finished; nothing to resume"), qPrintable(again.err));
  }

  // SIGTERM cancels like Ctrl-C, keeps finished jobs, marks the run cancelled, exits 143.
  void sigtermExits143() {
    QTemporaryDir dir;
    const QString config = write(dir, "long.json", experiment(200000, 1000));
    QProcess tune;
    tune.start(cli_program(), {"tune", "--config", config, "--threads", "1", "--out",
                               dir.filePath("a"), "--db", dir.filePath("runs.sqlite")});
    QVERIFY(tune.waitForStarted());
    QElapsedTimer timer;
    timer.start();
    QByteArray err;
    while (timer.elapsed() < 30'000 && !err.contains("tune rel:")) {
      tune.waitForReadyRead(100);
      err += tune.readAllStandardError();
    }
    QThread::msleep(300);
    ::kill(static_cast<pid_t>(tune.processId()), SIGTERM);
    QVERIFY(tune.waitForFinished(30'000));
    err += tune.readAllStandardError();
    QCOMPARE(tune.exitCode(), 143);
    QVERIFY2(
        err.contains("terminated; kept ") && err.contains("resume with: dplab-cli tune --resume 1"),
        err.constData());
    // Issue #24 item 7: one count. The jobs kept (with a result) are the jobs stored: it said
    // "kept the N finished jobs" and "M of 4 jobs stored" with M counting cancelled rows.
    const QString text = QString::fromUtf8(err);
    const auto kept = QRegularExpression("kept (\\d+) of 4 jobs").match(text);
    const auto stored = QRegularExpression(": (\\d+) of 4 jobs stored").match(text);
    QVERIFY2(kept.hasMatch() && stored.hasMatch(), err.constData());
    QCOMPARE(kept.captured(1), stored.captured(1));
  }

  // Item 7 (train): lr = 1e300 diverges; it exited 0 with empty loss fields.
  void trainDivergedExit1() {
    QTemporaryDir dir;
    const CliRun run = run_cli({"train", "--dataset", "synthetic-binary", "--model", "logistic",
                                "--optimizer", "dpsgd", "--lr", "1e300", "--steps", "200",
                                "--lot-size", "50", "--out", dir.filePath("out")});
    QCOMPARE(run.exit_code, 1);
    QVERIFY2(run.err.contains("diverged"), qPrintable(run.err));
    const QJsonObject summary =
        QJsonDocument::fromJson(read_file(dir.filePath("out/summary.json"))).object();
    QCOMPARE(summary["status"].toString(), QString("diverged"));
  }

  // Items 9 and 10: values that used to change silently or print nonsense are rejected, and
  // every message names its flag.
  void trainRejectsSilentlyChangedValues_data() {
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("expected");
    QTest::newRow("hidden units overflow")
        << QStringList{"--lot-size", "50", "--model", "tlnn", "--hidden-units", "4294967297"}
        << "--hidden-units = 4294967297 must be between 1 and 100000";
    QTest::newRow("delta 0") << QStringList{"--lot-size", "50", "--delta", "0"}
                             << "--delta = 0 must be strictly between 0 and 1";
    QTest::newRow("lot size 1e300")
        << QStringList{"--lot-size", "1e300"} << "--lot-size = 1e+300 exceeds";
  }
  void trainRejectsSilentlyChangedValues() {
    QFETCH(QStringList, flags);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const CliRun run = run_cli(QStringList{"train", "--dataset", "synthetic-binary", "--steps",
                                           "20", "--out", dir.filePath("out")} +
                               flags);
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains(expected), qPrintable(run.err));
  }

  // Items 1 and 10 for train --config: a directory says so; 50,000 levels of nesting are
  // rejected with the key path instead of crashing.
  void trainConfigDirectoryAndDeepJson() {
    QTemporaryDir dir;
    const CliRun directory = run_cli({"train", "--config", dir.path()});
    QCOMPARE(directory.exit_code, 2);
    QVERIFY2(directory.err.contains("--config: '" + dir.path() + "' is a directory"),
             qPrintable(directory.err));
    const QString deep = write(dir, "deep.json",
                               "{\"lr\": " + QByteArray(50000, '[') + QByteArray(50000, ']') + "}");
    const CliRun nested = run_cli({"train", "--config", deep});
    QCOMPARE(nested.exit_code, 2);
    QVERIFY2(nested.err.contains("lr[0][0]") && nested.err.contains("nested more than 64 levels"),
             qPrintable(nested.err));
    const CliRun tune = run_cli({"tune", "--config", deep});
    QCOMPARE(tune.exit_code, 2);
    QVERIFY2(tune.err.contains("nested more than 64 levels"), qPrintable(tune.err));
  }
};

DPLAB_TEST_MAIN(CliReliabilityTest)
#include "test_cli_reliability.moc"
