// The one CSV writer: a table of already formatted fields (header row + data rows) as RFC 4180
// text — fields holding ',', '"', CR or LF are quoted and '"' doubled — one record per line ending
// in '\n', and written atomically (core/atomic_file.h). The header is line 1, so
// `pandas.read_csv(path)` and `csv.DictReader` read every file with their default arguments: what
// used to be a '#' comment line (the ε label of the search the numbers come from) is a column with
// one value on every row (constant_columns). Numbers are formatted by core/number_text.h. The
// engine's releases (release/release_writer.h) and every GUI chart or table export go through it.
#pragma once

#include <string>
#include <vector>

namespace dplab::csv {

struct CsvConstantColumn {
  std::string name;
  std::string value;
};

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  // Columns with the same value on every row, written after `header` (e.g. epsilon_label: the ε
  // label of the search the numbers come from). Last member, so {header, rows}
  // brace-initialisation still works.
  std::vector<CsvConstantColumn> constant_columns;
};

// One field, quoted when RFC 4180 requires it (',', '"', CR or LF) and when it starts or ends with
// a space or a tab or starts with a byte order mark (which readers would drop); bytes that are not
// UTF-8 are written as U+FFFD (core/utf8.h utf8_replaced, the JSON outputs' rule). Every field of
// a rectangular table reads back through data::read_csv_table as it was (one caveat: in a table
// of one column, an empty field is a blank line, which readers skip).
std::string csv_field(const std::string& field);
// One record: the quoted fields joined by ',' and a final '\n'.
std::string csv_record(const std::vector<std::string>& fields);
// Header record then every row.
std::string csv_text(const CsvTable& table);
// Writes csv_text(table) to `path` atomically; throws IoError naming the file.
void write_csv_file(const std::string& path, const CsvTable& table);

}  // namespace dplab::csv
