// CSV parsing and the column encoder (see csv_loader.h for the rules).
#include "data/csv_loader.h"

#include <memory>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/error.h"
#include "core/memory_check.h"
#include "core/number_text.h"
#include "core/utf8.h"
#include "data/file_reader.h"
#include "data/large_buffer.h"
#include "data/text_number.h"

namespace dplab::data {
namespace {

[[noreturn]] void fail_line(const std::string& path, long line, const std::string& what) {
  throw ParseError(path + ":" + std::to_string(line) + ": " + what);
}

// A cursor over the file text that splits records into fields and tracks the line number.
class RecordReader {
 public:
  RecordReader(const std::string& path, std::string_view text, char delimiter)
      : path_(path), text_(text), delimiter_(delimiter) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") at_.pos = 3;  // UTF-8 byte order mark
  }

  // The number of fields and bytes of the next non-blank record, walked as next() walks it but
  // without storing the fields: what next() would store, known before it allocates.
  struct Extent {
    std::size_t fields = 0, bytes = 0;
  };
  Extent next_extent() const {
    Cursor at = at_;
    while (at.pos < text_.size()) {
      const std::size_t start = at.pos;
      const Record record = read_record(at, nullptr);
      if (!record.blank) return {record.fields, at.pos - start};
    }
    return {};
  }

  // Walks over the next non-blank record, counting its fields; 0 at the end of the text.
  std::size_t skip() {
    while (at_.pos < text_.size()) {
      const Record record = read_record(at_, nullptr);
      if (!record.blank) return record.fields;
    }
    return 0;
  }

  // Reads the next non-blank record into `fields`; false at the end of the text.
  bool next(std::vector<std::string>& fields, long& start_line) {
    while (at_.pos < text_.size()) {
      fields.clear();
      start_line = at_.line;
      if (!read_record(at_, &fields).blank) return true;
    }
    return false;
  }

 private:
  struct Cursor {
    std::size_t pos = 0;
    long line = 1;
  };
  // A record's field count, and whether it is blank (one empty field: an empty or all-blank
  // line, or ""), which next() skips.
  struct Record {
    std::size_t fields = 0;
    bool blank = false;
  };

  bool blank(char c) const { return c != delimiter_ && (c == ' ' || c == '\t' || c == '\r'); }

  // One record from `at`, its fields appended to *fields (only counted when fields is null). A
  // field is quoted only when it starts with a quote (after blanks); a quote elsewhere is a
  // character.
  Record read_record(Cursor& at, std::vector<std::string>* fields) const {
    Record record;
    bool first_empty = true;
    for (;;) {
      while (at.pos < text_.size() && blank(text_[at.pos])) ++at.pos;
      std::string field;
      bool empty = true;
      if (at.pos < text_.size() && text_[at.pos] == '"') {
        empty = !read_quoted(at, fields ? &field : nullptr);
      } else {
        const std::size_t start = at.pos;
        while (at.pos < text_.size() && text_[at.pos] != delimiter_ && text_[at.pos] != '\n')
          ++at.pos;
        std::size_t end = at.pos;
        while (end > start && blank(text_[end - 1])) --end;
        empty = end == start;
        if (fields) field.assign(text_.data() + start, end - start);
      }
      if (++record.fields == 1) first_empty = empty;
      if (fields) fields->push_back(std::move(field));
      if (at.pos >= text_.size()) break;
      if (text_[at.pos] == '\n') {
        ++at.pos;
        ++at.line;
        break;
      }
      ++at.pos;  // the delimiter
    }
    record.blank = record.fields == 1 && first_empty;
    return record;
  }

  // A quoted field from its opening quote ("" is one quote), appended to *field when given;
  // true when it holds at least one character.
  bool read_quoted(Cursor& at, std::string* field) const {
    const long opened_on = at.line;
    bool any = false;
    ++at.pos;
    for (;;) {
      if (at.pos >= text_.size()) fail_line(path_, opened_on, "unterminated quoted field");
      const char c = text_[at.pos++];
      if (c == '"') {
        if (at.pos < text_.size() && text_[at.pos] == '"') {
          if (field) field->push_back('"');
          any = true;
          ++at.pos;
          continue;
        }
        break;
      }
      if (c == '\n') ++at.line;
      if (field) field->push_back(c);
      any = true;
    }
    while (at.pos < text_.size() && blank(text_[at.pos])) ++at.pos;
    if (at.pos < text_.size() && text_[at.pos] != delimiter_ && text_[at.pos] != '\n') {
      fail_line(path_, at.line,
                std::string("unexpected character '") + text_[at.pos] + "' after a closing quote");
    }
    return any;
  }

