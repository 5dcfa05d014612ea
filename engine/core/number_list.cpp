#include "core/number_list.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/message_text.h"

namespace dplab {
namespace {

std::string_view trimmed(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<double> parse_positive_list(std::string_view text, std::string_view field) {
  std::vector<double> values;
  while (true) {
    const std::size_t comma = text.find(',');
    const std::string_view entry = trimmed(text.substr(0, comma));
    if (!entry.empty()) {
      double value = 0;
      const auto [end, error] = std::from_chars(entry.data(), entry.data() + entry.size(), value);
      if (error != std::errc() || end != entry.data() + entry.size() || !std::isfinite(value) ||
          !(value > 0)) {
        throw InvalidArgument(std::string(field) + ": \"" + cut_for_message(entry) +
                              "\" is not a number > 0");
      }
      values.push_back(value);
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  if (values.empty()) throw InvalidArgument(std::string(field) + ": give at least one number > 0");
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

}  // namespace dplab
