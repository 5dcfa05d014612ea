// CSV loader: exact encoding of a small fixture (quotes, one-hot order, missing values, shared
// encoding with unseen categories), errors naming file:line or the column, and the real Adult
// files (counts checked independently: 30,162 + 15,060 = 45,222 rows, 7,508 ">50K" in train).
#include <QTest>

#include <algorithm>
#include <string>

#include "core/error.h"
#include "data/csv_loader.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::data;
using dplab::testing::error_of;

namespace {

// Smallest / largest entry. (Not Eigen's minCoeff/maxCoeff: with -march=native GCC 12 reports a
// false -Wmaybe-uninitialized inside their AVX-512 reductions.)
float min_of(const dplab::Matrix& m) {
  return *std::min_element(m.data(), m.data() + m.size());
}
float max_of(const dplab::Matrix& m) {
  return *std::max_element(m.data(), m.data() + m.size());
}

std::string fixture(const char* name) {
  return testing::test_data_dir() + "/" + name;
}
std::string adult_dir() {
  return testing::datasets_dir() + "/adult";
}  // the shipped copy

Index feature_index(const Dataset& data, const std::string& name) {
  const auto it = std::find(data.feature_names.begin(), data.feature_names.end(), name);
  return it == data.feature_names.end() ? -1 : it - data.feature_names.begin();
}

}  // namespace

class TestCsvLoader : public QObject {
  Q_OBJECT

 private slots:
  void parses_quotes_and_lines() {
    const CsvTable table = read_csv_table(fixture("csv_small.csv"));
    QCOMPARE(table.columns(), Index{4});
    QCOMPARE(table.rows(), Index{5});
    QCOMPARE(QString::fromStdString(table.header[2]), QStringLiteral("note, quoted"));
    QCOMPARE(QString::fromStdString(table.cell(0, 2)), QStringLiteral("a \"big\" one"));
    QCOMPARE(QString::fromStdString(table.cell(3, 2)), QStringLiteral("two\nlines"));
    QCOMPARE(QString::fromStdString(table.cell(3, 3)), QStringLiteral("no."));
    QCOMPARE(QString::fromStdString(table.cell(4, 2)), QString());
    // Line numbers skip the blank line and count the newline inside quotes.
    const std::vector<long> lines = {2, 3, 4, 6, 8};
    QCOMPARE(table.line_numbers, lines);
  }

  // Kept rows: lines 2, 3, 6 ("?" on line 4 and the empty field on line 8 are dropped).
  void encodes_small_table() {
    CsvStats stats;
    const Dataset data = load_csv(fixture("csv_small.csv"), {}, &stats);
    QCOMPARE(stats.rows_read, Index{5});
    QCOMPARE(stats.rows_dropped_missing, Index{2});
    const std::vector<std::string> names = {"age",
                                            "color=blue",
                                            "color=green",
                                            "color=red",
                                            "note, quoted=a \"big\" one",
                                            "note, quoted=plain",
                                            "note, quoted=two\nlines"};
    QCOMPARE(data.feature_names, names);
    QCOMPARE(data.num_classes, 2);
    QCOMPARE(data.class_names, (std::vector<std::string>{"no", "yes"}));
    Matrix expected(3, 7);
    expected << 30, 0, 0, 1, 1, 0, 0,  //
        41, 1, 0, 0, 0, 1, 0,          //
        52, 0, 1, 0, 0, 0, 1;
    QVERIFY(data.features == expected);
    QCOMPARE(data.targets[0], 1.0f);  // yes
    QCOMPARE(data.targets[1], 0.0f);  // no
    QCOMPARE(data.targets[2], 0.0f);  // "no." -> no
    data.validate();
  }

  // Second file with the first file's encoding: unseen "purple" and "z" are all zeros.
  void shared_encoding() {
    const CsvPair pair = load_csv_pair(fixture("csv_small.csv"), fixture("csv_small_test.csv"));
    QCOMPARE(pair.second.feature_names, pair.first.feature_names);
    QCOMPARE(pair.second_stats.rows_read, Index{2});
    QCOMPARE(pair.second_stats.rows_dropped_missing, Index{0});
    Matrix expected(2, 7);
    expected << 60, 0, 0, 0, 0, 0, 0,  //
        33, 1, 0, 0, 0, 1, 0;
    QVERIFY(pair.second.features == expected);
    QCOMPARE(pair.second.targets[0], 0.0f);
    QCOMPARE(pair.second.targets[1], 1.0f);
  }

