// Experiment files: malformed input gives errors naming the key path; to_json/parse round trip;
// candidate expansion (grid product, seeded random draws); the shipped presets parse; every shipped
// preset is told apart by experiment/preset_kind.h as the kind its own reader accepts.
#include <QTest>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.h"
#include "core/json_guard.h"
#include "experiment/experiment_config.h"
#include "experiment/preset_kind.h"
#include "objective_perturbation/comparison_preset.h"
#include "support/expect_error.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/oso_protocol.h"

using namespace dplab;
using namespace dplab::experiment;

namespace {

// The tiny experiment with one key replaced (a JSON-pointer-like edit on the parsed object).
std::string edited(const std::string& pointer, const nlohmann::json& value, bool erase = false) {
  nlohmann::json j = nlohmann::json::parse(testing::tiny_experiment_json());
  if (erase) {
    const auto ptr = nlohmann::json::json_pointer(pointer);
    j[ptr.parent_pointer()].erase(ptr.back());
  } else {
    j[nlohmann::json::json_pointer(pointer)] = value;
  }
  return j.dump();
}

std::string preset(const char* name) {
  return testing::presets_dir() + "/" + name;
}

}  // namespace

class TestExperimentConfig : public QObject {
  Q_OBJECT
 private slots:
  void malformed_names_key_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* tag, const std::string& text, const char* expected) {
      QTest::newRow(tag) << QString::fromStdString(text) << QString(expected);
    };
    row("lr string", edited("/optimizers/1/grid/learning_rate", "abc"),
        "optimizers[1].grid.learning_rate: expected a number or list, got \"abc\"");
    row("lr list item", edited("/optimizers/0/grid/learning_rate", {0.1, "x"}),
        "optimizers[0].grid.learning_rate[1]: expected a number");
    row("unknown top key", edited("/repeat", 3), "repeat: unknown key");
    row("unknown grid key", edited("/optimizers/0/grid/learnig_rate", 0.1),
        "optimizers[0].grid.learnig_rate: unknown key");
    row("momentum on dpsgd", edited("/optimizers/0/grid/momentum", 0.9),
        "optimizers[0].grid.momentum: not a hyperparameter of dpsgd");
    row("negative clip", edited("/optimizers/0/grid/clip", {1, -1}),
        "optimizers[0].grid.clip: values must be > 0");
    row("sigma", edited("/privacy/noise_multiplier", 0), "privacy.noise_multiplier: must be > 0");
    row("steps missing", edited("/privacy/steps", nullptr, true), "privacy.steps: missing");
    row("steps float", edited("/privacy/steps", 2.5), "privacy.steps: expected an integer");
    row("delta", edited("/privacy/delta", 1.5), "privacy.delta: must be strictly between 0 and 1");
    row("optimizer name", edited("/optimizers/0/name", "sgdx"),
        "optimizers[0].name: unknown optimizer \"sgdx\"");
    row("model kind", edited("/model/kind", "resnet"), "model.kind: unknown model \"resnet\"");
    row("format", edited("/dataset/format", "xlsx"), "dataset.format: unknown format");
    row("validation", edited("/dataset/validation_fraction", 1), "dataset.validation_fraction");
    row("strategy", edited("/tuning", {{"strategy", "bayes"}}),
        "tuning.strategy: unknown strategy");
    row("random needs count", edited("/tuning", {{"strategy", "random"}}),
        "optimizers[0].count: missing (required by tuning.strategy \"random\")");
    row("range with grid", edited("/optimizers/0/grid/learning_rate", {{"log_uniform", {1e-3, 1}}}),
        "optimizers[0].grid.learning_rate: a continuous range needs random draws");
    row("log10 without num", edited("/optimizers/0/grid/learning_rate", {{"log10", {-3, 0}}}),
        "optimizers[0].grid.learning_rate.num: missing");
    row("optimizers empty", edited("/optimizers", nlohmann::json::array()),
        "optimizers: the list is empty");
    row("dataset not object", edited("/dataset", 3), "dataset: expected an object, got 3");
    row("gamma", edited("/tuning", {{"gamma", 0}}), "tuning.gamma: must be in (0, 1]");
    row("syntax", std::string("{\n  \"name\": \"x\",\n  oops\n}"), "tiny: line 3, column 3");
    // Issue #11 item 1: 50,000 levels of nesting crashed (stack overflow while printing it).
    row("deep nesting", "{\"name\": " + std::string(50000, '[') + std::string(50000, ']') + "}",
        "name[0][0][0]");
    row(
        "deep nesting cap",
        [] {
          std::string text;
          for (int i = 0; i < 50000; ++i) text += "{\"a\":";
          return text + "1" + std::string(50000, '}');
        }(),
        "...: values nested more than 64 levels deep");
    // Item 10: a number out of double range names its key path.
    row("1e400", std::string("{\"privacy\": {\"lot_size\": 1e400}}"),
        "privacy.lot_size: invalid JSON: number overflow parsing '1e400'");
    // Item 5: four grid axes of 65,536 values multiplied to 2^64 -> 0 and passed the cap.
    row("grid overflow",
        edited("/optimizers/1/grid", {{"learning_rate", {{"log10", {-5, -1}}, {"num", 65536}}},
                                      {"clip", {{"log10", {-2, 1}}, {"num", 65536}}},
                                      {"beta1", {{"log10", {-5, -1}}, {"num", 65536}}},
                                      {"beta2", {{"log10", {-5, -1}}, {"num", 65536}}}}),
        "optimizers[1].grid: the grid has more than 10^18 candidates; at most 1000000");
    row(
        "jobs cap repeats",
        [] {
          nlohmann::json j = nlohmann::json::parse(edited(
              "/optimizers/1/grid", {{"learning_rate", {{"log10", {-5, -1}}, {"num", 2000}}}}));
          j["repeats"] = 1000;
          return j.dump();
        }(),
        "repeats: 2004 candidates x 1000 repeats = 2004000 training jobs; at most 1000000");
  }
  void malformed_names_key() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    try {
      parse_experiment_text(text.toStdString(), "tiny");
      QFAIL("no error");
    } catch (const ParseError& e) {
      const std::string message = e.what();
      if (message.find(expected.toStdString()) == std::string::npos) {
        QFAIL(("message \"" + message + "\" does not contain \"" + expected.toStdString() + "\"")
                  .c_str());
      }
    }
  }

  void missing_file_is_io_error() {
    QVERIFY_THROWS_EXCEPTION(IoError, load_experiment_file("/nonexistent/dir/x.json"));
    const QString missing =
        testing::error_of<IoError>([] { load_experiment_file("/nonexistent/dir/x.json"); });
    QVERIFY2(missing.contains("No such file or directory"), qPrintable(missing));
    // Item 10: a directory as the experiment file says so.
    const QString dir =
        testing::error_of<IoError>([] { load_experiment_file(testing::test_data_dir()); });
    QVERIFY2(dir.contains("is a directory"), qPrintable(dir));
  }

  // The kind preset_kind gives each shipped preset is the one whose reader accepts it, and an
  // experiment reader given another kind names that kind's command.
  void every_preset_has_the_kind_its_reader_accepts() {
    int counts[3] = {0, 0, 0};
    for (const auto& entry : std::filesystem::directory_iterator(testing::presets_dir())) {
      if (entry.path().extension() != ".json") continue;
      const std::string path = entry.path().string();
      std::stringstream text;
      text << std::ifstream(path).rdbuf();
      const PresetKind kind = preset_kind(parse_json_text(text.str(), path));
      ++counts[static_cast<int>(kind)];
      try {
        switch (kind) {
          case PresetKind::kExperiment:
            (void)load_experiment_file(path);
            break;
          case PresetKind::kObjpertComparison:
            (void)objpert::load_comparison_preset(path);
            break;
          case PresetKind::kOsoProtocol:
            (void)tuning::parse_oso_protocol(text.str(), path);
            break;
        }
      } catch (const Error& e) {
        QFAIL((path + " is not the kind preset_kind says: " + e.what()).c_str());
      }
      if (kind != PresetKind::kExperiment) {
        const QString error = testing::error_of<ParseError>([&] { load_experiment_file(path); });
        QVERIFY2(error.contains("this is an ") && error.contains(": run `dplab-cli "),
                 qPrintable(error));
      }
    }
    QVERIFY(counts[0] > 0 && counts[1] > 0 && counts[2] > 0);
  }

  void round_trip() {
    const char* files[] = {"quick-demo.json", "table3-dpsgd-dpadam-fashion-mnist.json",
                           "figure2-synthetic-linear.json"};
    for (const char* f : files) {
      const ExperimentConfig a = load_experiment_file(preset(f));
      const nlohmann::json j = to_json(a);
      const ExperimentConfig b = parse_experiment(j);
      QCOMPARE(to_json(b).dump(), j.dump());
      QVERIFY(a.optimizers == b.optimizers);
    }
    // Forms that are not plain lists survive too.
    const ExperimentConfig c = parse_experiment_text(
        edited("/optimizers/0/grid/learning_rate", {{"log10", {-4, 1}}, {"num", 11}}));
    QVERIFY(c.optimizers[0].grid[0]->kind == ParamSpec::Kind::kLog10Grid);
    QCOMPARE(to_json(parse_experiment(to_json(c))).dump(), to_json(c).dump());
  }

  void preset_candidate_counts() {
    const auto table3 =
        expand_candidates(load_experiment_file(preset("table3-dpsgd-dpadam-fashion-mnist.json")));
    QCOMPARE(candidates_of(table3, 0).size(), std::size_t{40});
    QCOMPARE(candidates_of(table3, 1).size(), std::size_t{4});
    QCOMPARE(table3[1].optimizer.learning_rate, 0.001);  // alpha outer, C inner
    QCOMPARE(table3[1].clip, 0.2);
    QCOMPARE(table3[40].optimizer.learning_rate, 0.001);
    QCOMPARE(table3[40].optimizer.beta2, 0.999);
    QCOMPARE(
        expand_candidates(load_experiment_file(preset("figure2-synthetic-linear.json"))).size(),
        std::size_t{900});
    QCOMPARE(expand_candidates(load_experiment_file(preset("quick-demo.json"))).size(),
             std::size_t{6});
  }

  void log10_grid_and_random_draws() {
    const auto grid = expand_candidates(parse_experiment_text(
        edited("/optimizers/0/grid/learning_rate", {{"log10", {-4, 1}}, {"num", 11}})));
    QCOMPARE(candidates_of(grid, 0).size(), std::size_t{22});
    QCOMPARE(grid[0].optimizer.learning_rate, 1e-4);
    QVERIFY(std::abs(grid[21].optimizer.learning_rate - 10.0) < 1e-12);

    nlohmann::json j = nlohmann::json::parse(testing::tiny_experiment_json());
    j["tuning"] = {{"strategy", "random"}};
    j["optimizers"][0]["grid"]["learning_rate"] = {{"log_uniform", {1e-3, 1}}};
    j["optimizers"][0]["count"] = 25;
    j["optimizers"][1]["count"] = 3;
    const auto a = expand_candidates(parse_experiment(j));
    const auto b = expand_candidates(parse_experiment(j));
    QCOMPARE(a.size(), std::size_t{28});
    for (std::size_t i = 0; i < a.size(); ++i) {
      QCOMPARE(a[i].optimizer.learning_rate, b[i].optimizer.learning_rate);  // seeded
      if (a[i].optimizer_index == 0) {
        QVERIFY(a[i].optimizer.learning_rate >= 1e-3 && a[i].optimizer.learning_rate <= 1);
        QVERIFY(a[i].clip == 0.5 || a[i].clip == 1);
      }
    }
    QVERIFY(a[0].optimizer.learning_rate != a[1].optimizer.learning_rate);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestExperimentConfig)
#include "test_experiment_config.moc"
