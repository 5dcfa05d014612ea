// Your own CSV (issue #43 finding 6): missing values in numeric and text columns under each
// policy (drop, impute-mean, fail; counts and imputed values worked out by hand below), the
// markers (NA, empty, nan, ? by default; "nan" is missing, not refused), the fitted rule carried
// through model.json's encoding to rows to predict, and the delimiter detected among ',', ';' and
// tab (quotes respected, the most fields winning) or refused naming what each gave.
#include <QTest>

#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "data/csv_loader.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::data;
using dplab::testing::error_of;

namespace {

// Lines 2..8; line 3: x "NA", line 4: city "NA", line 5: x empty, line 6: label "NA".
constexpr const char* kGappy =
    "x;city;y\n"
    "1;Oslo;a\n"
    "NA;Rome;b\n"
    "3;NA;a\n"
    ";Oslo;b\n"
    "5;Rome;NA\n"
    "7;Oslo;b\n"
    "2;Rome;a\n";

CsvOptions with_policy(MissingValues policy) {
  CsvOptions options;
  options.missing = policy;
  return options;
}

bool has_note(const Dataset& data, const std::string& text) {
  for (const auto& note : data.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

std::vector<float> targets_of(const Dataset& data) {
  return std::vector<float>(data.targets.data(), data.targets.data() + data.targets.size());
}

QString notes_of(const Dataset& data) {
  QString all;
  for (const auto& note : data.notes) all += QString::fromStdString(note) + "\n";
  return all;
}

}  // namespace

class TestCsvMissingValues : public QObject {
  Q_OBJECT
  testing::TempFiles files_;

 private slots:
  // Drop: lines 3, 4, 5 and 6 go (a missing x, city, x, label); lines 2, 7, 8 stay.
  void drop_removes_rows_with_any_missing_value() {
    const std::string path = files_.write("gappy.csv", kGappy);
    CsvStats stats;
    const Dataset data = load_csv(path, with_policy(MissingValues::drop_row), &stats);
    QCOMPARE(stats.rows_read, Index{7});
    QCOMPARE(stats.rows_dropped_missing, Index{4});
    QCOMPARE(stats.values_imputed, Index{0});
    // "NA" in the text column is not a level.
    QCOMPARE(data.feature_names, (std::vector<std::string>{"x", "city=Oslo", "city=Rome"}));
    Matrix expected(3, 3);
    expected << 1, 1, 0,  //
        7, 1, 0,          //
        2, 0, 1;
    QVERIFY(data.features == expected);
    QCOMPARE(targets_of(data), (std::vector<float>{0, 1, 0}));
    QVERIFY2(has_note(data, "gappy.csv: 4 of 7 rows dropped for missing values"),
             qPrintable(notes_of(data)));
    QVERIFY2(has_note(data, "delimiter ';'"), qPrintable(notes_of(data)));
  }

  // Impute: only line 6 (label NA) goes. x's mean over its present values 1, 3, 7, 2 is 13/4 =
  // 3.25 (lines 3 and 5); city's most frequent level over lines 2, 3, 5, 7, 8 is Oslo (3 of 5),
  // line 4.
  void impute_mean_fills_numeric_and_text_columns() {
    const std::string path = files_.write("gappy.csv", kGappy);
    CsvStats stats;
    const Dataset data = load_csv(path, with_policy(MissingValues::impute_mean), &stats);
    QCOMPARE(stats.rows_dropped_missing, Index{1});
    QCOMPARE(stats.values_imputed, Index{3});
    QCOMPARE(data.feature_names, (std::vector<std::string>{"x", "city=Oslo", "city=Rome"}));
    Matrix expected(6, 3);
    expected << 1, 1, 0,  // line 2
        3.25, 0, 1,       // line 3: x imputed
        3, 1, 0,          // line 4: city imputed (Oslo)
        3.25, 1, 0,       // line 5: x imputed
        7, 1, 0,          // line 7
        2, 0, 1;          // line 8
    QVERIFY(data.features == expected);
    QCOMPARE(targets_of(data), (std::vector<float>{0, 1, 0, 1, 1, 0}));
    QVERIFY2(has_note(data, "gappy.csv: 3 values imputed in columns 'x', 'city'"),
             qPrintable(notes_of(data)));
    QVERIFY2(has_note(data, "most frequent level 'Oslo'") && has_note(data, "mean 3.25"),
             qPrintable(notes_of(data)));
    QVERIFY2(has_note(data, "1 of 7 rows dropped for missing values (a missing label"),
             qPrintable(notes_of(data)));
    QVERIFY2(data.encoding.find("'x' numeric (missing: mean 3.25)") != std::string::npos,
             data.encoding.c_str());
  }

  void fail_names_file_line_and_column() {
    const std::string path = files_.write("gappy.csv", kGappy);
    const QString message =
        error_of<ParseError>([&] { load_csv(path, with_policy(MissingValues::fail)); });
    QVERIFY2(message.contains("gappy.csv:3: missing value 'NA' in column 'x'"),
             qPrintable(message));
  }

  // "nan" is a marker by default: the row is dropped, not refused; "inf" still is.
  void nan_is_missing_by_default() {
    const std::string path = files_.write("nan.csv", "a,label\n1,0\nnan,1\n3,1\n");
    CsvStats stats;
    const Dataset data = load_csv(path, {}, &stats);
    QCOMPARE(stats.rows_dropped_missing, Index{1});
    QCOMPARE(data.size(), Index{2});
    testing::write_file(path, "a,label\n1,0\ninf,1\n3,1\n");
    const QString message = error_of<ParseError>([&] { load_csv(path); });
    QVERIFY2(message.contains("non-finite"), qPrintable(message));
  }

  // Other markers: "NA" is an ordinary level again, "-" is missing.
  void markers_can_be_chosen() {
    const std::string path = files_.write("dash.csv", "x,city,y\n1,NA,a\n-,Oslo,b\n3,Oslo,a\n");
    CsvOptions options;
    options.missing_markers = {"-"};
    CsvStats stats;
    const Dataset data = load_csv(path, options, &stats);
    QCOMPARE(stats.rows_dropped_missing, Index{1});
    QCOMPARE(data.feature_names, (std::vector<std::string>{"x", "city=NA", "city=Oslo"}));
  }

  // The rule checks of flags and files alike (csv_reading.h).
  void reading_settings_are_checked() {
    QCOMPARE(parse_na_values("NA,,nan,?", "--na-values"), default_na_values());
    QCOMPARE(parse_na_policy("impute-mean", "--na-policy"), MissingValues::impute_mean);
    QCOMPARE(parse_delimiter("tab", "--delimiter"), '\t');
    QVERIFY(error_of<InvalidArgument>([] {
              parse_na_policy("mean", "--na-policy");
            }).contains("--na-policy = 'mean' must be drop, impute-mean or fail"));
    QVERIFY(error_of<InvalidArgument>([] {
              parse_na_values("NA,NA", "--na-values");
            }).contains("'NA' is given twice"));
    QVERIFY(error_of<InvalidArgument>([] {
              parse_na_values(" NA", "--na-values");
            }).contains("surrounding blanks"));
    QVERIFY(error_of<InvalidArgument>([] {
              parse_delimiter("|", "--delimiter");
            }).contains("--delimiter = '|'"));
  }

  // model.json's encoding records the policy, the markers and the imputed values; rows to
  // predict (columns reordered, the label missing) are imputed with the training values.
  void prediction_applies_the_fitted_rule() {
    const std::string path = files_.write("gappy.csv", kGappy);
    const Dataset data = load_csv(path, with_policy(MissingValues::impute_mean));
    const nlohmann::json j = data.csv_encoder->to_json();
    QCOMPARE(j["missing_policy"].get<std::string>(), std::string("impute-mean"));
    QCOMPARE(j["delimiter"].get<std::string>(), std::string(";"));
    QCOMPARE(j["columns"][0]["impute"].get<double>(), 3.25);
    QCOMPARE(j["columns"][1]["impute"].get<std::string>(), std::string("Oslo"));
    const CsvEncoder encoder = CsvEncoder::from_json(j, "model.json#input");
    QCOMPARE(encoder.to_json().dump(), j.dump());

    const std::string fresh = files_.write("new.csv", "city,x,y\nNA,NA,NA\nRome,4,a\n");
    const CsvTable table = read_csv_table(fresh, kDetectDelimiter, encoder.delimiter());
    QCOMPARE(table.delimiter, ',');  // the training file's ';' does not split it
    bool labelled = true;
    std::vector<long> lines;
    const Dataset rows = encoder.encode_for_prediction(encoder.align(table, &labelled), &lines);
    QVERIFY(!labelled);  // line 2's label is missing
    QCOMPARE(lines, (std::vector<long>{2, 3}));
    Matrix expected(2, 3);
    expected << 3.25, 1, 0,  //
        4, 0, 1;
    QVERIFY(rows.features == expected);

    // Under drop, a row to predict with a missing feature gets no prediction (its line is left
    // out); under fail it is an error naming the line.
    const Dataset dropped_fit = load_csv(path, with_policy(MissingValues::drop_row));
    const CsvEncoder drop = CsvEncoder::from_json(dropped_fit.csv_encoder->to_json(), "m");
    const Dataset kept = drop.encode_for_prediction(drop.align(table), &lines);
    QCOMPARE(lines, (std::vector<long>{3}));
    QCOMPARE(kept.size(), Index{1});
    // A model.json written before the policy was recorded refuses a missing value, as before.
    nlohmann::json old = dropped_fit.csv_encoder->to_json();
    old.erase("missing_policy");
    const CsvEncoder strict = CsvEncoder::from_json(old, "old");
    const QString message =
        error_of<ParseError>([&] { strict.encode_for_prediction(strict.align(table), &lines); });
    QVERIFY2(message.contains("new.csv:2: missing value"), qPrintable(message));
  }

  void detects_comma_semicolon_and_tab() {
    struct Case {
      const char* text;
      char delimiter;
    };
    const Case cases[] = {
        {"a,b,y\n1,2,0\n3,4,1\n", ','},
        {"a;b;y\n1,5;2;0\n3;4;1\n", ';'},  // a decimal comma inside a ';' file
        {"a\tb\ty\n1\t2\t0\n3\t4\t1\n", '\t'},
        {"\"a;b\",y\n\"x;y\",1\n", ','},  // quoted ';' is no delimiter
        {"a,b;c;d\n1,2;3;4\n", ';'},      // both fit: the most fields wins
    };
    for (const Case& c : cases) {
      const std::string path = files_.write("d.csv", c.text);
      const CsvTable table = read_csv_table(path);
      QVERIFY2(table.delimiter == c.delimiter, c.text);
      QCOMPARE(detect_csv_delimiter(path, c.text), c.delimiter);
    }
    const std::string semicolons = files_.write("s.csv", "a;b;y\n1;2;0\n3;4;1\n");
    const Dataset data = load_csv(semicolons);
    QCOMPARE(data.dim(), Index{2});
    QVERIFY2(data.encoding.find("; delimiter ';'") != std::string::npos, data.encoding.c_str());
    // Given: used as given, not detected.
    QCOMPARE(read_csv_table(semicolons, ',').columns(), Index{1});
  }

  // No delimiter fits: the error says what each gave on the lines it sampled.
  void no_delimiter_fits_is_refused_with_the_counts() {
    const std::string path = files_.write("ragged.csv", "a,b;c\n1;2\n3,4,5\n");
    const QString message = error_of<ParseError>([&] { read_csv_table(path); });
    QVERIFY2(message.contains("ragged.csv: cannot tell the delimiter"), qPrintable(message));
    QVERIFY2(message.contains("',' gives 2, 1, 3 fields; ';' gives 2, 2, 1 fields; tab gives 1, "
                              "1, 1 fields"),
             qPrintable(message));
    QVERIFY2(message.contains("--delimiter"), qPrintable(message));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestCsvMissingValues)
#include "test_csv_missing_values.moc"
