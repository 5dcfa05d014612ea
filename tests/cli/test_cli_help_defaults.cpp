// The "(default X)" a dplab-cli --help line prints is what the command does when the flag is
// omitted (issue #43: train and calibrate --help said "pld (default)" while they computed with
// RDP). For a set of flags: read the default from the --help text, run the command without the
// flag, and compare with the value its JSON output reports.
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// The help text of `--flag` in `help` (its line and the indented continuation lines), one line.
QString flag_help(const QString& help, const QString& flag) {
  const QStringList lines = help.split('\n');
  QString text;
  bool inside = false;
  for (const QString& line : lines) {
    const bool option_line = line.startsWith(QLatin1String("  -"));
    if (option_line) {
      if (inside) break;
      inside = line.trimmed().startsWith("--" + flag + " ") || line.trimmed() == "--" + flag;
    } else if (inside && !line.startsWith(QLatin1String("      "))) {
      break;
    }
    if (inside) text += " " + line.trimmed();
  }
  return text.simplified();
}

// X of "(default X)" / "(default: X)" / "(... ; default X)" / "(default X, ...)" in the flag's
// help; empty when the line prints no default.
QString printed_default(const QString& help, const QString& flag) {
  static const QRegularExpression pattern(QStringLiteral("(?:\\(|; )default:? ([^;,)\\s]+)"));
  const QRegularExpressionMatch match = pattern.match(flag_help(help, flag));
  return match.hasMatch() ? match.captured(1) : QString();
}

QString help_of(const QStringList& command) {
  const CliRun run = run_cli(command + QStringList{"--help"});
  return run.exit_code == 0 ? run.out : QString();
}

QJsonObject json_of(const CliRun& run) {
  return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

// The printed default equals the value the run reports (numbers compared as numbers).
void compare_default(const QString& command, const QString& flag, const QString& printed,
                     const QJsonValue& used) {
  const QString where = command + " --" + flag + ": --help says '" + printed + "', the run used ";
  QVERIFY2(!printed.isEmpty(), qPrintable(command + " --" + flag + ": no default in --help"));
  if (used.isDouble()) {
    bool ok = false;
    const double value = printed.toDouble(&ok);
    QVERIFY2(ok && std::abs(value - used.toDouble()) <= 1e-9 * std::abs(used.toDouble()),
             qPrintable(where + QString::number(used.toDouble(), 'g', 17)));
  } else {
    QVERIFY2(used.isString() && printed == used.toString(),
             qPrintable(where + QJsonDocument(QJsonObject{{"v", used}}).toJson()));
  }
}

}  // namespace

class CliHelpDefaultsTest : public QObject {
  Q_OBJECT

 private slots:
  // The reader itself: a wrong default is found (else every check below would pass vacuously).
  void readerFindsTheDefault() {
    const QString help =
        "  --steps T                   noisy-gradient queries (default 1000)\n"
        "  --accountant rdp|pld        rdp or pld (default: rdp): the accountant of the epsilon\n"
        "                              column\n"
        "  --epochs E                  passes (default 8; the paper 20)\n";
    QCOMPARE(printed_default(help, "steps"), QString("1000"));
    QCOMPARE(printed_default(help, "accountant"), QString("rdp"));
    QCOMPARE(printed_default(help, "epochs"), QString("8"));
    QCOMPARE(printed_default(help, "seed"), QString());
  }

  void accountDefaults() {
    const QString help = help_of({"account"});
    QVERIFY(!help.isEmpty());
    const QStringList base{"account", "--noise-multiplier",
                           "1.1",     "--sampling-rate",
                           "0.01",    "--steps",
                           "1000",    "--delta",
                           "1e-5"};
    const CliRun one = run_cli(base);
    QVERIFY2(one.exit_code == 0, qPrintable(one.err));
    const QJsonObject single = json_of(one);
    compare_default("account", "accountant", printed_default(help, "accountant"),
                    single["accountant"]);
    compare_default("account", "candidates", printed_default(help, "candidates"),
                    single["candidates"]);
    compare_default("account", "conversion", printed_default(help, "conversion"),
                    single["conversion"]);
    // LT's own defaults, with K = 5 (gamma's default 1/K is a rule, checked as such).
    const CliRun lt = run_cli(base + QStringList{"--candidates", "5", "--selection", "lt"});
    QVERIFY2(lt.exit_code == 0, qPrintable(lt.err));
    const QJsonObject selection = json_of(lt);
    compare_default("account", "delta2", printed_default(help, "delta2"), selection["delta2"]);
    compare_default("account", "lt-log-base", printed_default(help, "lt-log-base"),
                    selection["lt_log_base"]);
    QCOMPARE(printed_default(help, "gamma"), QString("1/K"));
    QCOMPARE(selection["gamma"].toDouble(), 1.0 / 5);
  }

  void calibrateDefaults() {
    const QString help = help_of({"calibrate"});
    const CliRun run = run_cli({"calibrate", "--epsilon", "1", "--delta", "1e-5", "--sampling-rate",
                                "0.01", "--steps", "1000"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    const QJsonObject out = json_of(run);
    compare_default("calibrate", "accountant", printed_default(help, "accountant"),
                    out["accountant"]);
    compare_default("calibrate", "conversion", printed_default(help, "conversion"),
                    out["conversion"]);
  }

  // train with only --dataset and --out: summary.json's config is what the run used.
  void trainDefaults() {
    const QString help = help_of({"train"});
    QTemporaryDir dir;
    const CliRun run = run_cli({"train", "--dataset", "synthetic-binary", "--out", dir.path()});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    const QJsonObject summary =
        QJsonDocument::fromJson(read_file(dir.path() + "/summary.json")).object();
    const QJsonObject config = summary["config"].toObject();
    for (const char* flag : {"steps", "clip", "noise-multiplier", "lot-size", "model", "optimizer",
                             "validation-fraction", "eval-every", "seed", "format"}) {
      const QString key = QString(flag).replace('-', '_');
      QVERIFY2(config.contains(key), qPrintable(key));
      compare_default("train", flag, printed_default(help, flag), config[key]);
    }
    compare_default("train", "accountant", printed_default(help, "accountant"),
                    summary["privacy"].toObject()["accountant"]);
    // --lr: "the optimizer's paper default, 0.01 for dpsgd/...": the dpsgd run's lr.
    QVERIFY2(flag_help(help, "lr")
                 .contains(QString::number(config["lr"].toDouble()) + " for " +
                           config["optimizer"].toString()),
             qPrintable(flag_help(help, "lr")));
  }
};

DPLAB_TEST_GUILESS_MAIN(CliHelpDefaultsTest)
#include "test_cli_help_defaults.moc"
