// Every dplab-cli subcommand's --help ends with one or two examples (cli/arguments.h,
// add_examples), and every example runs as written.
//
// How the examples are run (the convention the help pages follow):
// - The subcommands come from `dplab-cli --help` and `dplab-cli history --help`; their examples
//   run in that order, `history` and its subcommands last (they read the run history and the
//   plan folder that tune's and run-jobs' examples write), all in one temporary folder laid out
//   like a source checkout: resources/ and datasets/ are the checkout's, and my-data.csv is "your
//   own CSV" (numeric columns age, hours and the label income), which train's and predict's
//   examples name.
// - An example is "  dplab-cli ARGS" (no quoting, no pipes); a trailing "# ..." is a comment.
// - One whose comment starts with "long" (e.g. "# long: hours") is run for a few seconds only:
//   it must still be running then (or have finished with status 0); it is then stopped.
// - Every other example must finish with status 0 within kExampleSeconds.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::cli_program;
using dplab::testing::cli_time_limit_ms;
using dplab::testing::CliRun;
using dplab::testing::run_cli;
using dplab::testing::source_dir;

namespace {

constexpr int kExampleSeconds = 30;
constexpr int kLongExampleSeconds = 2;

struct Example {
  QString command;  // "train", "history show"
  QStringList arguments;
  bool long_running = false;
  QString text;
};

// The subcommand names listed under "Subcommands:" in a --help page.
QStringList subcommands_of(const QString& help) {
  QStringList names;
  bool inside = false;
  for (const QString& line : help.split('\n')) {
    if (line.startsWith(QLatin1String("Subcommands:"))) {
      inside = true;
    } else if (inside) {
      if (!line.startsWith(QLatin1String("  "))) break;
      names << line.trimmed().section(' ', 0, 0);
    }
  }
  return names;
}

// The example lines after "Examples:" at the end of a --help page.
QStringList example_lines(const QString& help) {
  QStringList lines;
  bool inside = false;
  for (const QString& line : help.split('\n')) {
    if (line == QLatin1String("Examples:")) {
      inside = true;
      lines.clear();
    } else if (inside) {
      if (!line.startsWith(QLatin1String("  "))) break;
      lines << line.trimmed();
    }
  }
  return lines;
}

Example parse_example(const QString& command, const QString& line) {
  Example example{command, {}, false, line};
  QString text = line;
  const qsizetype comment = text.indexOf(QLatin1String(" #"));
  if (comment >= 0) {
    example.long_running = text.mid(comment + 2).trimmed().startsWith(QLatin1String("long"));
    text = text.left(comment);
  }
  example.arguments = text.split(' ', Qt::SkipEmptyParts);
  return example;
}

QString help_of(const QStringList& command) {
  const CliRun run = run_cli(command + QStringList{"--help"});
  return run.exit_code == 0 ? run.out : QString();
}

// The folder the examples run in (see the file comment).
bool lay_out_checkout(const QString& folder) {
  const QString source = QString::fromStdString(source_dir());
  if (!QFile::link(source + "/resources", folder + "/resources")) return false;
  if (!QFile::link(source + "/datasets", folder + "/datasets")) return false;
  QFile csv(folder + "/my-data.csv");
  if (!csv.open(QIODevice::WriteOnly)) return false;
  QByteArray rows = "age,hours,income\n";
  for (int i = 0; i < 600; ++i) {
    const double age = 18 + (i * 37 % 62), hours = 10 + (i * 53 % 50);
    const bool high = 0.5 * age + hours + ((i * 29 % 21) - 10) > 60;
    rows +=
        QByteArray::number(age) + "," + QByteArray::number(hours) + "," + (high ? "1" : "0") + "\n";
  }
  return csv.write(rows) == rows.size();
}

// "" when the example ran as the convention says, else what went wrong.
QString run_example(const Example& example, const QString& folder) {
  QProcess process;
  process.setWorkingDirectory(folder);
  process.start(cli_program(), example.arguments.mid(1));
  if (!process.waitForStarted()) return "did not start";
  const int limit_ms = example.long_running ? kLongExampleSeconds * 1000
                                            : std::min(kExampleSeconds * 1000, cli_time_limit_ms());
  if (!process.waitForFinished(limit_ms)) {
    process.kill();
    process.waitForFinished();
    if (example.long_running) return {};  // started, and still running: as a long one should
    return QStringLiteral("did not finish within %1 s (mark it '# long: ...' or make it smaller)")
        .arg(limit_ms / 1000);
  }
  if (process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0) return {};
  return QStringLiteral("exit status %1: %2")
      .arg(process.exitCode())
      .arg(QString::fromUtf8(process.readAllStandardError()).right(600));
}

}  // namespace

class CliHelpExamplesTest : public QObject {
  Q_OBJECT

  // Every command path's examples, in the order they run (see the file comment).
  QList<Example> collect_examples(QStringList& problems) {
    QStringList commands = subcommands_of(help_of({}));
    if (commands.size() < 10) problems << "dplab-cli --help lists " + commands.join(", ");
    commands.removeAll("history");
    commands << "history";
    for (const QString& sub : subcommands_of(help_of({"history"}))) commands << "history " + sub;
    QList<Example> examples;
    for (const QString& command : commands) {
      const QStringList lines = example_lines(help_of(command.split(' ')));
      if (lines.isEmpty() || lines.size() > 2)
        problems << command + ": " + QString::number(lines.size()) + " examples (want 1 or 2)";
      for (const QString& line : lines) {
        const Example example = parse_example(command, line);
        if (example.arguments.value(0) != "dplab-cli")
          problems << command + ": an example that is not a dplab-cli command: " + line;
        examples << example;
      }
    }
    return examples;
  }

 private slots:
  // The reading rules themselves, on a made-up page.
  void readsExamplesAndLongMarks() {
    const QString help =
        "Usage: dplab-cli x\n\nSubcommands:\n  train    one run\n  tune     a search\n\n"
        "Exit status: 0 ok\nExamples:\n  dplab-cli x --a 1\n  dplab-cli x --b   # long: hours\n";
    QCOMPARE(subcommands_of(help), QStringList({"train", "tune"}));
    const QStringList lines = example_lines(help);
    QCOMPARE(lines.size(), 2);
    const Example slow = parse_example("x", lines[1]);
    QVERIFY(slow.long_running);
    QCOMPARE(slow.arguments, QStringList({"dplab-cli", "x", "--b"}));
    QVERIFY(!parse_example("x", lines[0]).long_running);
  }

  void everyExampleRuns() {
    QStringList problems;
    const QList<Example> examples = collect_examples(problems);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(lay_out_checkout(dir.path()));
    for (const Example& example : examples) {
      const QString problem = run_example(example, dir.path());
      if (!problem.isEmpty()) problems << example.text + "\n    " + problem;
    }
    QVERIFY2(problems.isEmpty(), qPrintable("\n" + problems.join("\n")));
    QVERIFY2(examples.size() >= 20, qPrintable(QString::number(examples.size())));
  }
};

DPLAB_TEST_GUILESS_MAIN(CliHelpExamplesTest)
#include "test_cli_help_examples.moc"
