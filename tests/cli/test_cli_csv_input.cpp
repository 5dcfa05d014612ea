// Your own CSV through the CLI (issue #43 finding 6): a ';'-separated file with "NA" in a
// numeric and a text column, named relatively in an experiment file that lives in another folder
// than the working directory, is tuned (a tiny explore search, the best model saved) with the
// missing values imputed, and `predict` applies the recorded rule to a new file with NA;
// summary.json says what was imputed. The same with --na-policy drop given to tune over the file's
// policy; a bad --na-policy is a usage error; a file no delimiter splits is refused naming what
// each gave.
#include <QFile>
#include <QTest>
#include <filesystem>
#include <random>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;
namespace fs = std::filesystem;

namespace {

// age (numeric), colour (text), hours (numeric), label; every 7th age and every 5th colour "NA".
std::string gappy_rows(int n, std::uint64_t seed, bool with_label) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> age(18, 80), colour(0, 2), hours(1, 60);
  const char* colours[] = {"red", "green", "blue"};
  std::string text = with_label ? "age;colour;hours;label\n" : "hours;colour;age\n";
  for (int i = 0; i < n; ++i) {
    const int a = age(rng), c = colour(rng), h = hours(rng);
    const std::string a_text = i % 7 == 3 ? "NA" : std::to_string(a);
    const std::string c_text = i % 5 == 1 ? "NA" : colours[c];
    if (with_label) {
      text += a_text + ";" + c_text + ";" + std::to_string(h) + ";" +
              (a + 2 * h > 100 ? "high" : "low") + "\n";
    } else {
      text += std::to_string(h) + ";" + c_text + ";" + a_text + "\n";
    }
  }
  return text;
}

std::string experiment(const std::string& dataset) {
  return R"({"name": "gappy", "dataset": )" + dataset + R"(,
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1.0, "lot_size": 50, "steps": 30},
    "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5], "clip": 1}}],
    "eval_every": 10, "seed": 7})";
}

// check_model_files.py: model.json against its schema, and the numpy re-implementation of the
// encoding (the missing-value rule included) and forward pass equal to predict's output.
QString model_check(const QStringList& arguments) {
  return dplab::testing::python_check_problems("check_model_files.py", arguments);
}

int data_lines(const QString& csv) {
  return static_cast<int>(read_file(csv).count('\n')) - 1;  // less the header
}

}  // namespace

class TestCliCsvInput : public QObject {
  Q_OBJECT
  dplab::testing::TempFiles temp_;
  QString path(const std::string& name) const {
    return QString::fromStdString(temp_.path(name.c_str()));
  }

 private slots:
  void initTestCase() {
    fs::create_directories(temp_.path("study"));
    temp_.write("study/train.csv", gappy_rows(300, 1, true));
    temp_.write("new.csv", gappy_rows(40, 2, false));
    // Relative to the experiment file's folder, not to the test's working directory.
    temp_.write("study/exp.json",
                experiment(R"({"source": "train.csv", "na_policy": "impute-mean"})"));
    QVERIFY(!fs::exists("train.csv"));
  }

  void tuneImputesAndPredictAppliesTheSameRule() {
    const QString out = path("impute");
    CliRun r = run_cli({"tune", "--config", path("study/exp.json"), "--out", out, "--threads", "2",
                        "--save-models", "best"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    // age: rows 3, 10, ..., 297 (43); colour: rows 1, 6, ..., 296 (60).
    QVERIFY2(r.err.contains("103 values imputed in columns 'age', 'colour'"), qPrintable(r.err));
    const auto summary = nlohmann::json::parse(read_file(out + "/summary.json").toStdString());
    bool noted = false;
    for (const auto& note : summary["data"]["notes"])
      noted = noted || note.get<std::string>().find("103 values imputed") != std::string::npos;
    QVERIFY2(noted, summary["data"].dump().c_str());
    const auto model = nlohmann::json::parse(read_file(out + "/model/model.json").toStdString());
    const auto& encoding = model["input"]["encoding"];
    QCOMPARE(encoding["missing_policy"].get<std::string>(), std::string("impute-mean"));
    QCOMPARE(encoding["delimiter"].get<std::string>(), std::string(";"));
    QVERIFY(encoding["columns"][0]["impute"].is_number());
    QVERIFY(encoding["columns"][1]["impute"].is_string());

    const QString preds = path("impute-preds.csv");
    r = run_cli({"predict", "--model", out, "--dataset", path("new.csv"), "--out", preds});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QCOMPARE(data_lines(preds), 40);  // every row predicted, NA imputed
    QCOMPARE(model_check({out + "/model", path("new.csv"), preds}), QString());
    // new.csv: age NA in rows 3, 10, 17, 24, 31, 38 (6); colour in 1, 6, ..., 36 (8).
    QVERIFY2(r.err.contains("14 values imputed in columns 'age', 'colour'"), qPrintable(r.err));
  }

  // --na-policy on tune wins over the file's key; a dropped row gets no prediction.
  void dropPolicyFromTheFlag() {
    const QString out = path("drop");
    CliRun r = run_cli({"tune", "--config", path("study/exp.json"), "--na-policy", "drop", "--out",
                        out, "--threads", "2", "--save-models", "best"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    // Rows with an NA: 43 + 60 less the 8 with both (i = 31, 66, ..., 276: i % 35 == 31).
    QVERIFY2(r.err.contains("95 of 300 rows dropped for missing values"), qPrintable(r.err));
    const QString preds = path("drop-preds.csv");
    r = run_cli({"predict", "--model", out, "--dataset", path("new.csv"), "--out", preds});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    // new.csv: 6 + 8 rows less the one with both (i = 31).
    QCOMPARE(data_lines(preds), 40 - 13);
    QCOMPARE(model_check({out + "/model", path("new.csv"), preds}), QString());
    QVERIFY2(r.err.contains("13 of 40 rows dropped for missing values"), qPrintable(r.err));

    r = run_cli(
        {"tune", "--config", path("study/exp.json"), "--na-policy", "mean", "--out", path("bad")});
    QVERIFY2(r.exit_code == 2 && r.err.contains("--na-policy = 'mean'"), qPrintable(r.err));
  }

  void aFileNoDelimiterSplitsIsRefused() {
    const QString ragged = QString::fromStdString(temp_.write("ragged.csv", "a,b;c\n1;2\n3,4,5\n"));
    const CliRun r = run_cli({"train", "--dataset", ragged, "--steps", "5", "--out", path("r")});
    QVERIFY2(r.exit_code == 1, qPrintable(r.err));
    QVERIFY2(
        r.err.contains("cannot tell the delimiter") && r.err.contains("';' gives 2, 2, 1 fields"),
        qPrintable(r.err));
  }
};

DPLAB_TEST_MAIN(TestCliCsvInput)
#include "test_cli_csv_input.moc"