  const std::string& path_;
  std::string_view text_;
  char delimiter_;
  Cursor at_;
};

// Class label text: surrounding spaces already trimmed; a trailing '.' removed.
std::string_view label_key(std::string_view text) {
  if (!text.empty() && text.back() == '.') text.remove_suffix(1);
  return trim(text);
}

// Sorted numerically when every entry is a number, else lexicographically.
void sort_labels(std::vector<std::string>& labels) {
  const bool numeric = std::all_of(labels.begin(), labels.end(), [](const std::string& s) {
    return parse_number(s).has_value();
  });
  if (numeric) {
    std::sort(labels.begin(), labels.end(), [](const std::string& a, const std::string& b) {
      return *parse_number(a) < *parse_number(b);
    });
  } else {
    std::sort(labels.begin(), labels.end());
  }
}

// Heap bytes of one string beyond sizeof(std::string): none while it fits the small-string buffer
// (15 chars in libstdc++ and libc++'s 22; the smaller is assumed).
double heap_bytes(const std::string& text) {
  return text.size() > 15 ? static_cast<double>(text.capacity() + 1) : 0.0;
}

// Per-cell cost of the encoder's category sets in fit() when every value is distinct: a copy of
// the string plus a hash node (next pointer, cached hash) and a bucket.
constexpr double kSetNodeBytes = sizeof(std::string) + 3 * sizeof(void*);

// Per-column cost of a load whatever the number of rows: the column's name in the table's
// header, in the encoder's and in the reader's record; the encoder's column entry (kind, first
// feature, categories) and its category set; fit()'s four per-column counters and its flag.
// A header of 400,000 short names is 87 MB of this (a 1.6 MB one-line file, found by the
// loader_budget fuzzer): checked before the header is read.
constexpr double kColumnBytes = 3 * sizeof(std::string) + sizeof(bool) + sizeof(Index) +
                                sizeof(std::vector<std::string>) +
                                sizeof(std::unordered_set<std::string>) + 4 * sizeof(Index) + 1;

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "'" : ", '") + name + "'";
  return out;
}

}  // namespace

double CsvTable::memory_bytes() const {
  double bytes = static_cast<double>(cells.capacity()) * sizeof(std::string) +
                 static_cast<double>(line_numbers.capacity()) * sizeof(long);
  for (const auto& cell : cells) bytes += heap_bytes(cell);
  return bytes;
}

char detect_csv_delimiter(const std::string& path, std::string_view text, char preferred) {
  constexpr int kSampledRecords = 21;  // the header and 20 records
  static constexpr char kCandidates[] = {',', ';', '\t'};
  std::string tried;
  char best = kDetectDelimiter;
  std::size_t best_fields = 0;
  // No record at all (an empty file), or one field on every line whatever the delimiter (a
  // one-column file): nothing to tell; the table's own checks say what is wrong.
  bool all_single = true;
  // The candidates that split the header into more than one field: when only one does, the file
  // is that delimiter's with a ragged record, which the table reader names by its line.
  int header_splitters = 0;
  char header_splitter = kDetectDelimiter;
  for (const char candidate : kCandidates) {
    std::vector<std::size_t> counts;
    std::string failure;
    try {
      RecordReader reader(path, text, candidate);
      for (int i = 0; i < kSampledRecords; ++i) {
        const std::size_t fields = reader.skip();
        if (fields == 0) break;
        counts.push_back(fields);
      }
    } catch (const ParseError& e) {
      failure = e.what();  // a quote that only parses with another delimiter
    }
    const bool same = !counts.empty() && std::all_of(counts.begin(), counts.end(),
                                                     [&](auto n) { return n == counts.front(); });
    if (!failure.empty() || (!counts.empty() && !(same && counts.front() == 1))) all_single = false;
    if (!counts.empty() && counts.front() > 1) {
      ++header_splitters;
      header_splitter = candidate;
    }
    if (failure.empty() && same && counts.front() > 1) {
      if (candidate == preferred) return candidate;
      if (counts.front() > best_fields) {
        best = candidate;
        best_fields = counts.front();
      }
    }
    std::string gives;
    for (std::size_t i = 0; i < counts.size(); ++i)
      gives += (i == 0 ? "" : ", ") + std::to_string(counts[i]);
    tried += (tried.empty() ? "" : "; ") + delimiter_name(candidate) + " gives " +
             (counts.empty() ? std::string("no record") : gives + " fields") +
             (failure.empty() ? std::string() : " then fails (" + failure + ")");
  }
  if (best != kDetectDelimiter) return best;
  if (all_single) return preferred == kDetectDelimiter ? ',' : preferred;
  if (header_splitters == 1) return header_splitter;
  throw ParseError(path +
                   ": cannot tell the delimiter: none of ',', ';' and tab splits the header "
                   "and the first records into the same number (more than 1) of fields (" +
                   tried + " on the first " + std::to_string(kSampledRecords) +
                   " records at most); give it (--delimiter ','|';'|tab, or \"delimiter\" in "
                   "an experiment file's \"dataset\")");
}

