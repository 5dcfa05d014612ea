// The rules of CsvReading's settings (see csv_reading.h).
#include "data/csv_reading.h"

#include <algorithm>

#include "core/error.h"
#include "core/message_text.h"
#include "data/text_number.h"

namespace dplab::data {

std::vector<std::string> default_na_values() {
  return {"NA", "", "nan", "?"};
}

MissingValues parse_na_policy(const std::string& text, const std::string& field) {
  if (text == "drop") return MissingValues::drop_row;
  if (text == "impute-mean") return MissingValues::impute_mean;
  if (text == "fail") return MissingValues::fail;
  throw InvalidArgument(field + " = '" + cut_for_message(text) +
                        "' must be drop, impute-mean or fail");
}

const char* to_string(MissingValues policy) {
  switch (policy) {
    case MissingValues::drop_row:
      return "drop";
    case MissingValues::impute_mean:
      return "impute-mean";
    case MissingValues::fail:
      return "fail";
  }
  return "drop";
}

std::vector<std::string> parse_na_values(const std::string& text, const std::string& field) {
  std::vector<std::string> markers;
  std::string::size_type start = 0;
  for (;;) {
    const auto comma = text.find(',', start);
    markers.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  check_na_values(markers, field);
  return markers;
}

void check_na_values(const std::vector<std::string>& markers, const std::string& field) {
  if (markers.empty()) throw InvalidArgument(field + ": give at least one marker");
  for (std::size_t i = 0; i < markers.size(); ++i) {
    const std::string& marker = markers[i];
    if (trim(marker).size() != marker.size()) {
      throw InvalidArgument(field + ": marker '" + cut_for_message(marker) +
                            "' has surrounding blanks; fields are trimmed, so it never matches");
    }
    if (std::find(markers.begin(), markers.begin() + static_cast<std::ptrdiff_t>(i), marker) !=
        markers.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw InvalidArgument(field + ": marker '" + cut_for_message(marker) + "' is given twice");
    }
  }
}

char parse_delimiter(const std::string& text, const std::string& field) {
  if (text == ",") return ',';
  if (text == ";") return ';';
  if (text == "tab" || text == "\t") return '\t';
  if (text == "auto") return kDetectDelimiter;
  throw InvalidArgument(field + " = '" + cut_for_message(text) +
                        "' must be ',', ';', tab or auto (detect among them)");
}

std::string delimiter_name(char delimiter) {
  if (delimiter == kDetectDelimiter) return "auto";
  if (delimiter == '\t') return "tab";
  return std::string("'") + delimiter + "'";
}

std::string delimiter_setting(char delimiter) {
  if (delimiter == kDetectDelimiter) return "auto";
  if (delimiter == '\t') return "tab";
  return std::string(1, delimiter);
}

}  // namespace dplab::data
