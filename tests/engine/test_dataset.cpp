// Dataset basics: validate() errors, the seeded 80/20 split (sizes, determinism, disjointness,
// the exact Fisher-Yates permutation), min-max scaling, row selection, and catalog lookups.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "core/error.h"
#include "core/random.h"
#include "data/dataset.h"
#include "data/dataset_catalog.h"
#include "support/expect_error.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::data;
using dplab::testing::error_of;

namespace {

// n rows; feature 0 and the target are the row index, so rows can be traced after a split.
Dataset indexed(Index n, int num_classes = 0) {
  Dataset data;
  data.name = "indexed";
  data.num_classes = num_classes;
  data.features.resize(n, 2);
  data.targets.resize(n);
  for (Index i = 0; i < n; ++i) {
    data.features(i, 0) = static_cast<float>(i);
    data.features(i, 1) = 1.0f;
    data.targets[i] = num_classes > 0 ? static_cast<float>(i % num_classes) : static_cast<float>(i);
  }
  return data;
}

}  // namespace

class TestDataset : public QObject {
  Q_OBJECT

 private slots:
  void validate_accepts_good_data() {
    indexed(10).validate();
    indexed(10, 3).validate();
  }

  void validate_errors() {
    Dataset empty;
    QVERIFY(error_of<InvalidArgument>([&] { empty.validate(); }).contains("empty"));

    Dataset short_targets = indexed(5);
    short_targets.targets.resize(4);
    QVERIFY(error_of<InvalidArgument>([&] {
              short_targets.validate();
            }).contains("5 feature rows but 4 targets"));

    Dataset nan_feature = indexed(5);
    nan_feature.features(3, 1) = std::numeric_limits<float>::quiet_NaN();
    const QString nan_message = error_of<InvalidArgument>([&] { nan_feature.validate(); });
    QVERIFY2(nan_message.contains("row 3, column 1") && nan_message.contains("not finite"),
             qPrintable(nan_message));

    Dataset bad_label = indexed(5, 2);
    bad_label.targets[4] = 2.0f;
    QVERIFY(error_of<InvalidArgument>([&] {
              bad_label.validate();
            }).contains("row 4 = 2 is not a class index in 0..1"));
    bad_label.targets[4] = 0.5f;
    QVERIFY(error_of<InvalidArgument>([&] { bad_label.validate(); }).contains("row 4 = 0.5"));

    Dataset one_class = indexed(5, 1);
    QVERIFY(error_of<InvalidArgument>([&] { one_class.validate(); }).contains("num_classes = 1"));

    Dataset names = indexed(5);
    names.feature_names = {"only one"};
    QVERIFY(
        error_of<InvalidArgument>([&] { names.validate(); }).contains("1 feature names for d = 2"));

    Dataset inf_target = indexed(5);
    inf_target.targets[2] = std::numeric_limits<float>::infinity();
    QVERIFY(error_of<InvalidArgument>([&] { inf_target.validate(); }).contains("target of row 2"));
  }

  void split_sizes() {
    const auto split = split_train_validation(indexed(100), 0.2, 7);
    QCOMPARE(split.train.size(), Index{80});
    QCOMPARE(split.validation.size(), Index{20});
    // The paper's Adult: 45,222 rows -> 9,044 validation (0.2 * 45,222 = 9,044.4 rounded).
    const auto adult_sized = split_train_validation(indexed(45222), 0.2, 1);
    QCOMPARE(adult_sized.validation.size(), Index{9044});
    QCOMPARE(adult_sized.train.size(), Index{36178});
    // Rounding never empties a side.
    const auto tiny = split_train_validation(indexed(2), 0.01, 1);
    QCOMPARE(tiny.train.size(), Index{1});
    QCOMPARE(tiny.validation.size(), Index{1});
  }

  void split_is_deterministic_and_disjoint() {
    const Dataset all = indexed(1000, 10);
    const auto a = split_train_validation(all, 0.2, 42);
    const auto b = split_train_validation(all, 0.2, 42);
    const auto c = split_train_validation(all, 0.2, 43);
    QVERIFY(a.train.features == b.train.features);
    QVERIFY(a.validation.features == b.validation.features);
    QVERIFY(a.validation.features != c.validation.features);
    std::set<float> seen;
    for (Index i = 0; i < a.train.size(); ++i) seen.insert(a.train.features(i, 0));
    for (Index i = 0; i < a.validation.size(); ++i) seen.insert(a.validation.features(i, 0));
    QCOMPARE(seen.size(), std::size_t{1000});  // disjoint and covering
    // Targets travel with their rows; metadata is kept.
    for (Index i = 0; i < a.train.size(); ++i) {
      QCOMPARE(a.train.targets[i],
               static_cast<float>(static_cast<int>(a.train.features(i, 0)) % 10));
    }
    QCOMPARE(a.train.num_classes, 10);
    // Shuffled, not a prefix.
    QVERIFY(a.validation.features.col(0).maxCoeff() < 1000 &&
            a.validation.features(0, 0) != 800.0f);
  }