namespace {

// A file that is not UTF-8 is read as Latin-1 (core/utf8.h): its names become the letters the
// spreadsheet showed (caf\xE9 -> café) instead of bytes no JSON output can hold; the note says so.
std::string csv_text_in_utf8(const std::string& path, std::string text, long long& latin1_from) {
  const auto bad = first_invalid_utf8(text);
  if (!bad) return text;
  latin1_from = static_cast<long long>(*bad);
  require_memory(path + ": its text converted from Latin-1 to UTF-8",
                 3.0 * static_cast<double>(text.size()));
  return latin1_to_utf8(text);
}

void note_latin1(const CsvTable& table, Dataset& data) {
  if (table.latin1_from_byte < 0) return;
  data.notes.push_back(table.path + ": not UTF-8 (byte " + std::to_string(table.latin1_from_byte) +
                       " is not): read as Latin-1 (ISO-8859-1); save it as UTF-8 to be sure");
}

}  // namespace

CsvTable read_csv_table(const std::string& path, char delimiter, char preferred) {
  long long latin1_from = -1;
  const std::string text = csv_text_in_utf8(path, read_file_text(path), latin1_from);
  if (delimiter == kDetectDelimiter) delimiter = detect_csv_delimiter(path, text, preferred);
  RecordReader reader(path, text, delimiter);
  CsvTable table;
  table.path = path;
  table.delimiter = delimiter;
  table.latin1_from_byte = latin1_from;
  long line = 0;
  const auto header = reader.next_extent();
  // Long names also take heap beyond their std::string: at most the header's bytes, twice
  // (the table's and the encoder's copies).
  const double column_bytes =
      static_cast<double>(header.fields) * kColumnBytes + 2.0 * static_cast<double>(header.bytes);
  require_memory(path + ": the header's " + std::to_string(header.fields) +
                     " columns (each column's name and state while loading, with " +
                     format_bytes(static_cast<double>(text.size())) + " of text)",
                 static_cast<double>(text.capacity()) + column_bytes);
  table.header.reserve(header.fields);
  if (!reader.next(table.header, line)) throw ParseError(path + ": no header row (empty file)");
  const std::size_t width = table.header.size();
  // Rough row estimate from the header's length, to reserve once (budgeted like any growth).
  const std::size_t guess = text.size() / std::max<std::size_t>(40, width * 4);
  double text_heap = 0;  // heap bytes of the cells read so far
  // The cell array doubles as it grows; the old and new arrays, the text and the line numbers
  // coexist (and the allocator may keep the earlier chain, less than the old array, resident:
  // counted twice). Checked before allocating, so a gzip-inflated table stops at the budget.
  auto reserve_cells = [&](std::size_t capacity) {
    const double rows = static_cast<double>(capacity / width);
    require_memory(
        path + ":" + std::to_string(line) + ": the table of " +
            std::to_string(table.line_numbers.size()) + " rows read so far (" +
            std::to_string(width) + " columns, " + format_bytes(static_cast<double>(text.size())) +
            " of text)",
        static_cast<double>(text.capacity()) + column_bytes + text_heap +
            static_cast<double>(2 * table.cells.capacity() + capacity) * sizeof(std::string) +
            2 * rows * sizeof(long));
    table.cells.reserve(capacity);
    table.line_numbers.reserve(capacity / width);
  };
  reserve_cells(std::max<std::size_t>(1, guess) * width);
  std::vector<std::string> fields;
  while (reader.next(fields, line)) {
    if (fields.size() != width) {
      fail_line(
          path, line,
          "expected " + std::to_string(width) + " fields, got " + std::to_string(fields.size()));
    }
    if (table.cells.size() + width > table.cells.capacity()) {
      reserve_cells(std::max(table.cells.size() + width, 2 * table.cells.capacity()));
    }
    for (auto& field : fields) {
      text_heap += heap_bytes(field);
      table.cells.push_back(std::move(field));
    }
    table.line_numbers.push_back(line);
  }
  return table;
}

