// dplab-cli's command line as a whole (CLI11): --help and --version exit 0 on stdout, every
// usage error exits 2 with a message naming the command or flag and nothing on stdout, and an
// unknown flag is reported before a missing required one.
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "support/cli_runner.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

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
    // oso-protocol: flags override preset fields and the engine's rules name the flag; nothing
    // wraps (4294967297 is not 1) or is cut (k = 2.7 is not 2). All fail before any data loads.
    const QString oso =
        QString::fromStdString(dplab::testing::presets_dir() + "/oso-fashion-mnist-logistic.json");
    const auto oso_row = [&](const char* name, QStringList flags, const char* message) {
      QTest::newRow(name) << (QStringList{"oso-protocol", "--preset", oso} + flags) << message;
    };
    oso_row("oso seeds wrap", {"--seeds", "4294967297"}, "--seeds: 4294967297 is out of range");
    oso_row("oso seeds 0", {"--seeds", "0"}, "--seeds must be in [1, 1000000]");
    oso_row("oso k not an integer", {"--granularities", "5,2.7"},
            "--granularities: expected an integer, got '2.7'");
    oso_row("oso k too large", {"--granularities", "60"}, "--granularities must be in [1, 50]");
    oso_row("oso epsilon", {"--epsilons", "1,-1"}, "--epsilons must be finite and > 0");
    oso_row("oso empty item", {"--epsilons", "1,,2"}, "--epsilons: empty item in '1,,2'");
    oso_row("oso train subset", {"--train-subset", "1"}, "--train-subset must be >= 2");
    oso_row("oso validation subset", {"--validation-subset", "0"},
            "--validation-subset must be >= 1");
    oso_row("oso lot size", {"--lot-size", "0.5"}, "--lot-size must be >= 1");
    oso_row("oso too many runs", {"--seeds", "400000"}, "--seeds gives 483200000 training runs");
    // One --threads rule (Arguments::threads) for oso-protocol, tune, reproduce and run-jobs.
    oso_row("oso threads", {"--threads", "-1"}, "--threads: expected 0..1024, got -1");
    QTest::newRow("tune threads") << QStringList{"tune", "--config", "a.json", "--threads", "2000"}
                                  << "--threads: expected 0..1024, got 2000";
    QTest::newRow("oso preset not JSON")
        << QStringList{"oso-protocol", "--preset",
                       QString::fromStdString(dplab::testing::test_data_dir() + "/csv_small.csv")}
        << "--preset: ";
    const QString corpus =
        QString::fromStdString(dplab::testing::test_data_dir() + "/small_corpus.txt");
    QTest::newRow("canary count wraps")
        << QStringList{"canary", "--corpus", corpus, "--canaries", "4294967306"}
        << "--canaries: 4294967306 is out of range";
    QTest::newRow("objpert trials wrap")
        << QStringList{"objpert", "--compare",
                       QString::fromStdString(dplab::testing::presets_dir() +
                                              "/objpert-vs-dpsgd-adult.json"),
                       "--trials", "4294967297"}
        << "--trials: 4294967297 is out of range";
    QTest::newRow("objpert points wrap")
        << QStringList{"objpert", "--bounds-csv", "b.csv",     "--sigma", "1", "--lambda",
                       "2",       "--points",     "4294967298"}
        << "--points: 4294967298 is out of range";
    QTest::newRow("sparse vocabulary wraps")
        << QStringList{"sparse-train", "--corpus", corpus, "--vocabulary", "4294967298"}
        << "--vocabulary: 4294967298 is out of range";
    // Issue #24 item 5: one run-size cap (core/limits.h) for every command. label-canary and
    // sparse-train ran for ever on these values while train refused them (by memory only).
    const char* steps_cap = "--steps = 1e15 must be in [1, 100000000]";
    QTest::newRow("train steps cap")
        << QStringList{"train", "--dataset", "synthetic-binary", "--steps", "1e15", "--out", "o"}
        << steps_cap;
    QTest::newRow("label-canary steps cap")
        << QStringList{"label-canary", "--dataset", "synthetic-binary", "--steps", "1e15",
                       "--out",        "o"}
        << steps_cap;
    QTest::newRow("sparse-train epochs cap")
        << QStringList{"sparse-train", "--corpus", corpus, "--epochs", "1e15"}
        << "--epochs = 1e+15 must be in [0, 100000]";
    QTest::newRow("bench seconds cap")
        << QStringList{"bench", "--seconds", "1e15"} << "--seconds = 1e+15 must be in (0, 3600]";
    // Issue #24 item 6: errors quote the value as given, never a wrapped one.
    QTest::newRow("steps 2^64-1") << QStringList{"train", "--steps", "18446744073709551615",
                                                 "--out", "o"}
                                  << "--steps: 18446744073709551615 is out of range";
    QTest::newRow("steps negative quoted")
        << QStringList{"train", "--steps", "-3", "--out", "o"} << "--steps = -3 must be in [1, ";
    QTest::newRow("seed 2^64-1") << QStringList{"train", "--seed", "18446744073709551615", "--out",
                                                "o"}
                                 << "--seed: 18446744073709551615 is out of range";
    // Issue #24 item 6: a flag the selected mode does not read is refused, not ignored unchecked.
    QTest::newRow("objpert flag of another mode")
        << QStringList{"objpert", "--bounds-csv", "b.csv", "--sigma", "1", "--lambda",
                       "2",       "--trials",     "abc"}
        << "--trials is not used by --bounds-csv";
    QTest::newRow("objpert single-run flag with compare")
        << QStringList{"objpert", "--compare", "p.json", "--sigma", "nan"}
        << "--sigma is not used by --compare";
    // Issue #24 item 7: a long token is cut in the message.
    QTest::newRow("long token cut")
        << QStringList{"train", "--lr", QString(5000, QChar('7')) + "x", "--out", "o"}
        << "... (5001 characters)";
  }
  void usage_errors_exit_2_naming_what_is_wrong() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const auto r = run_cli(arguments);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
  }

  // Flags declared through cli/arguments.h (the only CLI11 user besides main): slurm's repeatable
  // --sbatch-arg=VALUE keeps every value in order (one #SBATCH line each), and reproduce's
  // positional item is required.
  void repeatableAndPositionalFlags() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath("plan");
    const auto r = run_cli(
        {"slurm", QString::fromStdString(dplab::testing::presets_dir() + "/default-synthetic.json"),
         "--out", out, "--sbatch-arg=--qos=short", "--sbatch-arg=--nice=5"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QFile script(out + "/dplab.sbatch");
    QVERIFY(script.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(script.readAll());
    const auto qos = text.indexOf("#SBATCH --qos=short\n"),
               nice = text.indexOf("#SBATCH --nice=5\n");
    QVERIFY2(qos >= 0 && nice > qos, qPrintable(text));
    const auto item = run_cli({"reproduce", "--out", dir.filePath("r")});
    QCOMPARE(item.exit_code, 2);
    QVERIFY2(item.err.contains("item is required"), qPrintable(item.err));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestCliParsing)
#include "test_cli_parsing.moc"
