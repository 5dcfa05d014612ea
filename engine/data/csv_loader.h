// CSV tables -> Dataset, for tabular data such as Adult (paper appendix B: 45,222 rows).
//
// Format: a header row; one record per line; fields separated by the delimiter and trimmed of
// surrounding spaces ("39, State-gov, ..."); a field may be double-quoted ("" is a literal quote,
// a quoted field may span lines). Files may be gzip-compressed. The delimiter is given (',', ';'
// or tab) or detected (detect_csv_delimiter): the one of ',', ';' and tab that splits the header
// and the first records into the same number (> 1) of fields, the most fields winning; the
// encoding's description names the delimiter used.
//
// Encoding, decided on the table the encoder is fitted on (so a train and a test file share it):
// - a column whose every present value is a number stays one numeric feature;
// - any other column is one-hot encoded, categories in sorted order, features named "col=value";
//   a category the fitted table never had encodes as all zeros;
// - a column named in CsvOptions::categorical_columns is one-hot encoded even if it is numeric;
// - refused, naming the column (CsvEncoder::fit):
//   * an identifier-like text column: more than kMaxCategoricalShare (50 %) of the kept rows AND
//     more than kMaxCategoricalLevels (1000) distinct values; one-hot encoding it makes a feature
//     per row (a 950 KB file with a 60,000-row ID column asked for 60,001 features, 14 GB). Name
//     it in categorical_columns (dplab-cli --categorical COL) to encode it anyway;
//   * a numeric column holding "inf" (any share of the rows; "nan" is a missing-value marker by
//     default): never silently text;
//   * a numeric column with a few text typos (at least 90 % numbers);
// - memory: reading the table and encoding it are checked against the memory budget
//   (core/memory_check.h) before allocating; the estimate counts the text, the parsed table, the
//   encoder's category sets, the feature matrix and its copy for the train/validation split, and
//   the message names the widest one-hot column;
// - the encoding of every column is described in one line (CsvEncoder::description), which the
//   loaders put in Dataset::notes and Dataset::encoding (printed by the CLI, written to
//   summary.json);
// - the label column (by name, default the last) gives class indices 0..k-1 in sorted order of
//   the label strings (numerically if all are numbers), a trailing '.' stripped (Adult's test file
//   writes "<=50K."); with `regression` set it must be numeric and is used as the target;
// - a missing value (a cell equal to a marker of CsvOptions::missing_markers, by default "NA",
//   empty, "nan" and "?"; in numeric and text columns alike) drops its row (counted, a note
//   "N rows dropped for missing values"), or under MissingValues::impute_mean is replaced by the
//   fitted table's column mean (numeric) or most frequent level (text; ties: the first in sorted
//   order), a note "M values imputed in columns a, b" (a missing label drops its row), or fails
//   naming FILE:LINE and the column (MissingValues::fail). The values imputed are fitted on the
//   table the encoder is fitted on (the training file), recorded in to_json, and applied to new
//   files (encode_for_prediction) as they were in training.
// Features are not scaled here: fit a MinMaxScaler (dataset.h) where the paper says to.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "data/csv_reading.h"
#include "data/dataset.h"

namespace dplab::data {

struct CsvOptions {
  char delimiter = kDetectDelimiter;  // ',', ';', '\t', or detected (csv_reading.h)
  std::string label_column;           // header name; empty = the last column
  bool regression = false;            // numeric label used as a real-valued target
  MissingValues missing = MissingValues::drop_row;
  std::vector<std::string> missing_markers = default_na_values();
  // Columns one-hot encoded whatever their values (numbers or an identifier-like text column).
  std::vector<std::string> categorical_columns;
};

// The feature name of one one-hot level: "column=level" (the encoding above; feature_scaling.h
// recognises one-hot indicators by the '=').
inline std::string one_hot_feature_name(const std::string& column, const std::string& level) {
  return column + "=" + level;
}

// The identifier rule (see above): refused when levels > share * kept rows and levels > count.
inline constexpr double kMaxCategoricalShare = 0.5;
inline constexpr long kMaxCategoricalLevels = 1000;

// The raw table: header and trimmed, unquoted fields, and the line on which each row starts.
struct CsvTable {
  std::string path;
  char delimiter = ',';  // the one the file was split with (given or detected)
  // The first byte that was not UTF-8 when the file was read as Latin-1 (read_csv_table), else -1.
  long long latin1_from_byte = -1;
  std::vector<std::string> header;
  std::vector<std::string> cells;  // rows() x columns(), row-major
  std::vector<long> line_numbers;  // 1-based, one per row

