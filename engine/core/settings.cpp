#include "core/settings.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/error.h"
#include "core/message_text.h"

namespace dplab {

std::string setting_field(SettingSpelling spelling, std::string_view name) {
  if (spelling == SettingSpelling::kFlag) return "--" + std::string(name);
  std::string keyword(name);
  for (char& c : keyword) {
    if (c == '-') c = '_';
  }
  return keyword;
}

double parse_setting_number(std::string_view field, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE ||
      !std::isfinite(value)) {
    throw InvalidArgument(std::string(field) + ": expected a finite number, got '" +
                          cut_for_message(text) + "'");
  }
  return value;
}

std::int64_t parse_setting_integer(std::string_view field, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE) {
    // An integer too large for 64 bits says so (not "expected an integer").
    const bool digits_only =
        !text.empty() &&
        text.find_first_not_of("0123456789", text[0] == '-' ? 1 : 0) == std::string::npos;
    if (errno == ERANGE && digits_only) {
      throw InvalidArgument(std::string(field) + ": " + cut_for_message(text) +
                            " is out of range (at most " +
                            std::to_string(std::numeric_limits<long long>::max()) + ")");
    }
    // Accept integral values written in scientific notation, e.g. 1e4.
    const double as_double = parse_setting_number(field, text);
    if (as_double != std::floor(as_double) || std::abs(as_double) > 9e15) {
      throw InvalidArgument(std::string(field) + ": expected an integer, got '" +
                            cut_for_message(text) + "'");
    }
    return static_cast<std::int64_t>(as_double);
  }
  return value;
}

int parse_setting_int(std::string_view field, const std::string& text) {
  const std::int64_t value = parse_setting_integer(field, text);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
    throw InvalidArgument(std::string(field) + ": " + cut_for_message(text) + " is out of range");
  return static_cast<int>(value);
}

std::vector<std::string> setting_items(std::string_view field, const std::string& text) {
  std::vector<std::string> items;
  std::string::size_type start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    items.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (items.back().empty())
      throw InvalidArgument(std::string(field) + ": empty item in '" + cut_for_message(text) + "'");
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

void Settings::set(const std::string& name, const std::string& value) {
  if (values_.count(name) || switches_.count(name))
    throw InvalidArgument(field(name) + " is given twice");
  values_[name] = value;
}

void Settings::set_switch(const std::string& name) {
  switches_.insert(name);
}

bool Settings::has(const std::string& name) const {
  return values_.count(name) || switches_.count(name);
}

std::vector<std::string> Settings::given() const {
  std::set<std::string> names = switches_;
  for (const auto& [name, value] : values_) names.insert(name);
  return {names.begin(), names.end()};
}

void Settings::require_only(const std::set<std::string>& used, const std::string& mode) const {
  for (const auto& name : given()) {
    if (!used.count(name)) throw InvalidArgument(field(name) + " is not used by " + mode);
  }
}

std::optional<std::string> Settings::text(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Settings::text_or(const std::string& name, const std::string& fallback) const {
  return text(name).value_or(fallback);
}

std::string Settings::required_text(const std::string& name) const {
  auto value = text(name);
  if (!value) {
    throw InvalidArgument(spelling_ == SettingSpelling::kFlag
                              ? "missing required flag " + field(name)
                              : "missing required argument " + field(name));
  }
  return *value;
}

double Settings::number_or(const std::string& name, double fallback) const {
  auto value = text(name);
  return value ? parse_setting_number(field(name), *value) : fallback;
}

double Settings::required_number(const std::string& name) const {
  return parse_setting_number(field(name), required_text(name));
}

std::int64_t Settings::integer_or(const std::string& name, std::int64_t fallback) const {
  auto value = text(name);
  return value ? parse_setting_integer(field(name), *value) : fallback;
}

int Settings::int_or(const std::string& name, int fallback) const {
  auto value = text(name);
  return value ? parse_setting_int(field(name), *value) : fallback;
}

std::int64_t Settings::required_integer(const std::string& name) const {
  return parse_setting_integer(field(name), required_text(name));
}

std::uint64_t Settings::seed_or(const std::string& name, std::uint64_t fallback) const {
  auto value = text(name);
  if (!value) return fallback;
  const std::int64_t seed = parse_setting_integer(field(name), *value);
  if (seed < 0)
    throw InvalidArgument(field(name) + ": expected a non-negative integer, got '" +
                          cut_for_message(*value) + "'");
  return static_cast<std::uint64_t>(seed);
}

}  // namespace dplab
