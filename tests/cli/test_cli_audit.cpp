// dplab-cli audit, end to end through the real binary: the run from a --config RUN.json file,
// the accountants' upper bounds (RDP and PLD) above the audited lower bound, the non-private twin
// beside it, audit.csv through the project's CSV writer, and exit status 2 naming a bad flag.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// A small private logistic run (synthetic-binary: 10 features) written as a RUN.json.
QString write_run_json(const QTemporaryDir& dir) {
  const QString path = dir.path() + "/run.json";
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(R"({"dataset": "synthetic-binary", "model": "logistic", "optimizer": "dpsgd",
                 "lr": 0.5, "clip": 1, "noise_multiplier": 1.0, "lot_size": 500,
                 "steps": 100, "seed": 3})");
  return path;
}

// A small private search (3 candidates on synthetic-binary) written as an experiment file.
QString write_experiment_json(const QTemporaryDir& dir) {
  const QString path = dir.path() + "/experiment.json";
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(R"({"name": "audited", "dataset": {"source": "synthetic-binary", "num_samples": 2000,
                 "dim": 10}, "model": {"kind": "logistic"},
                 "privacy": {"noise_multiplier": 1, "lot_size": 60, "steps": 100},
                 "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.2, 0.5],
                 "clip": [1]}}, {"name": "dpadam", "grid": {"clip": [1]}}], "seed": 5})");
  return path;
}

}  // namespace

class CliAuditTest : public QObject {
  Q_OBJECT

