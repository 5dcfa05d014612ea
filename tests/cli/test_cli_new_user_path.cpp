// A new user's path (issue #43, "Done when"), as docs/guide/first-private-model.md writes it, in
// an empty folder: their own CSV (';'-separated, "NA" for a missing value, as a spreadsheet in a
// European locale saves it) -> a private tuned model -> predictions -> a figure, in three
// commands:
//   dplab-cli tune --config quick-demo --dataset mine.csv --label-column income
//            --na-policy impute-mean --release private --strategy lt --out run
//   dplab-cli predict --model run --dataset new.csv --out preds.csv
//   dplab-cli plot run --out run/figure.pdf
// Checked: each exits 0; the release is private LT with the winner's model and no K; predict
// writes one row per new row with a class probability; the figure is a PDF. Refusals of the new
// tune flags: --label-column without --dataset, --dataset with --plan.
#include <QDir>
#include <QFile>
#include <QTest>
#include <random>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// A small table as a user has one: numeric and text columns, the label not last, ';' between
// fields and "NA" in about one row of 12 (in a numeric and in a text column).
std::string user_rows(int n, std::uint64_t seed, bool with_label) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> age(18, 80), hours(1, 60), job(0, 2), gap(0, 11);
  const char* jobs[] = {"clerk", "nurse", "driver"};
  std::string text = with_label ? "age;income;job;hours\n" : "age;job;hours\n";
  for (int i = 0; i < n; ++i) {
    const int a = age(rng), h = hours(rng), j = job(rng), g = gap(rng);
    const char* income = a + h + 10 * j > 90 ? "high" : "low";
    text += (g == 0 ? std::string("NA") : std::to_string(a)) + ";" +
            (with_label ? std::string(income) + ";" : "") + (g == 1 ? "NA" : jobs[j]) + ";" +
            std::to_string(h) + "\n";
  }
  return text;
}

}  // namespace

class TestCliNewUserPath : public QObject {
  Q_OBJECT
  dplab::testing::TempFiles temp_;

 private slots:
  void ownCsvToPrivateModelPredictionsAndFigure() {
    const QString dir = QString::fromStdString(temp_.path("user"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(QDir::setCurrent(dir));
    {
      QFile f(dir + "/mine.csv");
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray::fromStdString(user_rows(800, 1, true)));
      QFile g(dir + "/new.csv");
      QVERIFY(g.open(QIODevice::WriteOnly));
      g.write(QByteArray::fromStdString(user_rows(50, 2, false)));
    }
    // The preset by its name (found in the shipped presets folder from any working directory).
    CliRun r = run_cli({"tune", "--config", "quick-demo", "--dataset", "mine.csv", "--label-column",
                        "income", "--na-policy", "impute-mean", "--release", "private",
                        "--strategy", "lt", "--out", "run", "--threads", "2"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("delimiter ';'"), qPrintable(r.err));
    QVERIFY2(r.err.contains("values imputed"), qPrintable(r.err));
    const auto release = nlohmann::json::parse(read_file(dir + "/run/release.json").toStdString());
    QCOMPARE(release["mode"].get<std::string>(), std::string("private lt"));
    QVERIFY(QFile::exists(dir + "/run/model/model.npz"));
    QVERIFY(release.dump().find("runs_trained") == std::string::npos);
    const auto model =
        nlohmann::json::parse(read_file(dir + "/run/model/model.json").toStdString());
    QVERIFY2(model.dump().find("job=nurse") != std::string::npos, "the text column is one-hot");
    QVERIFY2(model.dump().find("job=NA") == std::string::npos, "NA is missing, not a level");

    r = run_cli({"predict", "--model", "run", "--dataset", "new.csv", "--out", "preds.csv"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QString preds = QString::fromUtf8(read_file(dir + "/preds.csv"));
    QCOMPARE(preds.section('\n', 0, 0), QString("row,predicted,p_high,p_low,epsilon_label"));
    // Every row: its NA imputed by the model's rule.
    QVERIFY2(preds.count(QLatin1Char(10)) == 51, qPrintable(r.err + preds.left(400)));

    r = run_cli({"plot", "run", "--out", "run/figure.pdf"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(read_file(dir + "/run/figure.pdf").startsWith("%PDF"));
  }

  void tuneDatasetFlagRefusals() {
    const QString preset =
        QString::fromStdString(dplab::testing::presets_dir() + "/quick-demo.json");
    CliRun r = run_cli({"tune", "--config", preset, "--label-column", "x", "--out",
                        QString::fromStdString(temp_.path("a"))});
    QVERIFY2(r.exit_code == 2 && r.err.contains("--label-column"), qPrintable(r.err));
    r = run_cli({"tune", "--config", preset, "--dataset", "adult", "--plan",
                 QString::fromStdString(temp_.path("plan"))});
    QVERIFY2(r.exit_code == 2 && r.err.contains("--plan"), qPrintable(r.err));
  }
};

DPLAB_TEST_MAIN(TestCliNewUserPath)
#include "test_cli_new_user_path.moc"