  // The permutation is Fisher-Yates driven by Rng::below, from the last index down: pinned here
  // so a stored experiment's split stays the same across versions.
  void split_matches_reference_permutation() {
    const Index n = 50;
    std::vector<Index> order(n);
    std::iota(order.begin(), order.end(), Index{0});
    Rng rng(123);
    for (Index i = n - 1; i > 0; --i)
      std::swap(order[i], order[rng.below(static_cast<std::uint64_t>(i) + 1)]);
    const auto split = split_train_validation(indexed(n), 0.2, 123);
    for (Index k = 0; k < 40; ++k) QCOMPARE(split.train.targets[k], static_cast<float>(order[k]));
    for (Index k = 0; k < 10; ++k)
      QCOMPARE(split.validation.targets[k], static_cast<float>(order[40 + k]));
  }

  void split_errors() {
    QVERIFY(error_of<InvalidArgument>([] {
              split_train_validation(indexed(10), 0.0, 1);
            }).contains("validation_fraction = 0"));
    QVERIFY(error_of<InvalidArgument>([] {
              split_train_validation(indexed(10), 1.0, 1);
            }).contains("validation_fraction = 1"));
    QVERIFY(error_of<InvalidArgument>([] {
              split_train_validation(indexed(1), 0.2, 1);
            }).contains("at least 2"));
  }

  void min_max_scaler() {
    Dataset fit_on;
    fit_on.features.resize(3, 3);
    fit_on.features << 2, 5, -1,  //
        4, 5, 3,                  //
        6, 5, 1;
    fit_on.targets = Vector::Zero(3);
    const MinMaxScaler scaler = MinMaxScaler::fit(fit_on);
    QCOMPARE(scaler.minimum[0], 2.0f);
    QCOMPARE(scaler.range[0], 4.0f);
    QCOMPARE(scaler.range[1], 0.0f);
    Dataset other = fit_on;
    other.features.row(0) << 8, 7, 1;  // outside the fitted range: not clipped
    scaler.apply(fit_on);
    scaler.apply(other);
    Matrix expected(3, 3);
    expected << 0, 0, 0,  //
        0.5f, 0, 1,       //
        1, 0, 0.5f;
    QVERIFY(fit_on.features == expected);
    QCOMPARE(other.features(0, 0), 1.5f);
    QCOMPARE(other.features(0, 1), 0.0f);  // constant feature -> 0 whatever the value
    QCOMPARE(other.features(0, 2), 0.5f);
    Dataset wrong = indexed(3);
    QVERIFY(error_of<InvalidArgument>([&] { scaler.apply(wrong); }).contains("d = 3"));
    QVERIFY(error_of<InvalidArgument>([] { MinMaxScaler::fit(Dataset{}); }).contains("empty"));
  }

  void select_and_concatenate() {
    const Dataset all = indexed(6, 3);
    const Dataset picked = select_rows(all, {5, 0, 5});
    QCOMPARE(picked.size(), Index{3});
    QCOMPARE(picked.features(0, 0), 5.0f);
    QCOMPARE(picked.features(1, 0), 0.0f);
    QCOMPARE(picked.targets[2], 2.0f);
    QVERIFY(error_of<InvalidArgument>([&] { select_rows(all, {6}); }).contains("row index 6"));
    const Dataset both = concatenate(all, picked, "both");
    QCOMPARE(both.size(), Index{9});
    QCOMPARE(both.features(6, 0), 5.0f);
    QCOMPARE(class_counts(both), (std::vector<Index>{3, 2, 4}));
    QVERIFY(error_of<InvalidArgument>([&] { class_counts(indexed(3)); }).contains("regression"));
  }

  void catalog_names() {
    const auto infos = builtin_datasets();
    std::vector<std::string> names;
    for (const auto& info : infos) {
      names.push_back(info.name);
      QVERIFY(!info.description.empty());
    }
    QCOMPARE(names,
             (std::vector<std::string>{"fashion-mnist", "fashion-mnist-all", "fashion-mnist-files",
                                       "synthetic-linear", "synthetic-binary", "adult",
                                       "adult-paper", "adult-files", "adult-paper-files"}));
    DatasetSource source;
    source.name = "cifar";
    const QString message = error_of<InvalidArgument>([&] { load_dataset(source); });
    QVERIFY2(message.contains("'cifar'") && message.contains("synthetic-linear"),
             qPrintable(message));
    QCOMPARE(parse_data_format("LIBSVM"), DataFormat::libsvm);
    QCOMPARE(parse_data_format("auto"), DataFormat::automatic);
    QVERIFY(error_of<InvalidArgument>([] { parse_data_format("xlsx"); }).contains("'xlsx'"));
    QCOMPARE(QString(to_string(DataFormat::csv)), QStringLiteral("csv"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestDataset)
#include "test_dataset.moc"
