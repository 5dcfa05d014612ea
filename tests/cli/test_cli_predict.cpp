// The model in the user's hands (issue #42 finding 7, #43): every door that releases a trained
// model writes model/model.npz + model/model.json, and `dplab-cli predict` applies it to a new
// file. Checked as a user without dplab would check it: numpy.load, and a numpy re-implementation
// of the documented encoding and forward pass (tests/support/check_model_files.py) equal to
// predict's probabilities to 1e-5.
//   - train --out on a CSV (numeric + categorical columns, min-max fitted): model written, the
//     encoding and the fitted scaling listed not covered; predict on a file with the columns in
//     another order and no label column; the numpy check passes; a missing column is refused;
//   - tune --release private: the released winner's model only; a cancelled or explore run
//     without --save-models writes none; --save-models all writes one per run;
//   - predict's flags: --model, --dataset and --out are required; a folder without a model is
//     refused naming model.json.
#include <QFile>
#include <QProcess>
#include <QTest>
#include <filesystem>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;
namespace fs = std::filesystem;

namespace {

// check_model_files.py: "" when it passes, else what it printed.
QString model_check(const QStringList& arguments) {
  return dplab::testing::python_check_problems("check_model_files.py", arguments);
}

std::string make_rows(int n, std::uint64_t seed, bool label_last) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> age(18, 80), colour(0, 3), hours(1, 60);
  const char* colours[] = {"red", "green", "blue", "grey"};
  std::string text = label_last ? "age,colour,hours,label\n" : "hours,colour,age\n";
  for (int i = 0; i < n; ++i) {
    const int a = age(rng), c = colour(rng), h = hours(rng);
    const char* label = (a + 2 * h > 100) != (c == 2) ? "high" : "low";
    text += label_last
                ? std::to_string(a) + "," + colours[c] + "," + std::to_string(h) + "," + label
                : std::to_string(h) + "," + colours[c] + "," + std::to_string(a);
    text += "\n";
  }
  return text;
}

}  // namespace

class TestCliPredict : public QObject {
  Q_OBJECT
  dplab::testing::TempFiles temp_;
  QString path(const std::string& name) const {
    return QString::fromStdString(temp_.path(name.c_str()));
  }

