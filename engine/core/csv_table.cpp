// RFC 4180 CSV text and its atomic writing. See csv_table.h.
#include "core/csv_table.h"

#include "core/atomic_file.h"
#include "core/utf8.h"

namespace dplab::csv {

namespace {

// Blanks that CSV readers trim from an unquoted field (dplab's reader, csv_loader.h: spaces and
// tabs around a field; pandas with skipinitialspace): such a field is quoted to keep them.
bool blank(char c) {
  return c == ' ' || c == '\t';
}

}  // namespace

std::string csv_field(const std::string& raw) {
  // Bytes that are not UTF-8 (a Latin-1 file name) as U+FFFD, the rule of the JSON outputs
  // (core/json_text.h): pandas.read_csv's default UTF-8 decoding refused the whole file, and
  // dplab's reader re-read every cell of it as Latin-1.
  const std::string field = utf8_replaced(raw);
  const bool quote = field.find_first_of(",\"\r\n") != std::string::npos ||
                     (!field.empty() && (blank(field.front()) || blank(field.back()))) ||
                     field.rfind("\xEF\xBB\xBF", 0) == 0;  // a byte order mark, which readers drop
  if (!quote) return field;
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
