// dplab-cli's command line as a whole (CLI11): --help and --version exit 0 on stdout, every
// usage error exits 2 with a message naming the command or flag and nothing on stdout, and an
// unknown flag is reported before a missing required one.
#include <QRegularExpression>
#include <QTest>

#include "support/cli_runner.h"

using dplab::testing::run_cli;

class TestCliParsing : public QObject {
  Q_OBJECT

 private slots:
  void help_lists_every_command() {
    const auto r = run_cli({"--help"});
    QCOMPARE(r.exit_code, 0);
    for (const char* command : {"train", "tune", "account", "calibrate", "bench"}) {
      QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\n  %1 ").arg(command))),
               command);
    }
    QVERIFY(r.err.isEmpty());
  }

  void every_command_has_help() {
    for (const char* command : {"train", "tune", "account", "calibrate", "bench"}) {
      const auto r = run_cli({command, "--help"});
      QCOMPARE(r.exit_code, 0);
      QVERIFY2(r.out.contains(QStringLiteral("Usage: dplab-cli %1").arg(command)),
               qPrintable(r.out));
    }
  }

  void version() {
    const auto r = run_cli({"--version"});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(QRegularExpression(QStringLiteral("^dplab-cli \\d+\\.\\d+\\.\\d+\\n$"))
                 .match(r.out)
                 .hasMatch(),
             qPrintable(r.out));
  }

  void usage_errors_exit_2_naming_what_is_wrong_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("no command") << QStringList{} << "A subcommand is required";
    QTest::newRow("unknown command") << QStringList{"fly"} << "unknown command 'fly'";
    QTest::newRow("unknown flag before missing required")
        << QStringList{"calibrate", "--epsilom", "1"} << "unexpected argument '--epsilom'";
    QTest::newRow("stray positional") << QStringList{"bench", "now"} << "unexpected argument 'now'";
    QTest::newRow("missing value") << QStringList{"tune", "--config"} << "--config";
    QTest::newRow("missing required")
        << QStringList{"calibrate", "--epsilon", "1", "--delta", "1e-5", "--sampling-rate", "0.1"}
        << "--steps is required";
    QTest::newRow("given twice") << QStringList{"tune", "--config", "a.json", "--config=b.json"}
                                 << "--config";
  }
  void usage_errors_exit_2_naming_what_is_wrong() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const auto r = run_cli(arguments);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
  }
};

QTEST_APPLESS_MAIN(TestCliParsing)
#include "test_cli_parsing.moc"
