// Tests of `dplab-cli sparse-train` and `dplab-cli canary` on the small test corpus
// (tests/data/small_corpus.txt, not the KJV): exit status, the CSV files and their columns, the
// privacy report's lines, and exit status 2 / 1 with the flag or file named for bad input.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "support/cli_runner.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {
// Functions, not constants: the data folder comes from CTest's environment, read when a test
// runs, not when the runner that holds every CLI suite starts (support/test_registry.h).
QString corpus() {
  return QString::fromStdString(dplab::testing::test_data_dir() + "/small_corpus.txt");
}
QStringList small_run() {
  return {"--corpus",        corpus(), "--vocabulary",  "50",  "--dim",    "8",
          "--train-tokens",  "400",    "--test-tokens", "200", "--epochs", "1",
          "--eval-examples", "300",    "--eval-points", "2"};
}
}  // namespace

class TestCliSparse : public QObject {
  Q_OBJECT

 private slots:
  void sparse_train_writes_figure1_and_calibration() {
    QTemporaryDir dir;
    const auto r = run_cli(QStringList{"sparse-train", "--out", dir.path()} + small_run());
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    // The guarantee amplifies by Poisson sampling correctly; the paper's q eps only beside it.
    QVERIFY(r.out.contains("Theorem 3 route: epsilon <="));
    QVERIFY(r.out.contains("Poisson amplification ln(1 + q (e^eps - 1))"));
    QVERIFY(r.out.contains("paper's formula: epsilon <="));
    QVERIFY(!r.out.contains("paper Theorem 3: epsilon <="));
    QVERIFY(r.out.contains("dplab RDP"));
    QVERIFY(r.out.contains("dpsgd       sigma ="));
    const QString figure = QString::fromUtf8(read_file(dir.path() + "/figure1.csv"));
    QVERIFY(figure.startsWith("method,step,epoch,train_loss,test_loss\n"));
    for (const char* m : {"nonprivate,", "dpsgd,", "em,", "svt,", "random,"})
      QVERIFY(figure.contains(m));
    const QString calibration = QString::fromUtf8(read_file(dir.path() + "/calibration.csv"));
    QVERIFY(calibration.startsWith("method,noise_multiplier"));
    QVERIFY(calibration.contains(",theorem3_epsilon,theorem3_paper_epsilon,"));
  }

  void canary_writes_table2() {
    QTemporaryDir dir;
    const auto r =
        run_cli(QStringList{"canary", "--out", dir.path(), "--canaries", "20", "--repeats", "3"} +
                small_run());
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QString table = QString::fromUtf8(read_file(dir.path() + "/table2.csv"));
    QVERIFY(table.startsWith(
        "n_c,method,chi2_distance,chi2_statistic,p_value,mean_exposure_bits,max_exposure_bits,"
        "canaries,train_wall_seconds\n"));
    QVERIFY(r.out.contains("exposure = log2 |V|^2 - log2 rank"));
    // Every row's exposure is within [0, log2 |V|^2] = [0, log2 2500].
    for (const QString& line : table.split('\n', Qt::SkipEmptyParts).mid(1)) {
      const QStringList cells = line.split(',');
      const double mean = cells[5].toDouble(), max = cells[6].toDouble();
      QVERIFY(mean >= 0 && mean <= max && max <= std::log2(2500.0) + 1e-9);
    }
    for (const char* m : {"3,nonprivate,", "3,dpsgd,", "3,em,", "3,never-inserted,"})
      QVERIFY(table.contains(m));
    QCOMPARE(QString::fromUtf8(read_file(dir.path() + "/histograms.csv")).count('\n'), 1 + 4 * 10);
  }

  void label_canary_detects_memorisation() {
    // Non-private TLNN on the built-in synthetic-binary set: n_c = 30 is memorised, n_c = 0 is not.
    QTemporaryDir dir;
    const auto r = run_cli({"label-canary", "--dataset", "synthetic-binary", "--model", "tlnn",
                            "--optimizer", "adam", "--lr", "0.01", "--steps", "2000", "--lot-size",
                            "50", "--canaries", "30", "--repeats", "0,30", "--out", dir.path()});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QStringList lines = QString::fromUtf8(read_file(dir.path() + "/label_canary.csv"))
                                  .split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith("n_c,canaries,chi2_distance,chi2_statistic,p_value,bin0"));
    QVERIFY(lines[1].split(',')[4].toDouble() > 0.01);  // never inserted: uniform
    QVERIFY(lines[2].split(',')[4].toDouble() < 1e-6);  // n_c = 30: memorised
    const auto bad = run_cli(
        {"label-canary", "--dataset", "synthetic-binary", "--canaries", "5", "--out", dir.path()});
    QCOMPARE(bad.exit_code, 2);
    QVERIFY(bad.err.contains("--canaries"));
  }

  void bad_input_is_reported() {
    auto r = run_cli({"sparse-train", "--methods", "em,bogus", "--corpus", corpus()});
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.err.contains("--methods"));
    r = run_cli({"canary", "--repeats", "3,x", "--corpus", corpus()});
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.err.contains("repeats"));
    r = run_cli({"sparse-train", "--epochs", "-1", "--corpus", corpus()});
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.err.contains("--epochs"));
    r = run_cli({"sparse-train", "--corpus", "/nonexistent/text.txt"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY(r.err.contains("/nonexistent/text.txt"));
    r = run_cli({"canary", "--bogus-flag", "1"});
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.err.contains("bogus-flag"));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestCliSparse)
#include "test_cli_sparse.moc"
