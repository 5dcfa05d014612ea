// Small text helpers shared by the CSV and LIBSVM loaders: locale-independent number parsing
// (std::from_chars, which also accepts a leading '+') and whitespace trimming.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

namespace dplab::data {

// The whole of `text` as a finite number, or nullopt ("inf", "nan", "1.5x" and "" are not).
inline std::optional<double> parse_number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// True for a spelling of a non-finite number ("nan", "-inf", "Infinity", "NaN"): a value a
// numeric column may not hold (the CSV encoder refuses it instead of treating the column as text).
inline bool is_non_finite_number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return false;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && !std::isfinite(value);
}

inline bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

inline std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace dplab::data
