// RFC 4180 CSV text and its atomic writing. See csv_table.h.
#include "core/csv_table.h"

#include "core/atomic_file.h"

namespace dplab::csv {

std::string csv_field(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string quoted = "\"";
  for (char c : field) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

std::string csv_record(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += csv_field(fields[i]);
  }
  line += '\n';
  return line;
}

std::string csv_text(const CsvTable& table) {
  std::vector<std::string> header = table.header;
  std::vector<std::string> constants;
  for (const auto& column : table.constant_columns) {
    header.push_back(column.name);
    constants.push_back(column.value);
  }
  std::string text = csv_record(header);
  std::vector<std::string> fields;
  for (const auto& row : table.rows) {
    fields = row;
    fields.insert(fields.end(), constants.begin(), constants.end());
    text += csv_record(fields);
  }
  return text;
}

void write_csv_file(const std::string& path, const CsvTable& table) {
  write_file_atomically(path, csv_text(table));
}

}  // namespace dplab::csv