  // Issue #11 item 9: dropped rows are reported in Dataset::notes (they were silent: 36 of 40
  // rows dropped, trained on 4), and through the split the CLI prints.
  void dropped_rows_are_reported() {
    const Dataset data = load_csv(fixture("csv_small.csv"));
    // The dropped rows, then how the columns were encoded (issue #24).
    QCOMPARE(data.notes.size(), std::size_t{2});
    QCOMPARE(data.notes[1], data.encoding);
    const QString note = QString::fromStdString(data.notes[0]);
    QVERIFY2(note.contains("csv_small.csv: 2 of 5 rows dropped for missing values"),
             qPrintable(note));
    const TrainValidationSplit split = prepare_split(data, 0.34, 1);
    QCOMPARE(split.notes, data.notes);
  }

  // Item 9: one typo in a numeric column turned it categorical (5 features -> 42). ("nan" is
  // refused by its own rule at any share: test_memory_budget.)
  void typo_in_numeric_column_is_an_error() {
    std::string text = "age,height,label\n";
    for (int i = 0; i < 40; ++i) {
      text += (i == 16 ? std::string("3O") : std::to_string(20 + i)) + "," +
              std::to_string(150 + i) + "," + std::to_string(i % 2) + "\n";
    }
    testing::TempFiles files;
    const std::string path = files.path("typo.csv");
    testing::write_file(path, text);
    const QString message = error_of<ParseError>([&] { load_csv(path); });
    QVERIFY2(message.contains(
                 "typo.csv:18: column 'age' is numeric except in 1 of 40 rows, first here: '3O'"),
             qPrintable(message));
  }

  void missing_values_can_fail() {
    CsvOptions options;
    options.missing = MissingValues::fail;
    const QString message =
        error_of<ParseError>([&] { load_csv(fixture("csv_small.csv"), options); });
    QVERIFY2(message.contains("csv_small.csv:4:") && message.contains("'color'"),
             qPrintable(message));
  }

  void label_column_by_name() {
    CsvOptions options;
    options.label_column = "color";
    const Dataset data = load_csv(fixture("csv_small.csv"), options);
    QCOMPARE(data.class_names, (std::vector<std::string>{"blue", "green", "red"}));
    QCOMPARE(data.targets[0], 2.0f);
    // "label" is now a one-hot feature; the '.'-stripping applies to the label column only.
    QCOMPARE(feature_index(data, "label=no"), Index{4});
    QCOMPARE(feature_index(data, "label=no."), Index{5});
    QCOMPARE(feature_index(data, "label=yes"), Index{6});
  }

  void unknown_label_column() {
    CsvOptions options;
    options.label_column = "income";
    const QString message =
        error_of<InvalidArgument>([&] { load_csv(fixture("csv_small.csv"), options); });
    QVERIFY2(message.contains("'income'") && message.contains("csv_small.csv") &&
                 message.contains("'age'"),
             qPrintable(message));
  }

  void wrong_field_count() {
    const QString message =
        error_of<ParseError>([&] { load_csv(fixture("csv_wrong_field_count.csv")); });
    QVERIFY2(message.contains("csv_wrong_field_count.csv:3: expected 4 fields, got 3"),
             qPrintable(message));
  }

  void unterminated_quote() {
    const QString message =
        error_of<ParseError>([&] { load_csv(fixture("csv_unterminated_quote.csv")); });
    QVERIFY2(message.contains("csv_unterminated_quote.csv:2:") && message.contains("unterminated"),
             qPrintable(message));
  }

  void missing_file() {
    const QString message = error_of<IoError>([&] { load_csv(fixture("no_such.csv")); });
    QVERIFY2(message.contains("no_such.csv"), qPrintable(message));
  }

