// The one CSV writer (store/csv_table.h) behind the engine's exports and every GUI chart/table
// CSV: RFC 4180 quoting, exact text, atomic file writing with errors naming the file, and the
// α–C grid table that both alpha_clip_grid.csv and the GUI heatmap's CSV come from.
#include <QTest>

#include <fstream>
#include <sstream>

#include "core/csv_table.h"
#include "core/error.h"
#include "core/utf8.h"
#include "data/csv_loader.h"
#include "release/search_tables.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/aggregates.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::csv;

class TestCsvTable : public QObject {
  Q_OBJECT
 private slots:
  void quotesOnlyWhatRfc4180Requires() {
    QCOMPARE(csv_field("plain 1.5e-3"), std::string("plain 1.5e-3"));
    QCOMPARE(csv_field("a,b"), std::string("\"a,b\""));
    QCOMPARE(csv_field("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
    QCOMPARE(csv_field("two\nlines"), std::string("\"two\nlines\""));
    QCOMPARE(csv_field("cr\r"), std::string("\"cr\r\""));
    QCOMPARE(csv_field(""), std::string(""));
  }

  // Found by tests/fuzz/fuzz_output_writers.cpp (issue #45): fields with a blank at either end
  // were written unquoted and read back trimmed (dplab's reader; pandas with skipinitialspace),
  // and bytes that are not UTF-8 went into the file as they were, so pandas.read_csv's default
  // decoding refused it and dplab's reader re-read every cell as Latin-1.
  void blanksAndBytesThatAreNotUtf8ReadBack() {
    QCOMPARE(csv_field(" lead"), std::string("\" lead\""));
    QCOMPARE(csv_field("trail\t"), std::string("\"trail\t\""));
    QCOMPARE(csv_field("in side"), std::string("in side"));
    QCOMPARE(csv_field("caf\xE9"), std::string("caf\xEF\xBF\xBD"));
    QCOMPARE(csv_field("\xEF\xBB\xBF"
                       "bom"),
             std::string("\"\xEF\xBB\xBF"
                         "bom\""));
    CsvTable t;
    t.header = {"\xEF\xBB\xBFname", " spaced "};
    t.rows = {{"caf\xE9, ok", "\x0B\x0B "}, {"\"q\"", "\t"}};
    t.constant_columns = {{"label\xFF", "  "}};
    const std::string text = csv_text(t);
    QVERIFY(!first_invalid_utf8(text));
    testing::TempFiles dir;
    const std::string path = dir.path("t.csv");
    write_csv_file(path, t);
    const data::CsvTable back = data::read_csv_table(path, ',');
    QCOMPARE(back.header,
             (std::vector<std::string>{"\xEF\xBB\xBFname", " spaced ", "label\xEF\xBF\xBD"}));
    QCOMPARE(back.rows(), dplab::Index{2});
    QCOMPARE(back.cell(0, 0), std::string("caf\xEF\xBF\xBD, ok"));
    QCOMPARE(back.cell(0, 1), std::string("\x0B\x0B "));
    QCOMPARE(back.cell(1, 0), std::string("\"q\""));
    QCOMPARE(back.cell(1, 1), std::string("\t"));
    QCOMPARE(back.cell(1, 2), std::string("  "));
  }

  void textIsHeaderThenRows() {
    CsvTable t;
    t.header = {"series", "x", "y"};
    t.rows = {{"DPSGD, C=1", "10", "0.5"}, {"ε \"tight\"", "", "nan"}};
    QCOMPARE(csv_text(t), std::string("series,x,y\n"
                                      "\"DPSGD, C=1\",10,0.5\n"
                                      "\"ε \"\"tight\"\"\",,nan\n"));
  }

  void constantColumnsFollowTheHeaderOnLineOne() {
    // What used to be a '#' comment line is a column: line 1 is the header, so
    // pandas.read_csv(path) needs no arguments.
    CsvTable t;
    t.header = {"x"};
    t.rows = {{"1"}, {"2"}};
    t.constant_columns = {{"epsilon_label", "eps <= 1.5 (explore, delta = 1e-05)"}};
    QCOMPARE(csv_text(t), std::string("x,epsilon_label\n"
                                      "1,\"eps <= 1.5 (explore, delta = 1e-05)\"\n"
                                      "2,\"eps <= 1.5 (explore, delta = 1e-05)\"\n"));
    CsvTable empty;
    empty.header = {"x"};
    empty.constant_columns = {{"note", "n"}};
    QCOMPARE(csv_text(empty), std::string("x,note\n"));
  }

  void writesAtomicallyAndNamesTheFile() {
    testing::TempFiles dir;
    QVERIFY(dir.isValid());
    CsvTable t;
    t.header = {"a"};
    t.rows = {{"1"}, {"2,3"}};
    const std::string path = dir.path("t.csv");
    write_csv_file(path, t);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    QCOMPARE(text.str(), csv_text(t));
    // A file where the folder should be: the error names it.
    const std::string blocker = dir.write("blocker", "not a folder");
    const QString message =
        testing::error_of<IoError>([&] { write_csv_file(blocker + "/t.csv", t); });
    QVERIFY2(message.contains(QString::fromStdString(blocker)), qPrintable(message));
  }

  void alphaClipGridTableIsTheCsvFile() {
    const auto config = testing::tiny_experiment(20, 1);
    tuning::Runner runner(config, tuning::load_experiment_data(config));
    const auto aggregates = tuning::aggregate_all(runner.run());
    const CsvTable table = release::alpha_clip_grid_table(aggregates);
    QCOMPARE(table.header.size(), std::size_t{6});
    // One row per (optimizer, α, C) cell: 2 × 2 for DPSGD, 1 × 1 for DPAdam.
    QCOMPARE(table.rows.size(), std::size_t{5});
    QCOMPARE(table.rows.front().front(), std::string("dpsgd"));
    // Numbers in their shortest round-trip form: α = 0.1 is "0.1" (it was
    // "0.10000000000000001"); the grid's values read back exactly.
    QCOMPARE(table.rows.front().at(1), std::string("0.1"));
    QCOMPARE(table.rows.front().at(2), std::string("0.5"));
    for (const auto& row : table.rows) {
      QVERIFY2(std::stod(row[1]) == 0.1 || std::stod(row[1]) == 0.5 ||
                   std::stod(row[1]) == aggregates.back().grid.learning_rates.front(),
               row[1].c_str());
      QVERIFY2(row[1].size() <= 6 && row[2].size() <= 6, (row[1] + " " + row[2]).c_str());
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestCsvTable)
#include "test_csv_table.moc"
