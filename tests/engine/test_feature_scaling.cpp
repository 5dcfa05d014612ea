// Public feature bounds (data/feature_scaling.h) and the "not covered" labels (issue #23 items 3
// and 4): bounds make scaling data-independent (an extreme row changes no other row, where the
// default min-max fit does), clamp, keep one-hot features, and fail naming the field; the
// epsilon label and ReleaseCost::not_covered name the training losses (explore) and data-fitted
// preprocessing, and say nothing of the preprocessing when the bounds are public.
#include <QTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "core/error.h"
#include "data/adult_preparation.h"
#include "data/dataset_catalog.h"
#include "data/feature_scaling.h"
#include "data/prepare_split.h"
#include "experiment/experiment_config.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "tuning/release_cost.h"

using namespace dplab;
using namespace dplab::data;
using dplab::testing::error_of;

namespace {

// Three rows of two numeric features and a label; `extra` appends one more row.
std::string csv_text(const std::string& extra = "") {
  return "height,weight,label\n150,50,a\n170,70,b\n190,90,a\n" + extra;
}

Dataset load_csv_file(const std::string& path, const FeatureBounds& bounds = {}) {
  DatasetSource source;
  source.path = path;
  source.feature_bounds = bounds;
  return load_dataset(source);
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

experiment::ExperimentConfig experiment_on(const std::string& dataset_json,
                                           const std::string& release = "") {
  return experiment::parse_experiment_text(R"({"name": "t", "dataset": )" + dataset_json + R"(,
          "model": {"kind": "logistic"},
          "privacy": {"noise_multiplier": 1.0, "lot_size": 10, "steps": 20},
          "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.2], "clip": 1}}],
          "seed": 1)" + release + "}",
                                           "t");
}

// The cost of a search as if every run had finished (no training needed).
tuning::ReleaseCost cost_of(const experiment::ExperimentConfig& config) {
  return tuning::planned_release_cost(config, 1000, 250);
}

}  // namespace

class FeatureScalingTest : public QObject {
  Q_OBJECT

 private slots:
  // The heart of item 4: with public bounds, a row's scaled features depend on that row only.
  // Today's default (min-max fitted on all rows) moves every other row when an outlier arrives.
  void public_bounds_are_data_independent() {
    testing::TempFiles files;
    const std::string plain = files.write("plain.csv", csv_text());
    const std::string outlier = files.write("outlier.csv", csv_text("1000,5000,b\n"));
    FeatureBounds bounds;
    bounds.all = FeatureInterval{100, 250};
    const Dataset a = load_csv_file(plain, bounds);
    const Dataset b = load_csv_file(outlier, bounds);
    QCOMPARE(b.size(), a.size() + 1);
    for (Index i = 0; i < a.size(); ++i) {
      for (Index j = 0; j < a.dim(); ++j) {
        QCOMPARE(b.features(i, j), a.features(i, j));  // same code path, same inputs: exact
      }
    }
    // (150 - 100) / 150 = 1/3; the outlier is clamped to the bound: exactly 1.
    QVERIFY(std::abs(a.features(0, 0) - 1.0f / 3.0f) < 1e-6f);
    QCOMPARE(b.features(3, 0), 1.0f);
    QCOMPARE(b.features(3, 1), 1.0f);
    QVERIFY(!a.preprocessing.fitted_on_private_data);

    // The data-fitted default: the outlier changes the other rows' values.
    const Dataset fitted_a = load_csv_file(plain);
    const Dataset fitted_b = load_csv_file(outlier);
    QVERIFY(fitted_a.features(1, 0) != fitted_b.features(1, 0));
    QVERIFY(fitted_a.preprocessing.fitted_on_private_data);
    QVERIFY(fitted_a.preprocessing.description.find(kPreprocessingNotCovered) != std::string::npos);
  }

