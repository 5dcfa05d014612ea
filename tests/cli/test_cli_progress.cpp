// The progress of the long commands on stderr when it is not a terminal (a log, CI, Slurm):
// plain lines with the fraction and an ETA, never the same line twice (sparse-train printed one
// line 95 times), a final 100% line, and for a private LT search no count, fraction or ETA at
// all (K is secret). $DPLAB_PROGRESS_SECONDS sets the log interval (cli/progress_line.h): small
// here, so that a run of a second prints several lines.
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::cli_program;
using dplab::testing::cli_time_limit_ms;
using dplab::testing::CliRun;
using dplab::testing::presets_dir;

namespace {

// run_cli with $DPLAB_PROGRESS_SECONDS set (empty: unset, the default interval).
CliRun run_with_interval(const QStringList& arguments, const QString& seconds) {
  QProcess process;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  if (seconds.isEmpty())
    environment.remove("DPLAB_PROGRESS_SECONDS");
  else
    environment.insert("DPLAB_PROGRESS_SECONDS", seconds);
  process.setProcessEnvironment(environment);
  process.start(cli_program(), arguments);
  if (!process.waitForFinished(cli_time_limit_ms())) {
    process.kill();
    process.waitForFinished();
    return {-1, {}, "did not finish"};
  }
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

// The stderr lines that start with "LABEL: ".
QStringList progress_lines(const QString& err, const QString& label) {
  QStringList lines;
  for (const QString& line : err.split('\n'))
    if (line.startsWith(label + ": ")) lines << line;
  return lines;
}

// Several lines, each with a percentage and an ETA, no '\r', all different, the last at 100%.
void check_log_progress(const QString& err, const QString& label, int at_least) {
  const QStringList lines = progress_lines(err, label);
  QVERIFY2(lines.size() >= at_least, qPrintable(err));
  // The ETA is a time once some work is done ("--:--" only before any).
  static const QRegularExpression shape(QStringLiteral(
      "^[\\w -]+: \\d+\\.\\d%, .*elapsed \\d+:\\d\\d, ETA ((\\d+:)?\\d+:\\d\\d|--:--)"));
  for (const QString& line : lines) {
    QVERIFY2(shape.match(line).hasMatch(), qPrintable(line));
    if (!line.startsWith(label + ": 0.0%")) QVERIFY2(!line.contains("ETA --:--"), qPrintable(line));
  }
  QVERIFY2(!err.contains('\r'), "a redrawn line in a log");
  QCOMPARE(QSet<QString>(lines.begin(), lines.end()).size(), lines.size());
  QVERIFY2(lines.back().startsWith(label + ": 100.0%"), qPrintable(lines.back()));
}

}  // namespace

class CliProgressTest : public QObject {
  Q_OBJECT

 private slots:
  void trainPrintsStepsWithEta() {
    QTemporaryDir dir;
    const CliRun run = run_with_interval({"train", "--dataset", "synthetic-binary", "--steps",
                                          "20000", "--eval-every", "5000", "--out", dir.path()},
                                         "0.05");
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    check_log_progress(run.err, "train", 3);
    QVERIFY(progress_lines(run.err, "train").back().contains("20000/20000 steps"));
    QVERIFY2(run.err.contains("step 5000/20000  train loss"), qPrintable(run.err));  // the notes
  }

  // At the default interval (seconds) a sub-second run prints its first and last line only, not
  // one per step.
  void defaultIntervalIsQuietInALog() {
    QTemporaryDir dir;
    const CliRun run = run_with_interval(
        {"train", "--dataset", "synthetic-binary", "--steps", "2000", "--out", dir.path()}, "");
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    const QStringList lines = progress_lines(run.err, "train");
    QVERIFY2(lines.size() >= 1 && lines.size() <= 3, qPrintable(run.err));
  }

  void sparseTrainLinesAreNotRepeated() {
    QTemporaryDir dir;
    const CliRun run = run_with_interval(
        {"sparse-train", "--methods", "dpsgd,em", "--epochs", "1", "--train-tokens", "1000",
         "--vocabulary", "200", "--dim", "20", "--eval-examples", "500", "--out", dir.path()},
        "0.05");
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    check_log_progress(run.err, "sparse-train", 2);
    // The old output: the method's name alone, once per evaluation point.
    QVERIFY2(!run.err.contains(QRegularExpression("^figure 1: training \\w+$",
                                                  QRegularExpression::MultilineOption)),
             qPrintable(run.err));
  }

  // A private LT search: every progress line is the fixed text and the elapsed time.
  void privateLtShowsNoCountOrEta() {
    QTemporaryDir dir;
    const QString preset = QString::fromStdString(presets_dir() + "/quick-demo.json");
    const CliRun run =
        run_with_interval({"tune", "--config", preset, "--threads", "2", "--out",
                           dir.path() + "/out", "--release", "private", "--strategy", "lt"},
                          "0");
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    const QStringList lines = progress_lines(run.err, "progress");
    QVERIFY2(!lines.isEmpty(), qPrintable(run.err));
    static const QRegularExpression hidden(
        QStringLiteral("^progress: training \\(private selection: the number of runs is not "
                       "shown\\), elapsed \\d+:\\d\\d$"));
    for (const QString& line : lines) QVERIFY2(hidden.match(line).hasMatch(), qPrintable(line));
    for (const char* word : {"ETA", "jobs", "steps/s", "%"})
      QVERIFY2(!run.err.contains(QLatin1String(word)), qPrintable(run.err));
  }

  // The same search in explore mode shows the counts and the ETA (the hidden mode is a choice).
  void exploreTuneShowsEta() {
    QTemporaryDir dir;
    const QString preset = QString::fromStdString(presets_dir() + "/quick-demo.json");
    const CliRun run = run_with_interval(
        {"tune", "--config", preset, "--threads", "2", "--out", dir.path() + "/out"}, "0");
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    check_log_progress(run.err, "progress", 1);
    QVERIFY2(progress_lines(run.err, "progress").back().contains("jobs "), qPrintable(run.err));
  }
};

DPLAB_TEST_GUILESS_MAIN(CliProgressTest)
#include "test_cli_progress.moc"
