// Tests of `dplab-cli sparse-train` and `dplab-cli canary` on the small test corpus
// (tests/data/small_corpus.txt, not the KJV): exit status, the CSV files and their columns, the
// privacy report's lines, and exit status 2 / 1 with the flag or file named for bad input.
#include <QDir>
#include <QFileInfo>
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
    // Figure 1 drawn (issue #31 item 4), and its verdict with the scale rule: on this tiny run
    // the non-private baseline does not learn, and the verdict says so.
    for (const char* file :
         {"figure1-train.svg", "figure1-train.png", "figure1-test.svg", "figure1-test.png"})
      QVERIFY2(QFileInfo(dir.path() + "/" + file).size() > 0, file);
    QVERIFY(r.out.contains("scale rule: non-private does NOT learn: start - final train = "));
    QVERIFY(r.out.contains("Figure 1 verdict: "));
    QVERIFY(r.out.contains("[the non-private baseline does not learn at this scale]"));
    QVERIFY(r.out.contains("Adam lr = 0.001 (lazy moments), gamma = 0.001,"));
  }

  void oracle_diagnosis_is_printed_and_outside_the_verdict() {
    // The oracle (exact top-k, no noise) with dense moments at a larger step: printed as the
    // diagnosis, listed as not private, and drawn; the settings line names what changed.
    QTemporaryDir dir;
    const auto r = run_cli(QStringList{"sparse-train", "--out", dir.path(), "--methods",
                                       "dpsgd,em,oracle", "--adam-moments", "dense",
                                       "--learning-rate", "0.01", "--init-std", "0.5"} +
                           small_run());
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("Adam lr = 0.01 (dense moments)"));
    QVERIFY(r.out.contains("embedding init N(0, 0.5^2)"));
    QVERIFY(r.out.contains("oracle      exact top-k selection, no noise: no privacy guarantee"));
    QVERIFY(r.out.contains("diagnosis: exact top-k, no noise"));
    QVERIFY(QString::fromUtf8(read_file(dir.path() + "/figure1.csv")).contains("\noracle,"));
    QVERIFY(
        QString::fromUtf8(read_file(dir.path() + "/calibration.csv")).contains(",calibrated\n"));
  }

  void a_given_sparse_sigma_is_named_and_zero_has_no_guarantee() {
    QTemporaryDir dir;
    auto r = run_cli(
        QStringList{"sparse-train", "--out", dir.path(), "--methods", "em", "--sparse-sigma", "0"} +
        small_run());
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(
        r.out.contains("em          sigma = 0 (given by --sparse-sigma, not the budget's): no "
                       "noise, no privacy guarantee"));
    QVERIFY(!r.out.contains("Theorem 3 route: epsilon <= inf"));
    const QString csv = QString::fromUtf8(read_file(dir.path() + "/calibration.csv"));
    QVERIFY2(csv.contains("\nem,0,") && csv.contains(",given\n"), qPrintable(csv));
    // A given sigma > 0 keeps its accounting, for that sigma.
    r = run_cli(QStringList{"sparse-train", "--out", dir.path(), "--methods", "em",
                            "--sparse-sigma", "0.5"} +
                small_run());
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("em          sigma = 0.5 (given by --sparse-sigma"));
    QVERIFY(r.out.contains("Theorem 3 route: epsilon <="));
    r = run_cli(QStringList{"sparse-train", "--sparse-sigma", "-1"} + small_run());
    QVERIFY2(r.exit_code == 2 && r.err.contains("--sparse-sigma"), qPrintable(r.err));
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
        "canaries,train_wall_seconds,noise_multiplier,sigma_source\n"));
    QVERIFY(r.out.contains("exposure = log2 |V|^2 - log2 rank"));
    // Every row's exposure is within [0, log2 |V|^2] = [0, log2 2500].
    for (const QString& line : table.split('\n', Qt::SkipEmptyParts).mid(1)) {
      const QStringList cells = line.split(',');
      const double mean = cells[5].toDouble(), max = cells[6].toDouble();
      QVERIFY(mean >= 0 && mean <= max && max <= std::log2(2500.0) + 1e-9);
    }
    for (const char* m : {"3,nonprivate,", "3,dpsgd,", "3,em,", "3,never-inserted,"})
      QVERIFY(table.contains(m));
    // Without --sigma: DP-SGD and em share em's calibrated sigma, labelled "calibrated".
    for (const QString& line : table.split('\n', Qt::SkipEmptyParts).mid(1)) {
      const QStringList cells = line.split(',');
      const bool dp = cells[1] == "dpsgd" || cells[1] == "em";
      QCOMPARE(cells[10], dp ? QString("calibrated") : QString("none"));
      QVERIFY(dp ? cells[9].toDouble() > 0 : cells[9].toDouble() == 0);
    }
    QVERIFY(r.out.contains("sigma calibrated to the budget"));
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

  // Issue #31 item 5: Table 2 at an explicit sigma (the paper's 0.5): DP-SGD and em train at it,
  // the CSV says "given", stdout says the runs do not have the budget's epsilon; and the
  // histograms differ from the calibrated run's (the sigma is really used).
  void canary_at_a_given_sigma() {
    QTemporaryDir given, calibrated;
    const QStringList common = QStringList{"--canaries", "20", "--repeats", "3"} + small_run();
    const auto r = run_cli(QStringList{"canary", "--out", given.path(), "--sigma", "0.5"} + common);
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("sigma = 0.5 given with --sigma"));
    QVERIFY(r.out.contains("epsilon not as printed"));
    const QString table = QString::fromUtf8(read_file(given.path() + "/table2.csv"));
    int dp_rows = 0;
    for (const QString& line : table.split('\n', Qt::SkipEmptyParts).mid(1)) {
      const QStringList cells = line.split(',');
      if (cells[1] != "dpsgd" && cells[1] != "em") continue;
      ++dp_rows;
      QCOMPARE(cells[9].toDouble(), 0.5);
      QCOMPARE(cells[10], QString("given"));
    }
    QCOMPARE(dp_rows, 2);
    const auto c = run_cli(QStringList{"canary", "--out", calibrated.path()} + common);
    QVERIFY2(c.exit_code == 0, qPrintable(c.err));
    const QString table_c = QString::fromUtf8(read_file(calibrated.path() + "/table2.csv"));
    QVERIFY(table_c.contains(",calibrated\n"));
    QVERIFY(!table_c.contains(",0.5,calibrated"));
    // Same seed and data, another sigma: DP-SGD's mean exposure (a continuous statistic of the
    // canaries' ranks) changes, so the given sigma is the one trained with.
    auto dpsgd_exposure = [](const QString& csv) {
      for (const QString& line : csv.split('\n', Qt::SkipEmptyParts))
        if (line.split(',')[1] == "dpsgd") return line.split(',')[5];
      return QString();
    };
    QVERIFY(!dpsgd_exposure(table).isEmpty());
    QVERIFY(dpsgd_exposure(table) != dpsgd_exposure(table_c));
    for (const char* bad : {"0", "-1", "abc", "1000", "nan"}) {
      const auto b = run_cli({"canary", "--sigma", bad, "--corpus", corpus()});
      QVERIFY2(b.exit_code == 2, bad);
      QVERIFY2(b.err.contains("--sigma"), qPrintable(b.err));
    }
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
    for (const QStringList& flag :
         {QStringList{"--adam-moments", "eager"}, QStringList{"--gamma", "1.5"},
          QStringList{"--gamma", "0"}, QStringList{"--learning-rate", "-0.1"},
          QStringList{"--init-std", "0"}}) {
      r = run_cli(QStringList{"sparse-train", "--corpus", corpus()} + flag);
      QVERIFY2(r.exit_code == 2 && r.err.contains(flag[0]),
               qPrintable(flag.join(' ') + ": " + r.err));
    }
    r = run_cli({"canary", "--bogus-flag", "1"});
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.err.contains("bogus-flag"));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestCliSparse)
#include "test_cli_sparse.moc"