bool CsvEncoder::is_missing(const std::string& cell) const {
  return std::find(options_.missing_markers.begin(), options_.missing_markers.end(), cell) !=
         options_.missing_markers.end();
}

bool CsvEncoder::row_dropped(const CsvTable& table, Index row) const {
  if (options_.missing == MissingValues::impute_mean)
    return is_missing(table.cell(row, label_index_));
  for (Index c = 0; c < table.columns(); ++c) {
    if (is_missing(table.cell(row, c))) {
      if (options_.missing == MissingValues::fail) {
        fail_line(table.path, table.line_numbers[static_cast<std::size_t>(row)],
                  "missing value '" + table.cell(row, c) + "' in column '" +
                      table.header[static_cast<std::size_t>(c)] +
                      "' (the missing-value policy is fail)");
      }
      return true;
    }
  }
  return false;
}

CsvEncoder CsvEncoder::fit(const CsvTable& table, const CsvOptions& options) {
  CsvEncoder encoder;
  encoder.options_ = options;
  encoder.options_.delimiter = table.delimiter;
  encoder.fitted_path_ = table.path;
  encoder.header_ = table.header;
  const Index width = table.columns();
  if (width < 2) {
    throw ParseError(table.path + ":1: needs at least one feature column and a label column");
  }
  if (options.label_column.empty()) {
    encoder.label_index_ = width - 1;
  } else {
    const auto it = std::find(table.header.begin(), table.header.end(), options.label_column);
    if (it == table.header.end()) {
      throw InvalidArgument("label column '" + options.label_column + "' is not in the header of " +
                            table.path + " (columns: " + quoted_list(table.header) + ")");
    }
    encoder.label_index_ = it - table.header.begin();
  }

  // Columns the user asked to one-hot encode must exist (a typo must not pass silently).
  std::vector<bool> forced(static_cast<std::size_t>(width), false);
  for (const auto& name : options.categorical_columns) {
    const auto it = std::find(table.header.begin(), table.header.end(), name);
    if (it == table.header.end()) {
      throw InvalidArgument("categorical column '" + name + "' is not in the header of " +
                            table.path + " (columns: " + quoted_list(table.header) + ")");
    }
    if (it - table.header.begin() == encoder.label_index_) {
      throw InvalidArgument("categorical column '" + name + "' of " + table.path +
                            " is the label column; only feature columns are one-hot encoded");
    }
    forced[static_cast<std::size_t>(it - table.header.begin())] = true;
  }
  // The category sets below hold at most one copy of every cell.
  require_memory(table.path + ": the encoder's category sets over " + std::to_string(table.rows()) +
                     " rows x " + std::to_string(width) + " columns (with the table itself)",
                 2 * table.memory_bytes() +
                     static_cast<double>(table.cells.size()) * kSetNodeBytes +
                     static_cast<double>(width) * kColumnBytes);

  // Column kinds and categories over the rows that will be kept.
  encoder.columns_.assign(static_cast<std::size_t>(width), Column{});
  std::vector<std::unordered_set<std::string>> seen(static_cast<std::size_t>(width));
  std::unordered_set<std::string> labels;
  // Per column: how many kept cells are numbers, and the first that is not (row index).
  std::vector<Index> numeric_cells(static_cast<std::size_t>(width), 0);
  std::vector<Index> first_text_row(static_cast<std::size_t>(width), -1);
  // Per column: cells spelling a non-finite number ("nan", "inf"), and the first one's row.
  std::vector<Index> non_finite_cells(static_cast<std::size_t>(width), 0);
  std::vector<Index> first_non_finite_row(static_cast<std::size_t>(width), -1);
  // Per column (impute_mean): the sum of its numbers and its missing cells.
  const bool impute = options.missing == MissingValues::impute_mean;
  std::vector<double> number_sums(static_cast<std::size_t>(width), 0.0);
  std::vector<Index> missing_cells(static_cast<std::size_t>(width), 0);
  bool label_integers = true;
  Index kept = 0;
  for (Index r = 0; r < table.rows(); ++r) {
    if (encoder.row_dropped(table, r)) continue;
    ++kept;
    for (Index c = 0; c < width; ++c) {
      const std::string& cell = table.cell(r, c);
      if (impute && c != encoder.label_index_ && encoder.is_missing(cell)) {
        ++missing_cells[static_cast<std::size_t>(c)];
        continue;  // not a value: neither its type nor a level
      }
      if (c == encoder.label_index_) {
        const std::string key(label_key(cell));
        const auto value = parse_number(options.regression ? std::string_view(cell) : key);
        if (options.regression && !value) {
          fail_line(table.path, table.line_numbers[static_cast<std::size_t>(r)],
                    "label '" + cell + "' in column '" + encoder.label_column() +
                        "' is not a number (regression needs numeric labels)");
        }
        if (!options.regression) {
          if (value && *value != std::floor(*value)) label_integers = false;
          labels.insert(key);
        }
        continue;
      }
      auto& column = encoder.columns_[static_cast<std::size_t>(c)];
      const auto k = static_cast<std::size_t>(c);
      if (const auto number = parse_number(cell)) {
        ++numeric_cells[k];
        number_sums[k] += *number;
      } else {
        column.numeric = false;
        if (first_text_row[k] < 0) first_text_row[k] = r;
        if (is_non_finite_number(cell) && non_finite_cells[k]++ == 0) first_non_finite_row[k] = r;
      }
      seen[static_cast<std::size_t>(c)].insert(cell);
    }
  }
  if (kept == 0) {
    throw ParseError(table.path + ": no data rows" +
                     (table.rows() > 0 ? " without a missing value" : std::string()));
  }
  for (Index c = 0; c < width; ++c) {
    const auto k = static_cast<std::size_t>(c);
    if (c == encoder.label_index_) continue;
    if (forced[k]) {
      encoder.columns_[k].numeric = false;  // asked for: one-hot whatever the values
      continue;
    }
    if (encoder.columns_[k].numeric) continue;
    const Index present = kept - missing_cells[k];  // the column's values (impute: not missing)
    // A column whose only non-numbers are "inf" (or "nan" when not a marker) is a numeric column
    // with non-finite values, whatever their share: never silently a text column with a feature
    // per distinct number.
    if (non_finite_cells[k] > 0 && numeric_cells[k] + non_finite_cells[k] == present) {
      const Index r = first_non_finite_row[k];
      fail_line(table.path, table.line_numbers[static_cast<std::size_t>(r)],
                "numeric column '" + table.header[k] + "' holds " +
                    std::to_string(non_finite_cells[k]) + " non-finite values in " +
                    std::to_string(present) + " rows, first here: '" + table.cell(r, c) +
                    "' (features must be finite: fix them, or mark them missing with "
                    "--na-values so that --na-policy drops or imputes them)");
    }
    // A column that is numeric in at least 90% of its rows is a numeric column with a typo, not
    // a categorical one: one bad cell must not turn 5 features into 42.
    if (numeric_cells[k] >= 2 && 10 * numeric_cells[k] >= 9 * present) {
      const Index r = first_text_row[k];
      fail_line(table.path, table.line_numbers[static_cast<std::size_t>(r)],
                "column '" + table.header[k] + "' is numeric except in " +
                    std::to_string(present - numeric_cells[k]) + " of " + std::to_string(present) +
                    " rows, first here: '" + table.cell(r, c) +
                    "' (fix the value or mark it missing: --na-values, default NA, nan, ? and "
                    "empty)");
    }
  }
  // An identifier-like text column (see csv_loader.h) would make a feature per row.
  for (Index c = 0; c < width; ++c) {
    const auto k = static_cast<std::size_t>(c);
    if (c == encoder.label_index_ || encoder.columns_[k].numeric || forced[k]) continue;
    const auto levels = static_cast<Index>(seen[k].size());
    if (levels > kMaxCategoricalLevels &&
        static_cast<double>(levels) > kMaxCategoricalShare * static_cast<double>(kept)) {
      throw InvalidArgument(
          table.path + ": column '" + table.header[k] + "' has " + std::to_string(levels) +
          " distinct text values in " + std::to_string(kept) +
          " rows: it looks like an identifier, not a category (one-hot encoding refuses a column "
          "with more than " +
          std::to_string(kMaxCategoricalLevels) + " levels that are more than " +
          std::to_string(static_cast<int>(kMaxCategoricalShare * 100)) +
          " % of the rows); it would become " + std::to_string(levels) + " features (" +
          format_bytes(static_cast<double>(levels) * static_cast<double>(kept) * sizeof(float)) +
          " as floats). Drop the column, or one-hot encode it anyway with --categorical '" +
          table.header[k] + "' (an experiment file: \"categorical\": [\"" + table.header[k] +
          "\"] in \"dataset\")");
    }
  }
  if (!options.regression) {
    std::vector<std::string> classes(labels.begin(), labels.end());
    const bool numeric = std::all_of(classes.begin(), classes.end(), [](const std::string& s) {
      return parse_number(s).has_value();
    });
    if (numeric && !label_integers) {
      throw InvalidArgument("label column '" + encoder.label_column() + "' of " + table.path +
                            " holds non-integer numbers; load it as regression");
    }
    sort_labels(classes);
    encoder.class_names_ = std::move(classes);
  }

  // Feature layout in column order.
  for (Index c = 0; c < width; ++c) {
    if (c == encoder.label_index_) continue;
    auto& column = encoder.columns_[static_cast<std::size_t>(c)];
    const std::string& name = table.header[static_cast<std::size_t>(c)];
    column.first_feature = static_cast<Index>(encoder.feature_names_.size());
    if (column.numeric) {
      encoder.feature_names_.push_back(name);
      continue;
    }
    auto& values = seen[static_cast<std::size_t>(c)];
    column.categories.assign(values.begin(), values.end());
    std::sort(column.categories.begin(), column.categories.end());
    for (const auto& category : column.categories)
      encoder.feature_names_.push_back(one_hot_feature_name(name, category));
  }
  if (impute) encoder.fit_imputation(table, numeric_cells, number_sums);
  return encoder;
}

