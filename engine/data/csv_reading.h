// How a user's CSV file is read before its columns are encoded (csv_loader.h): the field
// delimiter and the missing-value markers and policy. One set of rules for the dplab-cli flags
// (--delimiter, --na-values, --na-policy), an experiment file's "dataset" section and the input
// encoding a trained model records in model.json (so `dplab-cli predict` reads new rows alike).
#pragma once

#include <string>
#include <vector>

namespace dplab::data {

// What a missing value does: drop its row (counted in a note), be replaced by the training
// table's column mean (numeric) or most frequent level (text), or stop the load naming FILE:LINE
// and the column. A missing label always drops its row under impute_mean (a label is not
// imputed).
enum class MissingValues { drop_row, impute_mean, fail };

// A delimiter of '\0': detected among ',', ';' and tab (detect_csv_delimiter, csv_loader.h).
inline constexpr char kDetectDelimiter = '\0';

// "NA", "" (an empty field), "nan" and "?": what R, pandas and UCI files write for a gap.
std::vector<std::string> default_na_values();

struct CsvReading {
  char delimiter = kDetectDelimiter;
  std::vector<std::string> na_values = default_na_values();
  MissingValues na_policy = MissingValues::drop_row;
  bool operator==(const CsvReading&) const = default;
};

// "drop" | "impute-mean" | "fail"; InvalidArgument naming `field` otherwise.
MissingValues parse_na_policy(const std::string& text, const std::string& field);
const char* to_string(MissingValues policy);

// A comma-separated list of markers, "NA,,nan,?" (an empty item is the empty field), checked by
// check_na_values.
std::vector<std::string> parse_na_values(const std::string& text, const std::string& field);
// At least one marker, none twice, none with surrounding blanks (fields are trimmed, so such a
// marker could never match). InvalidArgument naming `field`.
void check_na_values(const std::vector<std::string>& markers, const std::string& field);

// "," | ";" | "tab" (or a tab character) | "auto" (detect); InvalidArgument naming `field`.
char parse_delimiter(const std::string& text, const std::string& field);
// "','", "';'", "tab" or "auto": how messages and notes name a delimiter.
std::string delimiter_name(char delimiter);
// The spelling parse_delimiter reads back: ",", ";", "tab" or "auto".
std::string delimiter_setting(char delimiter);

}  // namespace dplab::data
