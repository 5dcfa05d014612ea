// Paths in an experiment file are read from the file's folder (issue #43 finding 6): a relative
// dataset.source, dataset.path and model.file load from any working directory, a built-in name
// stays a name, and the dataset section's CSV keys (delimiter, na_values, na_policy) are parsed
// with the flags' rules, written back by to_json and reach the loader.
#include <QDir>
#include <QTest>

#include <filesystem>
#include <string>

#include "core/error.h"
#include "data/dataset_catalog.h"
#include "data/path_beside.h"
#include "experiment/experiment_config.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "tuning/runner.h"

using namespace dplab;
using dplab::testing::error_of;
namespace fs = std::filesystem;

namespace {

std::string experiment_json(const std::string& dataset) {
  return R"({"name": "paths", "dataset": )" + dataset + R"(,
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1.0, "lot_size": 5, "steps": 5},
    "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": 0.1, "clip": 1}}]})";
}

// Changes the working directory for one scope.
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const std::string& dir) : saved_(QDir::currentPath()) {
    QDir::setCurrent(QString::fromStdString(dir));
  }
  ~WorkingDirectory() { QDir::setCurrent(saved_); }

 private:
  QString saved_;
};

}  // namespace

class TestExperimentPaths : public QObject {
  Q_OBJECT
  testing::TempFiles files_;

 private slots:
  void relative_paths_are_read_beside_the_file() {
    fs::create_directories(files_.path("study/data"));
    fs::create_directories(files_.path("elsewhere"));
    std::string rows = "x;city;y\n";
    for (int i = 0; i < 20; ++i)
      rows += std::to_string(i) + ";" +
              (i % 3 == 0 ? "NA"
               : i % 2    ? "Oslo"
                          : "Rome") +
              ";" + std::to_string(i % 2) + "\n";
    files_.write("study/data/rows.csv", rows);
    const std::string experiment = files_.write(
        "study/exp.json", experiment_json(R"({"source": "data/rows.csv", "na_policy": "impute-mean",
                            "na_values": ["NA"], "delimiter": ";"})"));
    // From another folder, by an absolute path to the file: the data is found beside it.
    {
      WorkingDirectory cwd(files_.path("elsewhere"));
      const experiment::ExperimentConfig config = experiment::load_experiment_file(experiment);
      QCOMPARE(config.dataset.source, files_.path("study/data/rows.csv"));
      QCOMPARE(config.dataset.csv.na_policy, data::MissingValues::impute_mean);
      QCOMPARE(config.dataset.csv.na_values, std::vector<std::string>{"NA"});
      QCOMPARE(config.dataset.csv.delimiter, ';');
      const auto split = tuning::load_experiment_data(config);
      QCOMPARE(split->train.size() + split->validation.size(), Index{20});
      bool imputed = false;
      for (const auto& note : split->notes)
        imputed = imputed || note.find("7 values imputed in columns 'city'") != std::string::npos;
      QVERIFY(imputed);
      // The keys written back parse to the same config (the store and plans rely on it).
      const auto j = experiment::to_json(config);
      QCOMPARE(j["dataset"]["na_policy"].get<std::string>(), std::string("impute-mean"));
      QCOMPARE(j["dataset"]["delimiter"].get<std::string>(), std::string(";"));
      QCOMPARE(experiment::to_json(experiment::parse_experiment(j)).dump(), j.dump());
    }
    // By a relative path from the folder above: the source is relative to the same folder.
    {
      WorkingDirectory cwd(files_.path(""));
      const auto config = experiment::load_experiment_file("study/exp.json");
      QCOMPARE(config.dataset.source, std::string("study/data/rows.csv"));
      QVERIFY(fs::exists(config.dataset.source));
    }
  }

  // A built-in name stays a name; a built-in's folder (dataset.path) and an absolute path are
  // read as before; text parsed without a file keeps its paths as written.
  void names_and_absolute_paths_are_kept() {
    const std::string folder = files_.path("presets");
    fs::create_directories(folder);
    const std::string builtin = files_.write(
        "presets/b.json",
        experiment_json(R"({"source": "synthetic-binary", "num_samples": 50, "dim": 2})"));
    QCOMPARE(experiment::load_experiment_file(builtin).dataset.source,
             std::string("synthetic-binary"));
    const std::string adult = files_.write(
        "presets/a.json", experiment_json(R"({"source": "adult", "path": "../adult"})"));
    QCOMPARE(experiment::load_experiment_file(adult).dataset.path,
             (fs::path(files_.path("")) / "adult").lexically_normal().string());
    const std::string absolute =
        files_.write("presets/abs.json", experiment_json(R"({"source": "/data/rows.csv"})"));
    QCOMPARE(experiment::load_experiment_file(absolute).dataset.source,
             std::string("/data/rows.csv"));
    QCOMPARE(experiment::parse_experiment_text(experiment_json(R"({"source": "rows.csv"})"))
                 .dataset.source,
             std::string("rows.csv"));
    QCOMPARE(data::path_beside("exp.json", "rows.csv"), std::string("rows.csv"));
  }

  // The dataset section's keys follow the flags' rules, and name the key.
  void csv_keys_are_checked() {
    const QString policy = error_of<ParseError>([] {
      experiment::parse_experiment_text(
          experiment_json(R"({"source": "x.csv", "na_policy": "mean"})"), "e.json");
    });
    QVERIFY2(policy.contains("dataset.na_policy = 'mean' must be drop, impute-mean or fail"),
             qPrintable(policy));
    const QString markers = error_of<ParseError>([] {
      experiment::parse_experiment_text(
          experiment_json(R"({"source": "x.csv", "na_values": ["NA", 1]})"), "e.json");
    });
    QVERIFY2(markers.contains("dataset.na_values[1]"), qPrintable(markers));
    const QString delimiter = error_of<ParseError>([] {
      experiment::parse_experiment_text(experiment_json(R"({"source": "x.csv", "delimiter": "|"})"),
                                        "e.json");
    });
    QVERIFY2(delimiter.contains("dataset.delimiter = '|'"), qPrintable(delimiter));
    // Defaults are not written (older files and stored runs read the same).
    const auto plain = experiment::to_json(
        experiment::parse_experiment_text(experiment_json(R"({"source": "x.csv"})")));
    QVERIFY(!plain["dataset"].contains("na_policy") && !plain["dataset"].contains("delimiter") &&
            !plain["dataset"].contains("na_values"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestExperimentPaths)
#include "test_experiment_paths.moc"