void CsvEncoder::fit_imputation(const CsvTable& table, const std::vector<Index>& numeric_cells,
                                const std::vector<double>& number_sums) {
  const Index width = table.columns();
  // Level counts of the text columns over the rows kept (a missing label drops its row).
  std::vector<std::vector<Index>> level_counts(static_cast<std::size_t>(width));
  for (Index c = 0; c < width; ++c) {
    level_counts[static_cast<std::size_t>(c)].assign(
        columns_[static_cast<std::size_t>(c)].categories.size(), 0);
  }
  for (Index r = 0; r < table.rows(); ++r) {
    if (row_dropped(table, r)) continue;
    for (Index c = 0; c < width; ++c) {
      const auto& categories = columns_[static_cast<std::size_t>(c)].categories;
      if (c == label_index_ || categories.empty() || is_missing(table.cell(r, c))) continue;
      const auto at = std::lower_bound(categories.begin(), categories.end(), table.cell(r, c));
      ++level_counts[static_cast<std::size_t>(c)]
                    [static_cast<std::size_t>(at - categories.begin())];
    }
  }
  for (Index c = 0; c < width; ++c) {
    const auto k = static_cast<std::size_t>(c);
    if (c == label_index_) continue;
    Column& column = columns_[k];
    if (column.numeric) {
      if (numeric_cells[k] == 0) {
        throw ParseError(table.path + ": column '" + header_[k] +
                         "' holds only missing values: there is no mean to impute (drop the "
                         "column, or --na-policy drop)");
      }
      column.impute_mean = number_sums[k] / static_cast<double>(numeric_cells[k]);
    } else {
      const auto& counts = level_counts[k];
      // The first of the most frequent levels in sorted order.
      column.impute_level = std::max_element(counts.begin(), counts.end()) - counts.begin();
    }
  }
}