 private slots:
  void whiteBoxPrintsBothBoundsAndWritesCsv() {
    QTemporaryDir dir;
    const QString config = write_run_json(dir);
    const CliRun run = run_cli({"audit", "--config", config, "--canaries", "200", "--mode",
                                "whitebox", "--confidence", "0.95", "--out", dir.path() + "/a"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("(rdp)") && run.out.contains("(pld)"), qPrintable(run.out));
    QVERIFY(run.out.contains("non-private run"));
    QVERIFY(run.out.contains("audited lower bound, all iterates"));
    QVERIFY(run.out.contains("final model only"));
    // The Gaussian fit is printed beside the bound, and labelled an estimate (issue #29 item 2).
    QVERIFY2(run.out.contains("Gaussian-fit estimate (estimate, not a bound)"),
             qPrintable(run.out));
    // The f-DP bound beside each Steinke bound, its assumption in words; the last-iterate
    // prediction beside the final-model audit, labelled a heuristic.
    QVERIFY2(run.out.contains("f-DP (Gaussian trade-off shape; Mahloujifar et al. 2025): eps >="),
             qPrintable(run.out));
    QVERIFY2(run.out.contains("last-iterate prediction, heuristic (Steinke et al. 2025), not a "
                              "bound: eps ~"),
             qPrintable(run.out));

    const QList<QByteArray> lines = read_file(dir.path() + "/a/audit.csv").trimmed().split('\n');
    // Line 1 is the header; what the bounds are is the `note` column of every row.
    const QList<QByteArray> header = lines[0].split(',');
    QCOMPARE(header.back(), QByteArray("note"));
    QVERIFY(lines[1].contains("one-run audit; epsilon_lower_bound is a LOWER bound"));
    QCOMPARE(lines.size(), 1 + 4);  // private + non-private, all iterates + final model each
    const int lower = header.indexOf("epsilon_lower_bound");
    const int rdp = header.indexOf("epsilon_rdp");
    const int pld = header.indexOf("epsilon_pld");
    const int ceiling = header.indexOf("ceiling");
    QVERIFY(lower >= 0 && rdp >= 0 && pld >= 0 && ceiling >= 0);
    const int estimate = header.indexOf("estimate_epsilon_not_a_bound");
    QVERIFY(estimate >= 0);
    QVERIFY(lines[1].contains("ESTIMATE, not a bound"));
    const QList<QByteArray> private_row = lines[1].split(',');
    QCOMPARE(private_row[0], QByteArray("private"));
    QCOMPARE(private_row[header.indexOf("canaries")], QByteArray("200"));
    // White-box default: Dirac canaries on reserved coordinates, said on stdout and in the CSV.
    QVERIFY2(run.out.contains("reserved coordinate"), qPrintable(run.out));
    QCOMPARE(private_row[header.indexOf("whitebox_canaries")], QByteArray("reserved"));
    const double bound = private_row[lower].toDouble();
    // The lower bound is below both upper bounds, which agree to a few percent.
    QVERIFY2(bound >= 0 && bound < private_row[pld].toDouble(), lines[1].constData());
    QVERIFY(bound < private_row[rdp].toDouble());
    QVERIFY(private_row[pld].toDouble() <= private_row[rdp].toDouble() * 1.001);
    // The all-iterates row carries the estimate; the final-model row leaves it empty.
    QVERIFY(private_row[estimate].toDouble() >= 0 && !private_row[estimate].isEmpty());
    QVERIFY(lines[2].split(',')[estimate].isEmpty());
    // f-DP in every row; the heuristic only in the final-model rows, inf for the twin.
    const int fdp = header.indexOf("fdp_epsilon_lower_bound");
    const int heuristic = header.indexOf("last_iterate_heuristic_epsilon_not_a_bound");
    QVERIFY(fdp >= 0 && heuristic >= 0 && header.indexOf("fdp_ceiling") >= 0);
    QVERIFY(lines[1].contains("HEURISTIC"));
    for (int i = 1; i <= 4; ++i) {
      const QList<QByteArray> row = lines[i].split(',');
      QVERIFY2(!row[fdp].isEmpty() && row[fdp].toDouble() >= 0, lines[i].constData());
      QVERIFY2(row[fdp].toDouble() <= row[header.indexOf("fdp_ceiling")].toDouble() + 1e-9,
               lines[i].constData());
    }
    QVERIFY(private_row[heuristic].isEmpty());  // all iterates: no prediction
    const QList<QByteArray> final_row = lines[2].split(',');
    QVERIFY2(final_row[heuristic].toDouble() > 0 &&
                 final_row[heuristic].toDouble() < private_row[pld].toDouble(),
             lines[2].constData());
    QCOMPARE(lines[4].split(',')[heuristic], QByteArray("inf"));
    // The non-private twin: no accountant bound.
    const QList<QByteArray> open_row = lines[3].split(',');
    QCOMPARE(open_row[0], QByteArray("non-private"));
    QCOMPARE(open_row[rdp], QByteArray("inf"));
    QVERIFY(open_row[lower].toDouble() >= 0);
    QVERIFY(open_row[lower].toDouble() <= open_row[ceiling].toDouble() + 1e-9);
  }

  void randomDirectionsStaySelectable() {
    QTemporaryDir dir;
    const CliRun run = run_cli({"audit", "--config", write_run_json(dir), "--canaries", "100",
                                "--whitebox-canaries", "random", "--out", dir.path() + "/r"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err + run.out));
    QVERIFY(run.out.contains("random unit directions"));
    const QList<QByteArray> lines = read_file(dir.path() + "/r/audit.csv").trimmed().split('\n');
    const QList<QByteArray> header = lines[0].split(',');
    QCOMPARE(lines[1].split(',')[header.indexOf("whitebox_canaries")], QByteArray("random"));
  }

  void blackBoxRuns() {
    QTemporaryDir dir;
    const CliRun run = run_cli(
        {"audit", "--config", write_run_json(dir), "--canaries", "100", "--mode", "blackbox"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err + run.out));
    QVERIFY(run.out.contains("audited lower bound, final model"));
    QVERIFY(!run.out.contains("final model only"));
    QVERIFY(run.out.contains("f-DP (Gaussian trade-off shape"));
    QVERIFY(run.out.contains("last-iterate prediction, heuristic"));
  }

  // The audit of a tuning release: the whole LT search, its released winner scored; the bound
  // beside the search's epsilon; nothing printed reveals K without --show-curator.
  void tuningReleaseAudit() {
    QTemporaryDir dir;
    const QString experiment = write_experiment_json(dir);
    CliRun run = run_cli({"audit", "--config", experiment, "--release", "private", "--strategy",
                          "lt", "--canaries", "300", "--out", dir.path() + "/t"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("audit of a tuning release"), qPrintable(run.out));
    QVERIFY(run.out.contains("one set for the whole search"));
    QVERIFY(run.out.contains("scored: the released winner's final model only"));
    QVERIFY(run.out.contains("procedure's epsilon (upper bound"));
    QVERIFY(run.out.contains("audited lower bound on the procedure, released model: eps >="));
    QVERIFY(run.out.contains("f-DP (Gaussian trade-off shape"));
    QVERIFY2(!(run.out + run.err).contains("runs trained"), qPrintable(run.err));
    const QList<QByteArray> lines =
        read_file(dir.path() + "/t/tuning_audit.csv").trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    const QList<QByteArray> header = lines[0].split(',');
    const QList<QByteArray> row = lines[1].split(',');
    QCOMPARE(row[header.indexOf("release")], QByteArray("private lt"));
    QCOMPARE(row[header.indexOf("released")], QByteArray("true"));
    const double lower = row[header.indexOf("epsilon_lower_bound")].toDouble();
    const double upper = row[header.indexOf("procedure_epsilon")].toDouble();
    QVERIFY2(lower >= 0 && lower < upper, lines[1].constData());

    run = run_cli({"audit", "--config", experiment, "--release", "private", "--strategy", "ps",
                   "--ps-mu", "2", "--mode", "blackbox", "--blackbox-canaries", "crafted",
                   "--canaries", "200", "--show-curator"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("black-box canaries (crafted)"), qPrintable(run.out));
    QVERIFY2(run.err.contains("curator only") && run.err.contains("runs trained"),
             qPrintable(run.err));

    // The one-run flags are refused with --release, and the release flags without it.
    run = run_cli({"audit", "--config", experiment, "--release", "private", "--steps", "10"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--steps"), qPrintable(run.err));
    run = run_cli({"audit", "--config", write_run_json(dir), "--strategy", "lt"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--strategy") && run.err.contains("--release"), qPrintable(run.err));
  }

  // --mu-sweep: one audited search per mu, one CSV row each, and the figure of the procedure's
  // epsilon (upper) against the audited one (lower); refused outside a Poisson PS search.
  void muSweepDrawsUpperAndLowerAgainstMu() {
    QTemporaryDir dir;
    const QString experiment = write_experiment_json(dir);
    CliRun run =
        run_cli({"audit", "--config", experiment, "--release", "private", "--strategy", "ps",
                 "--mu-sweep", "1,4", "--canaries", "200", "--out", dir.path() + "/s"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err + run.out));
    QVERIFY2(!(run.out + run.err).contains("runs trained"), qPrintable(run.err));
    const QList<QByteArray> lines =
        read_file(dir.path() + "/s/tuning_audit.csv").trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    const QList<QByteArray> header = lines[0].split(',');
    const int release = header.indexOf("release");
    const int upper = header.indexOf("procedure_epsilon");
    QVERIFY(release >= 0 && upper >= 0);
    QVERIFY2(lines[1].split(',')[release].contains("mu=1"), lines[1].constData());
    QVERIFY2(lines[2].split(',')[release].contains("mu=4"), lines[2].constData());
    // A larger mu draws more runs in expectation: its epsilon is larger.
    QVERIFY(lines[2].split(',')[upper].toDouble() > lines[1].split(',')[upper].toDouble());
    for (const char* figure : {"/s/tuning_audit.png", "/s/tuning_audit.svg"})
      QVERIFY2(QFileInfo(dir.path() + figure).size() > 1000, figure);

    run = run_cli({"audit", "--config", experiment, "--release", "private", "--strategy", "lt",
                   "--mu-sweep", "1,4"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--mu-sweep") && run.err.contains("--strategy ps"),
             qPrintable(run.err));
    run = run_cli({"audit", "--config", experiment, "--release", "private", "--strategy", "ps",
                   "--mu-sweep", "1,0.5"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--mu-sweep") && run.err.contains(">= 1"), qPrintable(run.err));
  }

  void badFlagsNameTheFlag() {
    QTemporaryDir dir;
    const QString config = write_run_json(dir);
    CliRun run = run_cli({"audit", "--config", config, "--mode", "greybox"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--mode"), qPrintable(run.err));
    run = run_cli({"audit", "--config", config, "--whitebox-canaries", "diagonal"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--whitebox-canaries"), qPrintable(run.err));
    run = run_cli({"audit", "--config", config, "--confidence", "1.5"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--confidence"), qPrintable(run.err));
    run = run_cli({"audit", "--config", config, "--canaries", "1"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--canaries"), qPrintable(run.err));
  }
};

DPLAB_TEST_MAIN(CliAuditTest)
#include "test_cli_audit.moc"