  void named_bounds_win_and_clamp_below() {
    Dataset data;
    data.name = "toy";
    data.features.resize(2, 3);
    data.features << -5.0f, 1.0f, 20.0f, 5.0f, 0.0f, 40.0f;
    data.targets = Vector::Zero(2);
    data.num_classes = 2;
    data.feature_names = {"x", "color=red", "z"};
    FeatureBounds bounds;
    bounds.all = FeatureInterval{0, 10};
    bounds.by_name["z"] = FeatureInterval{0, 40};
    apply_feature_bounds(data, bounds);
    QCOMPARE(data.features(0, 0), 0.0f);  // -5 clamped to 0
    QCOMPARE(data.features(1, 0), 0.5f);  // (5 - 0) / 10
    QCOMPARE(data.features(0, 1), 1.0f);  // one-hot keeps its value
    QCOMPARE(data.features(1, 1), 0.0f);
    QCOMPARE(data.features(0, 2), 0.5f);  // z: its own bound [0, 40]
    QCOMPARE(data.features(1, 2), 1.0f);
  }

  void errors_name_the_field() {
    QVERIFY(error_of<InvalidArgument>([] {
              parse_feature_range("5:1", "--feature-range");
            }).contains("--feature-range"));
    QVERIFY(error_of<InvalidArgument>([] {
              parse_feature_range("abc", "--feature-range");
            }).contains("LO:HI"));
    QVERIFY(error_of<InvalidArgument>([] {
              parse_feature_range("0:", "--feature-range");
            }).contains("--feature-range = '0:'"));
    QVERIFY(error_of<InvalidArgument>([] { parse_feature_range("-inf:1", "f"); }).contains("f"));
    const FeatureInterval ok = parse_feature_range(" -1.5 : 2e2 ", "f");
    QCOMPARE(ok.low, -1.5);
    QCOMPARE(ok.high, 200.0);
    const auto bad_bounds = nlohmann::json::parse(R"({"age": [90, 17]})");
    QVERIFY(error_of<InvalidArgument>([&] {
              parse_feature_bounds(bad_bounds, "dataset.b");
            }).contains("dataset.b.age"));
    const auto not_pair = nlohmann::json::parse(R"({"age": 3})");
    QVERIFY(error_of<InvalidArgument>([&] {
              parse_feature_bounds(not_pair, "dataset.b");
            }).contains("dataset.b.age: expected [low, high]"));

    Dataset data;
    data.name = "toy";
    data.features = Matrix::Zero(1, 2);
    data.targets = Vector::Zero(1);
    data.num_classes = 2;
    data.feature_names = {"a", "b"};
    FeatureBounds only_a;
    only_a.field = "dataset.feature_bounds";
    only_a.by_name["a"] = FeatureInterval{0, 1};
    const QString missing = error_of<InvalidArgument>([&] { apply_feature_bounds(data, only_a); });
    QVERIFY2(missing.contains("dataset.feature_bounds") && missing.contains("'b'"),
             qPrintable(missing));
    FeatureBounds typo = only_a;
    typo.by_name["c"] = FeatureInterval{0, 1};
    typo.all = FeatureInterval{0, 1};
    const QString unknown = error_of<InvalidArgument>([&] { apply_feature_bounds(data, typo); });
    QVERIFY2(unknown.contains("'c'") && unknown.contains("no feature of that name"),
             qPrintable(unknown));
  }

  void experiment_keys_parse_with_clear_errors() {
    const auto range = experiment_on(R"({"source": "synthetic-binary", "feature_range": "0:2"})");
    QVERIFY(range.dataset.feature_bounds.all.has_value());
    QCOMPARE(range.dataset.feature_bounds.all->high, 2.0);
    const auto pair = experiment_on(
        R"({"source": "adult", "feature_range": [0, 1], "feature_bounds": {"age": [17, 90]}})");
    QCOMPARE(pair.dataset.feature_bounds.by_name.at("age").low, 17.0);
    // Round trip through the JSON the run history stores.
    const auto again = experiment::parse_experiment_text(experiment::to_json(pair).dump(), "again");
    QCOMPARE(again.dataset.feature_bounds.by_name.at("age").high, 90.0);
    QCOMPARE(again.dataset.feature_bounds.all->low, 0.0);

    const QString bad_range = error_of<ParseError>(
        [] { experiment_on(R"({"source": "synthetic-binary", "feature_range": "2:0"})"); });
    QVERIFY2(bad_range.contains("dataset.feature_range"), qPrintable(bad_range));
    const QString bad_type = error_of<ParseError>(
        [] { experiment_on(R"({"source": "synthetic-binary", "feature_range": true})"); });
    QVERIFY2(bad_type.contains("dataset.feature_range"), qPrintable(bad_type));
    const QString bad_bound = error_of<ParseError>(
        [] { experiment_on(R"({"source": "adult", "feature_bounds": {"age": ["young", 90]}})"); });
    QVERIFY2(bad_bound.contains("dataset.feature_bounds.age"), qPrintable(bad_bound));
  }