Dataset CsvEncoder::encode(const CsvTable& table, CsvStats* stats) const {
  return encode_rows(table, stats, nullptr);
}

Dataset CsvEncoder::encode_for_prediction(const CsvTable& table, std::vector<long>* lines) const {
  return encode_rows(table, nullptr, lines);
}

std::string CsvEncoder::imputed_value_text(Index column) const {
  const Column& c = columns_[static_cast<std::size_t>(column)];
  if (c.numeric) return "mean " + number_text(c.impute_mean);
  if (c.categories.empty()) return "no level";
  return "most frequent level '" + c.categories[static_cast<std::size_t>(c.impute_level)] + "'";
}

Dataset CsvEncoder::encode_rows(const CsvTable& table, CsvStats* stats,
                                std::vector<long>* lines) const {
  if (table.header != header_) {
    for (std::size_t c = 0; c < std::max(table.header.size(), header_.size()); ++c) {
      const std::string got = c < table.header.size() ? table.header[c] : "(none)";
      const std::string want = c < header_.size() ? header_[c] : "(none)";
      if (got != want) {
        fail_line(table.path, 1,
                  "header differs from '" + fitted_path_ + "': column " + std::to_string(c + 1) +
                      " is '" + got + "', expected '" + want + "'");
      }
    }
  }
  const Index width = table.columns();
  // Lookup tables: category -> feature offset, label key -> class index.
  std::vector<std::unordered_map<std::string_view, Index>> category_index(
      static_cast<std::size_t>(width));
  for (Index c = 0; c < width; ++c) {
    const auto& column = columns_[static_cast<std::size_t>(c)];
    for (std::size_t k = 0; k < column.categories.size(); ++k) {
      category_index[static_cast<std::size_t>(c)].emplace(column.categories[k],
                                                          static_cast<Index>(k));
    }
  }
  std::unordered_map<std::string_view, float> class_index;
  for (std::size_t k = 0; k < class_names_.size(); ++k)
    class_index.emplace(class_names_[k], static_cast<float>(k));

  std::vector<Index> kept_rows;
  kept_rows.reserve(static_cast<std::size_t>(table.rows()));
  for (Index r = 0; r < table.rows(); ++r) {
    if (!row_dropped(table, r)) kept_rows.push_back(r);
  }
  if (lines) {
    lines->clear();
    for (const Index r : kept_rows)
      lines->push_back(table.line_numbers[static_cast<std::size_t>(r)]);
  }
  if (stats) {
    stats->rows_read = table.rows();
    stats->rows_dropped_missing = table.rows() - static_cast<Index>(kept_rows.size());
  }
  if (kept_rows.empty()) throw ParseError(table.path + ": no data rows without a missing value");
  const Index dropped = table.rows() - static_cast<Index>(kept_rows.size());

  Dataset data;
  data.name = std::filesystem::path(table.path).filename().string();
  data.feature_names = feature_names_;
  data.class_names = class_names_;
  data.num_classes = static_cast<int>(class_names_.size());
  if (dropped > 0) {
    data.notes.push_back(table.path + ": " + std::to_string(dropped) + " of " +
                         std::to_string(table.rows()) + " rows dropped for missing values (" +
                         (options_.missing == MissingValues::impute_mean
                              ? std::string("a missing label; ")
                              : std::string()) +
                         "markers " + quoted_list(options_.missing_markers) + ")");
  }
  const auto n = static_cast<Index>(kept_rows.size());
  const auto d = static_cast<Index>(feature_names_.size());
  {
    // Peak: the table (alive while encoding) + the n x d floats + their copy for the
    // train/validation split (prepare_split), named by the widest one-hot column.
    std::string widest;
    std::size_t widest_levels = 0;
    for (Index c = 0; c < width; ++c) {
      const auto& column = columns_[static_cast<std::size_t>(c)];
      if (c != label_index_ && column.categories.size() > widest_levels) {
        widest_levels = column.categories.size();
        widest = header_[static_cast<std::size_t>(c)];
      }
    }
    const std::string because = widest_levels > 0 ? ", the widest from column '" + widest +
                                                        "' one-hot encoded into " +
                                                        std::to_string(widest_levels) + " features"
                                                  : std::string();
    require_memory(table.path + ": the " + std::to_string(n) + " x " + std::to_string(d) +
                       " feature matrix (" + std::to_string(d) + " features" + because +
                       ") and its copy for the train/validation split",
                   table.memory_bytes() +
                       2.0 * static_cast<double>(n) * static_cast<double>(d) * sizeof(float));
  }
  resize_zero(data.features, n, d);
  data.targets.resize(n);
  const bool impute = options_.missing == MissingValues::impute_mean;
  std::vector<Index> imputed(static_cast<std::size_t>(width), 0);  // per column
  for (Index i = 0; i < n; ++i) {
    const Index r = kept_rows[static_cast<std::size_t>(i)];
    const long line = table.line_numbers[static_cast<std::size_t>(r)];
    for (Index c = 0; c < width; ++c) {
      const std::string& cell = table.cell(r, c);
      if (c == label_index_) {
        if (options_.regression) {
          const auto value = parse_number(cell);
          if (!value) {
            fail_line(table.path, line,
                      "label '" + cell + "' in column '" + label_column() +
                          "' is not a number (regression needs numeric labels)");
          }
          data.targets[i] = static_cast<float>(*value);
        } else {
          const auto it = class_index.find(label_key(cell));
          if (it == class_index.end()) {
            fail_line(table.path, line,
                      "label '" + cell + "' is not one of the classes of '" + fitted_path_ + "' (" +
                          quoted_list(class_names_) + ")");
          }
          data.targets[i] = it->second;
        }
        continue;
      }
      const auto& column = columns_[static_cast<std::size_t>(c)];
      if (impute && is_missing(cell)) {
        ++imputed[static_cast<std::size_t>(c)];
        if (column.numeric) {
          data.features(i, column.first_feature) = static_cast<float>(column.impute_mean);
        } else if (!column.categories.empty()) {
          data.features(i, column.first_feature + column.impute_level) = 1.0f;
        }
        continue;
      }
      if (column.numeric) {
        const auto value = parse_number(cell);
        if (!value) {
          fail_line(table.path, line,
                    "'" + cell + "' in numeric column '" + header_[static_cast<std::size_t>(c)] +
                        "' is not a number");
        }
        data.features(i, column.first_feature) = static_cast<float>(*value);
      } else {
        const auto& index = category_index[static_cast<std::size_t>(c)];
        const auto it = index.find(cell);
        if (it != index.end()) data.features(i, column.first_feature + it->second) = 1.0f;
        // An unseen category stays all zeros.
      }
    }
  }
  Index imputed_total = 0;
  std::string imputed_columns, imputed_values;
  for (Index c = 0; c < width; ++c) {
    const Index count = imputed[static_cast<std::size_t>(c)];
    if (count == 0) continue;
    imputed_total += count;
    const std::string name = "'" + header_[static_cast<std::size_t>(c)] + "'";
    imputed_columns += (imputed_columns.empty() ? "" : ", ") + name;
    imputed_values += (imputed_values.empty() ? "" : "; ") + name + ": " + std::to_string(count) +
                      " x " + imputed_value_text(c);
  }
  if (stats) stats->values_imputed = imputed_total;
  if (imputed_total > 0) {
    data.notes.push_back(table.path + ": " + std::to_string(imputed_total) +
                         " values imputed in columns " + imputed_columns + " (" + imputed_values +
                         "; fitted on '" + fitted_path_ + "', " + kPreprocessingNotCovered + ")");
  }
  return data;
}