 private slots:
  void trainThenPredictMatchesNumpy_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("logistic") << "logistic";
    QTest::newRow("tlnn") << "tlnn";
  }
  void trainThenPredictMatchesNumpy() {
    QFETCH(QString, model);
    const QString train_csv =
        QString::fromStdString(temp_.write("train.csv", make_rows(300, 1, true)));
    const QString new_csv = QString::fromStdString(temp_.write("new.csv", make_rows(40, 2, false)));
    const QString out = path("run-" + model.toStdString());
    CliRun r = run_cli({"train", "--dataset",  train_csv, "--model", model, "--optimizer",
                        "dpsgd", "--lr",       "0.5",     "--clip",  "1",   "--noise-multiplier",
                        "1",     "--lot-size", "50",      "--steps", "40",  "--eval-every",
                        "20",    "--seed",     "3",       "--out",   out});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(QFile::exists(out + "/model/model.npz"));
    const auto release = nlohmann::json::parse(read_file(out + "/release.json").toStdString());
    std::set<std::string> files(release["files"].begin(), release["files"].end());
    QVERIFY(files.count("model/model.npz") && files.count("model/model.json"));
    std::set<std::string> not_covered;
    for (const auto& item : release["not_covered"]) {
      if (item["file"] == "model/model.json") not_covered.insert(item["field"].get<std::string>());
    }
    QCOMPARE(not_covered, (std::set<std::string>{"input.encoding", "input.fitted_scaling"}));
    const auto model_json =
        nlohmann::json::parse(read_file(out + "/model/model.json").toStdString());
    QCOMPARE(model_json["privacy"]["epsilon"].get<double>(),
             release["privacy"]["epsilon"].get<double>());

    const QString preds = out + "/preds.csv";
    r = run_cli({"predict", "--model", out, "--dataset", new_csv, "--out", preds});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    // No label column: no score against placeholder labels.
    QVERIFY2(!r.err.contains("accuracy"), qPrintable(r.err));
    const QString text = QString::fromUtf8(read_file(preds));
    QCOMPARE(text.section('\n', 0, 0), QString("row,predicted,p_high,p_low,epsilon_label"));
    QCOMPARE(text.count('\n'), 41);
    const QString problems = model_check({out + "/model", new_csv, preds});
    QVERIFY2(problems.isEmpty(), qPrintable(problems));

    // The training file itself (label column present): predict also reports the accuracy.
    r = run_cli(
        {"predict", "--model", out + "/model", "--dataset", train_csv, "--out", out + "/own.csv"});
    QVERIFY2(r.exit_code == 0 && r.err.contains("accuracy"), qPrintable(r.err));

    // A file without a column the encoding needs.
    const QString bad = QString::fromStdString(temp_.write("bad.csv", "hours,age\n3,40\n"));
    r = run_cli({"predict", "--model", out, "--dataset", bad, "--out", out + "/bad.csv"});
    QVERIFY2(r.exit_code > 0 && r.err.contains("'colour'"), qPrintable(r.err));
    QVERIFY(!QFile::exists(out + "/bad.csv"));
  }

  void privateTuneReleasesTheWinnersModelOnly() {
    const QString config = QString::fromStdString(
        temp_.write("tiny.json", dplab::testing::tiny_experiment_json(30, 1)));
    const QString out = path("private");
    CliRun r = run_cli({"tune", "--config", config, "--release", "private", "--strategy", "ma",
                        "--out", out, "--threads", "2"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(QFile::exists(out + "/model/model.npz"));
    QVERIFY(!fs::exists((out + "/models").toStdString()));
    QCOMPARE(model_check({out + "/model"}), QString());
    r = run_cli({"tune", "--config", config, "--release", "private", "--strategy", "ma",
                 "--save-models", "all", "--out", path("private-all")});
    QVERIFY2(r.exit_code == 2 && r.err.contains("--save-models"), qPrintable(r.err));
  }

  void exploreWritesModelsOnRequest() {
    const QString config = QString::fromStdString(
        temp_.write("explore.json", dplab::testing::tiny_experiment_json(30, 1)));
    const QString none = path("explore-none");
    CliRun r = run_cli({"tune", "--config", config, "--out", none, "--threads", "2"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(!fs::exists((none + "/model").toStdString()));
    QVERIFY(!fs::exists((none + "/models").toStdString()));
    const QString all = path("explore-all");
    r = run_cli({"tune", "--config", config, "--out", all, "--save-models", "all"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto release = nlohmann::json::parse(read_file(all + "/release.json").toStdString());
    int models = 0;
    for (const auto& file : release["files"]) {
      const std::string name = file.get<std::string>();
      if (name.size() > 10 && name.substr(name.size() - 10) == "model.json") ++models;
    }
    QCOMPARE(models, release["released"]["runs"].get<int>());
    const QString best = path("explore-best");
    r = run_cli({"tune", "--config", config, "--out", best, "--save-models", "best"});
    QVERIFY2(r.exit_code == 0 && QFile::exists(best + "/model/model.json"), qPrintable(r.err));
    r = run_cli({"tune", "--config", config, "--out", path("x"), "--save-models", "some"});
    QVERIFY2(r.exit_code == 2 && r.err.contains("none, best or all"), qPrintable(r.err));
  }

  // A model of data without a CSV encoding (synthetic: features x1..xd): a CSV's columns are
  // matched to its features by name, in any order (before, such a file's last column was taken
  // for a label and refused).
  void syntheticModelPredictsFromACsvByName() {
    const QString config = QString::fromStdString(
        temp_.write("tiny.json", dplab::testing::tiny_experiment_json(30, 1)));
    const QString out = path("synthetic");
    CliRun r = run_cli({"tune", "--config", config, "--release", "private", "--strategy", "ma",
                        "--out", out, "--threads", "2"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QString rows = QString::fromStdString(temp_.write(
        "rows.csv", "x5,x4,x3,x2,x1,note\n0.1,0.2,0.3,0.4,0.5,a\n0.9,0.8,0.7,0.6,0.5,b\n"));
    r = run_cli({"predict", "--model", out, "--dataset", rows, "--out", out + "/p.csv"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QString text = QString::fromUtf8(read_file(out + "/p.csv"));
    QCOMPARE(text.count('\n'), 3);
    QVERIFY(text.startsWith("row,predicted,p_0,p_1,epsilon_label\n2,"));
    // The same rows with the columns in the model's order predict the same.
    const QString ordered = QString::fromStdString(
        temp_.write("ordered.csv", "x1,x2,x3,x4,x5\n0.5,0.4,0.3,0.2,0.1\n0.5,0.6,0.7,0.8,0.9\n"));
    r = run_cli({"predict", "--model", out, "--dataset", ordered, "--out", out + "/q.csv"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QCOMPARE(read_file(out + "/q.csv"), read_file(out + "/p.csv"));
    const QString short_file = QString::fromStdString(temp_.write("short.csv", "x1,x2\n0.5,0.4\n"));
    r = run_cli({"predict", "--model", out, "--dataset", short_file, "--out", out + "/s.csv"});
    QVERIFY2(r.exit_code > 0 && r.err.contains("no column 'x3'"), qPrintable(r.err));
  }

  void predictRefusesAFolderWithoutAModel() {
    const QString empty = path("empty");
    fs::create_directories(empty.toStdString());
    const CliRun r = run_cli(
        {"predict", "--model", empty, "--dataset", empty + "/x.csv", "--out", path("p.csv")});
    QVERIFY2(r.exit_code == 1 && r.err.contains("model.json"), qPrintable(r.err));
    const CliRun usage = run_cli({"predict", "--model", empty});
    QCOMPARE(usage.exit_code, 2);
  }
};

DPLAB_TEST_MAIN(TestCliPredict)
#include "test_cli_predict.moc"
