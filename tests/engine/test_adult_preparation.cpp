// Adult's preparations (adult_preparation.h): the paper code's 202-feature encoding (each
// categorical one-hot block twice) checked feature by feature against dplab's 104-feature one,
// the train/test file split kept by prepare_split whatever the fraction and seed, and the errors.
#include <QTest>

#include <string>

#include "core/error.h"
#include "data/adult_preparation.h"
#include "data/csv_loader.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"
#include "support/expect_error.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::data;
using dplab::testing::error_of;

namespace {

std::string adult_dir() {
  return testing::datasets_dir() + "/adult";
}

Dataset load(const std::string& name) {
  DatasetSource source;
  source.name = name;
  source.path = adult_dir();
  return load_dataset(source);
}

Index index_of(const Dataset& data, const std::string& feature) {
  for (std::size_t j = 0; j < data.feature_names.size(); ++j) {
    if (data.feature_names[j] == feature) return static_cast<Index>(j);
  }
  return -1;
}

}  // namespace

class TestAdultPreparation : public QObject {
  Q_OBJECT

 private slots:
  void names_map_to_preparations() {
    QVERIFY(adult_preparation("adult").has_value());
    QVERIFY(!adult_preparation("adult")->paper_encoding);
    QVERIFY(adult_preparation("adult-paper")->paper_encoding);
    QVERIFY(!adult_preparation("adult-paper")->file_split);
    QVERIFY(adult_preparation("adult-files")->file_split);
    QVERIFY(adult_preparation("adult-paper-files")->paper_encoding);
    QVERIFY(adult_preparation("adult-paper-files")->file_split);
    QVERIFY(!adult_preparation("adults").has_value());
    for (const char* name : {"adult", "adult-paper", "adult-files", "adult-paper-files"})
      QVERIFY(is_builtin_dataset(name));
  }

  // Block structure on a hand-made table: numeric features stay single, each one-hot run of a
  // column is followed by its copy.
  void duplicates_each_one_hot_block() {
    Dataset d;
    d.name = "tiny";
    d.num_classes = 2;
    d.feature_names = {"a", "c=x", "c=y", "b", "d=1"};
    d.features.resize(2, 5);
    d.features << 0.5f, 1, 0, 0.25f, 1,  //
        0.75f, 0, 1, 1.0f, 0;
    d.targets.resize(2);
    d.targets << 0, 1;
    const Dataset p = duplicate_one_hot_blocks(d);
    const std::vector<std::string> names = {"a",     "c=x", "c=y", "c=x#2",
                                            "c=y#2", "b",   "d=1", "d=1#2"};
    QCOMPARE(p.feature_names, names);
    const int source[] = {0, 1, 2, 1, 2, 3, 4, 4};
    QCOMPARE(p.dim(), Index{8});
    for (Index i = 0; i < 2; ++i)
      for (Index j = 0; j < 8; ++j) QCOMPARE(p.features(i, j), d.features(i, source[j]));
    QCOMPARE(p.targets[1], 1.0f);
    d.feature_names.pop_back();
    QVERIFY(error_of<InvalidArgument>([&] { duplicate_one_hot_blocks(d); }).contains("names"));
  }

  // 202 = 6 numeric + 2 x 98 one-hot: every "#2" feature equals its original column, and removing
  // the copies gives back dplab's 104-feature encoding exactly.
  void paper_encoding_has_202_features() {
    const Dataset ours = load("adult");
    const Dataset paper = load("adult-paper");
    QCOMPARE(ours.dim(), Index{104});
    QCOMPARE(paper.dim(), Index{202});
    QCOMPARE(paper.size(), ours.size());
    QCOMPARE(paper.size(), Index{45222});
    int numeric = 0, copies = 0;
    for (Index j = 0; j < paper.dim(); ++j) {
      const std::string& name = paper.feature_names[static_cast<std::size_t>(j)];
      if (name.find('=') == std::string::npos) ++numeric;
      const bool is_copy = name.size() > 2 && name.compare(name.size() - 2, 2, "#2") == 0;
      const std::string original = is_copy ? name.substr(0, name.size() - 2) : name;
      const Index k = index_of(ours, original);
      QVERIFY2(k >= 0, name.c_str());
      copies += is_copy;
      for (Index i = 0; i < paper.size(); i += 97)
        QCOMPARE(paper.features(i, j), ours.features(i, k));
    }
    QCOMPARE(numeric, 6);
    QCOMPARE(copies, 98);
    for (Index i = 0; i < paper.size(); i += 101) QCOMPARE(paper.targets[i], ours.targets[i]);
    QVERIFY(!paper.notes.empty());
  }

  // The test file is the validation split, in file order, whatever the fraction and seed; the
  // targets match the files loaded independently.
  void file_split_keeps_the_test_file() {
    const Dataset all = load("adult-files");
    QCOMPARE(all.fixed_validation_begin, Index{30162});
    const CsvPair pair =
        load_csv_pair(adult_dir() + "/adult.data.csv", adult_dir() + "/adult.test.csv");
    for (double fraction : {0.2, 0.5}) {
      for (std::uint64_t seed : {0u, 7u}) {
        const TrainValidationSplit split = prepare_split(all, fraction, seed);
        QCOMPARE(split.train.size(), pair.first.size());
        QCOMPARE(split.validation.size(), pair.second.size());
        QCOMPARE(split.validation.size(), Index{15060});
        for (Index i = 0; i < split.validation.size(); ++i)
          QCOMPARE(split.validation.targets[i], pair.second.targets[i]);
        for (Index i = 0; i < split.train.size(); i += 13)
          QCOMPARE(split.train.targets[i], pair.first.targets[i]);
        QCOMPARE(split.train.fixed_validation_begin, Index{-1});
      }
    }
    const Dataset paper = load("adult-paper-files");
    QCOMPARE(paper.dim(), Index{202});
    QCOMPARE(prepare_split(paper, 0.2, 1).validation.size(), Index{15060});
    // The pooled preparation still splits at random: another seed, other rows.
    const Dataset pooled = load("adult");
    QCOMPARE(pooled.fixed_validation_begin, Index{-1});
    QCOMPARE(prepare_split(pooled, 0.2, 1).validation.size(), Index{9044});
  }

  void bad_fixed_split_is_refused() {
    Dataset d = load("adult-files");
    d.fixed_validation_begin = d.size();
    const QString message = error_of<InvalidArgument>([&] { prepare_split(d, 0.2, 0); });
    QVERIFY2(message.contains("fixed test split") && message.contains("45222"),
             qPrintable(message));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestAdultPreparation)
#include "test_adult_preparation.moc"