std::string CsvEncoder::description() const {
  std::string out = "encoding of '" + fitted_path_ + "':";
  bool first = true;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (static_cast<Index>(c) == label_index_) continue;
    const Column& column = columns_[c];
    out += (first ? " '" : ", '") + header_[c] + "' ";
    first = false;
    const std::string imputed = options_.missing == MissingValues::impute_mean
                                    ? ", missing: " + imputed_value_text(static_cast<Index>(c))
                                    : std::string();
    if (column.numeric) {
      out += imputed.empty() ? "numeric" : "numeric (" + imputed.substr(2) + ")";
    } else {
      out += "one-hot (" + std::to_string(column.categories.size()) + " levels" + imputed + ")";
    }
  }
  out += "; label '" + label_column() + "' " +
         (options_.regression ? std::string("(regression target)")
                              : "(" + std::to_string(class_names_.size()) + " classes)");
  // The markers when not the defaults (NA, empty, nan, ?); model.json lists them always.
  out += "; delimiter " + delimiter_name(options_.delimiter) + "; missing values" +
         (options_.missing_markers == default_na_values()
              ? std::string()
              : " " + quoted_list(options_.missing_markers)) +
         ": " + to_string(options_.missing);
  return out;
}

namespace {
void record_encoding(Dataset& data, const CsvEncoder& encoder) {
  data.encoding = encoder.description();
  data.notes.push_back(data.encoding);
  data.csv_encoder = std::make_shared<const CsvEncoder>(encoder);
}
}  // namespace

Dataset load_csv(const std::string& path, const CsvOptions& options, CsvStats* stats) {
  const CsvTable table = read_csv_table(path, options.delimiter);
  const CsvEncoder encoder = CsvEncoder::fit(table, options);
  Dataset data = encoder.encode(table, stats);
  note_latin1(table, data);
  record_encoding(data, encoder);
  return data;
}

CsvPair load_csv_pair(const std::string& first_path, const std::string& second_path,
                      const CsvOptions& options) {
  const CsvTable first = read_csv_table(first_path, options.delimiter);
  const CsvTable second = read_csv_table(second_path, options.delimiter);
  const CsvEncoder encoder = CsvEncoder::fit(first, options);
  CsvPair pair;
  pair.first = encoder.encode(first, &pair.first_stats);
  pair.second = encoder.encode(second, &pair.second_stats);
  note_latin1(first, pair.first);
  note_latin1(second, pair.first);
  record_encoding(pair.first, encoder);  // once: concatenate() keeps both files' notes
  pair.second.csv_encoder = pair.first.csv_encoder;
  return pair;
}

}  // namespace dplab::data