  void regression_labels() {
    CsvOptions options;
    options.regression = true;
    const Dataset data = load_csv(fixture("csv_regression.csv"), options);
    QCOMPARE(data.num_classes, 0);
    QCOMPARE(data.dim(), Index{2});
    QCOMPARE(data.targets[0], 2.25f);
    QCOMPARE(data.targets[1], -3.5f);
    QCOMPARE(data.targets[2], 10.0f);
    QCOMPARE(data.features(1, 0), 1.5f);
    // Without the flag, non-integer numeric labels are refused with a hint.
    const QString message =
        error_of<InvalidArgument>([&] { load_csv(fixture("csv_regression.csv")); });
    QVERIFY2(message.contains("regression") && message.contains("'y'"), qPrintable(message));
  }

  void adult_files() {
    const CsvPair pair =
        load_csv_pair(adult_dir() + "/adult.data.csv", adult_dir() + "/adult.test.csv");
    const Dataset& train = pair.first;
    const Dataset& test = pair.second;
    QCOMPARE(pair.first_stats.rows_read, Index{32561});
    QCOMPARE(pair.first_stats.rows_dropped_missing, Index{2399});
    QCOMPARE(pair.second_stats.rows_read, Index{16281});
    QCOMPARE(train.size(), Index{30162});
    QCOMPARE(test.size(), Index{15060});
    // 6 numeric columns + 8 categorical with 7+16+7+14+6+5+2+41 categories.
    QCOMPARE(train.dim(), Index{104});
    QCOMPARE(test.dim(), Index{104});
    QCOMPARE(train.class_names, (std::vector<std::string>{"<=50K", ">50K"}));
    QCOMPARE(class_counts(train), (std::vector<Index>{30162 - 7508, 7508}));
    QCOMPARE(class_counts(test), (std::vector<Index>{15060 - 3700, 3700}));
    // First train row: "39, State-gov, 77516, Bachelors, 13, ..., <=50K".
    QCOMPARE(feature_index(train, "age"), Index{0});
    QCOMPARE(train.features(0, 0), 39.0f);
    QCOMPARE(train.features(0, feature_index(train, "fnlwgt")), 77516.0f);
    QCOMPARE(train.features(0, feature_index(train, "workclass=State-gov")), 1.0f);
    QCOMPARE(train.features(0, feature_index(train, "workclass=Private")), 0.0f);
    QCOMPARE(train.features(0, feature_index(train, "education=Bachelors")), 1.0f);
    QCOMPARE(train.targets[0], 0.0f);
    // Each categorical column is exactly one-hot in every row (no unseen test categories).
    QCOMPARE(train.features.block(0, 0, 1, 104).sum(), 39.0f + 77516 + 13 + 2174 + 0 + 40 + 8);
    // Last test row: "35, Self-emp-inc, 182148, ..., >50K."
    QCOMPARE(test.features(test.size() - 1, 0), 35.0f);
    QCOMPARE(test.targets[test.size() - 1], 1.0f);
  }

  // Built-in "adult": the shipped, checksum-verified files (no path needed), shared encoding,
  // scaled to [0, 1] — the paper's 45,222 rows.
  void adult_catalog() {
    DatasetSource source;
    source.name = "adult";
    const Dataset data = load_dataset(source);
    QCOMPARE(data.size(), Index{45222});
    QCOMPARE(data.dim(), Index{104});
    QCOMPARE(class_counts(data), (std::vector<Index>{34014, 11208}));
    QCOMPARE(min_of(data.features), 0.0f);
    QCOMPARE(max_of(data.features), 1.0f);
    // age ranges 17..90 in Adult: the first row's 39 scales to (39 - 17) / 73.
    QCOMPARE(data.features(0, 0), (39.0f - 17.0f) / 73.0f);
    // A folder of one's own copy replaces the shipped one; a folder without the files says so.
    DatasetSource wrong_folder;
    wrong_folder.name = "adult";
    wrong_folder.path = testing::test_data_dir();
    const QString message = error_of<IoError>([&] { load_dataset(wrong_folder); });
    QVERIFY2(message.contains("adult.data.csv"), qPrintable(message));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestCsvLoader)
#include "test_csv_loader.moc"
