// The one CSV writer: a table of already formatted fields (header row + data rows) as RFC 4180
// text — fields holding ',', '"', CR or LF are quoted and '"' doubled — one record per line ending
// in '\n', and written atomically (core/atomic_file.h). The engine's search exports
// (store/csv_export.h) and every GUI chart or table export go through it.
#pragma once

#include <string>
#include <vector>

namespace dplab::store {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// One field, quoted when RFC 4180 requires it.
std::string csv_field(const std::string& field);
// One record: the quoted fields joined by ',' and a final '\n'.
std::string csv_record(const std::vector<std::string>& fields);
// Header record then every row.
std::string csv_text(const CsvTable& table);
// Writes csv_text(table) to `path` atomically; throws IoError naming the file.
void write_csv_file(const std::string& path, const CsvTable& table);

}  // namespace dplab::store