  Index columns() const { return static_cast<Index>(header.size()); }
  Index rows() const { return static_cast<Index>(line_numbers.size()); }
  const std::string& cell(Index row, Index column) const {
    return cells[static_cast<std::size_t>(row * columns() + column)];
  }
  // Bytes the table holds (cells, their heap text, line numbers), for memory estimates.
  double memory_bytes() const;
};

// Parses a CSV file. ParseError "FILE:LINE: expected 15 fields, got 14" on a ragged record,
// "FILE:LINE: unterminated quoted field", and "FILE: no header row" for an empty file;
// InvalidArgument naming the file, the line reached and the bytes needed when the text and the
// table outgrow the memory budget (checked before each growth of the table).
// A delimiter of kDetectDelimiter is detected (detect_csv_delimiter, `preferred` first).
CsvTable read_csv_table(const std::string& path, char delimiter = kDetectDelimiter,
                        char preferred = kDetectDelimiter);

// The delimiter of a CSV text: of ',', ';' and tab, those that split the header and the next
// records (up to 20; quoted fields respected) into the same number of fields, more than one, and
// of those the one with the most fields (`preferred` first when it fits). When none fits but only
// one splits the header, that one (the reader then names the ragged record's line). Otherwise
// ParseError "FILE: cannot tell the delimiter: ',' gives 2, 1, 3 fields; ...; give it
// (--delimiter)".
char detect_csv_delimiter(const std::string& path, std::string_view text,
                          char preferred = kDetectDelimiter);

struct CsvStats {
  Index rows_read = 0;             // data records in the file
  Index rows_dropped_missing = 0;  // of those, dropped for a missing value
  Index values_imputed = 0;        // cells replaced by the column's imputed value
};

// The column encoding of one table, reusable on others with the same header.
class CsvEncoder {
 public:
  // Throws InvalidArgument if the label column is unknown (naming it and listing the columns),
  // ParseError "FILE:LINE: ..." for a missing value under MissingValues::fail or a non-numeric
  // label under `regression`.
  static CsvEncoder fit(const CsvTable& table, const CsvOptions& options = {});

  // Encodes a table with the same header. ParseError "FILE:LINE: ..." for a label class or a
  // non-number in a numeric column that the fitted table did not have.
  Dataset encode(const CsvTable& table, CsvStats* stats = nullptr) const;

  // One line: how each column was encoded, e.g. "encoding of 'adult.csv': 'age' numeric,
  // 'workclass' one-hot (7 levels), ...; label 'income' (2 classes); delimiter ','" (with
  // impute-mean each column's imputed value: "'age' numeric (missing: mean 38.4)").
  std::string description() const;

  const std::vector<std::string>& feature_names() const { return feature_names_; }
  const std::vector<std::string>& class_names() const { return class_names_; }  // empty: regression
  const std::string& label_column() const {
    return header_[static_cast<std::size_t>(label_index_)];
  }
  const std::vector<std::string>& header() const { return header_; }
  bool regression() const { return options_.regression; }
  char delimiter() const { return options_.delimiter; }  // the fitted table's
  MissingValues missing_policy() const { return options_.missing; }

  // The fitted encoding as JSON (a trained model's model.json "input", csv_encoding_json.cpp):
  // the options, the header, each column's encoding and levels, the classes and the features;
  // from_json is its inverse (ParseError naming `path` and the key).
  nlohmann::json to_json() const;
  static CsvEncoder from_json(const nlohmann::json& j, const std::string& path);
  // A table with this encoder's columns in any order (extra columns ignored, the label column
  // optional) reordered to the fitted header, the label filled with the first class (or 0) when
  // absent or missing, so that encode() applies: InvalidArgument naming the first missing column.
  // *labelled: whether every row carried its label.
  CsvTable align(const CsvTable& table, bool* labelled = nullptr) const;
  // encode() for rows to predict (an aligned table): the fitted missing-value policy on the
  // feature columns (drop: the row gets no prediction; impute-mean: the training values; fail:
  // an error naming the line and column). *lines: the line of each encoded row.
  Dataset encode_for_prediction(const CsvTable& table, std::vector<long>* lines) const;

 private:
  Dataset encode_rows(const CsvTable& table, CsvStats* stats, std::vector<long>* lines) const;

 public:
 private:
  struct Column {
    bool numeric = true;
    Index first_feature = 0;
    std::vector<std::string> categories;  // sorted; empty for numeric columns
    // impute_mean: what a missing cell becomes, the mean (numeric) or the index of the most
    // frequent level in `categories`.
    double impute_mean = 0;
    Index impute_level = 0;
  };
  bool is_missing(const std::string& cell) const;
  // Whether a row is left out under the policy (fail: throws naming the line and column; drop:
  // any missing cell; impute_mean: a missing label).
  bool row_dropped(const CsvTable& table, Index row) const;
  // impute_mean: each column's imputed value, from fit()'s counts.
  void fit_imputation(const CsvTable& table, const std::vector<Index>& numeric_cells,
                      const std::vector<double>& number_sums);
  std::string imputed_value_text(Index column) const;

  CsvOptions options_;
  std::string fitted_path_;
  std::vector<std::string> header_;
  Index label_index_ = 0;
  std::vector<Column> columns_;  // one per header column (the label's entry is unused)
  std::vector<std::string> feature_names_;
  std::vector<std::string> class_names_;
};

// One file: fit and encode. The data set's name is the file name.
Dataset load_csv(const std::string& path, const CsvOptions& options = {},
                 CsvStats* stats = nullptr);

// Two files (e.g. Adult's train and test) with the encoding fitted on the first.
struct CsvPair {
  Dataset first;
  Dataset second;
  CsvStats first_stats;
  CsvStats second_stats;
};
CsvPair load_csv_pair(const std::string& first_path, const std::string& second_path,
                      const CsvOptions& options = {});

}  // namespace dplab::data