  // Adult with public bounds for its six numeric columns: each numeric value is a fixed affine
  // function of the raw value, whatever the other rows are.
  void adult_takes_public_bounds() {
    DatasetSource source;
    source.name = "adult";
    source.path = testing::datasets_dir() + "/adult";
    source.feature_bounds.by_name = {{"age", {0, 100}},           {"fnlwgt", {0, 1.5e6}},
                                     {"education-num", {1, 16}},  {"capital-gain", {0, 1e5}},
                                     {"capital-loss", {0, 5000}}, {"hours-per-week", {1, 99}}};
    const Dataset data = load_dataset(source);
    QVERIFY(!data.preprocessing.fitted_on_private_data);
    QCOMPARE(data.feature_names.front(), std::string("age"));
    // First row of adult.data.csv: age 39 -> 0.39.
    QVERIFY(std::abs(data.features(0, 0) - 0.39f) < 1e-6f);
    source.feature_bounds = {};
    QVERIFY(load_dataset(source).preprocessing.fitted_on_private_data);
  }

  void preprocessing_of_follows_the_source() {
    DatasetSource pixels;
    pixels.name = "fashion-mnist";
    QVERIFY(!preprocessing_of(pixels).fitted_on_private_data);
    DatasetSource synthetic;
    synthetic.name = "synthetic-binary";
    QVERIFY(!preprocessing_of(synthetic).fitted_on_private_data);
    DatasetSource csv;
    csv.path = "somewhere/data.csv";
    QVERIFY(preprocessing_of(csv).fitted_on_private_data);
    csv.feature_bounds.all = FeatureInterval{0, 1};
    QVERIFY(!preprocessing_of(csv).fitted_on_private_data);
    DatasetSource adult;
    adult.name = "adult-files";
    QVERIFY(preprocessing_of(adult).fitted_on_private_data);
  }

  // Item 3 and 4 labels: explore exports the training losses; data-fitted scaling is named.
  void epsilon_label_says_what_is_not_covered() {
    const auto fitted = cost_of(experiment_on(R"({"source": "adult"})"));
    const std::string label = tuning::epsilon_label(fitted);
    QVERIFY2(label.find(tuning::kTrainingLossNotCovered) != std::string::npos, label.c_str());
    QVERIFY2(label.find(kPreprocessingNotCovered) != std::string::npos, label.c_str());
    QVERIFY(contains(fitted.not_covered, "train_loss"));
    QVERIFY(contains(fitted.not_covered, "final_train_loss"));
    QVERIFY(contains(fitted.not_covered, "preprocessing"));
    QVERIFY(tuning::epsilon_csv_label(fitted).find("not covered") != std::string::npos);

    const auto bounded =
        cost_of(experiment_on(R"({"source": "adult", "feature_bounds": {"age": [17, 90]}})"));
    QVERIFY(tuning::epsilon_label(bounded).find(kPreprocessingNotCovered) == std::string::npos);
    QVERIFY(!contains(bounded.not_covered, "preprocessing"));

    // A private release exports no training loss; the fitted scaling is still named.
    const auto released = cost_of(experiment_on(
        R"({"source": "adult"})", R"(, "release": {"mode": "private", "selection": "ma"})"));
    QVERIFY(!contains(released.not_covered, "train_loss"));
    QVERIFY(tuning::epsilon_label(released).find(tuning::kTrainingLossNotCovered) ==
            std::string::npos);
    QVERIFY(contains(released.not_covered, "preprocessing"));
  }

  void prepare_split_keeps_the_record() {
    testing::TempFiles files;
    const Dataset all = load_csv_file(files.write("d.csv", csv_text("160,60,b\n")));
    const TrainValidationSplit split = prepare_split(all, 0.25, 3);
    QVERIFY(split.preprocessing.fitted_on_private_data);
    QCOMPARE(split.preprocessing.description, all.preprocessing.description);
  }
};

DPLAB_TEST_APPLESS_MAIN(FeatureScalingTest)
#include "test_feature_scaling.moc"
