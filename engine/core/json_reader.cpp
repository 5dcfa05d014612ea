#include "core/json_reader.h"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/error.h"
#include "core/json_guard.h"

namespace dplab {

using nlohmann::json;

namespace {
// "a", "a or b", "a, b or c".
std::string one_of(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}

// A finite number at `where`.
double finite_number_at(const json& value, const std::string& where) {
  if (!value.is_number()) json_fail(where, "expected a number, got " + json_excerpt(value));
  const double x = value.get<double>();
  if (!std::isfinite(x)) json_fail(where, "expected a finite number");
  return x;
}

// An integer at `where`; a float with an integral value below 9e15 is accepted (1e3).
std::int64_t integer_at(const json& value, const std::string& where) {
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    json_fail(where, "integer out of range, got " + json_excerpt(value));
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_number_float()) {
    const double x = value.get<double>();
    if (std::isfinite(x) && x == std::floor(x) && std::abs(x) < 9e15)
      return static_cast<std::int64_t>(x);
  }
  json_fail(where, "expected an integer, got " + json_excerpt(value));
}

std::int64_t integer_in(const json& value, const std::string& where, std::int64_t min,
                        std::int64_t max) {
  const std::int64_t x = integer_at(value, where);
  if (x < min || x > max)
    json_fail(where, "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                         ", got " + std::to_string(x));
  return x;
}

}  // namespace

void json_fail(const std::string& path, const std::string& message) {
  throw ParseError(path + ": " + message);
}

JsonReader::JsonReader(const json& object, std::string path) : j_(object), path_(std::move(path)) {
  if (!j_.is_object())
    json_fail(path_.empty() ? "(top level)" : path_, "expected an object, got " + json_excerpt(j_));
}

std::string JsonReader::key_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

bool JsonReader::has(const std::string& key) const {
  return j_.contains(key);
}

const json* JsonReader::find(const std::string& key) {
  seen_.insert(key);
  const auto it = j_.find(key);
  return it == j_.end() ? nullptr : &*it;
}

const json& JsonReader::require(const std::string& key) {
  const json* v = find(key);
  if (!v) json_fail(key_path(key), "missing (required)");
  return *v;
}

std::optional<std::string> JsonReader::optional_string(const std::string& key) {
  const json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_string()) json_fail(key_path(key), "expected a string, got " + json_excerpt(*v));
  return v->get<std::string>();
}

std::string JsonReader::string_or(const std::string& key, const std::string& fallback) {
  return optional_string(key).value_or(fallback);
}

std::string JsonReader::required_string(const std::string& key) {
  require(key);
  return *optional_string(key);
}

double JsonReader::number(const json& value, const std::string& key) const {
  return finite_number_at(value, key_path(key));
}

std::optional<double> JsonReader::optional_number(const std::string& key) {
  const json* v = find(key);
  if (!v) return std::nullopt;
  return number(*v, key);
}

double JsonReader::number_or(const std::string& key, double fallback) {
  return optional_number(key).value_or(fallback);
}

double JsonReader::required_number(const std::string& key) {
  return number(require(key), key);
}

std::optional<std::int64_t> JsonReader::optional_integer(const std::string& key) {
  const json* v = find(key);
  if (!v) return std::nullopt;
  return integer_at(*v, key_path(key));
}

std::optional<std::int64_t> JsonReader::optional_integer(const std::string& key, std::int64_t min,
                                                         std::int64_t max) {
  const json* v = find(key);
  if (!v) return std::nullopt;
  return integer_in(*v, key_path(key), min, max);
}

std::optional<std::uint64_t> JsonReader::optional_seed(const std::string& key) {
  const json* v = find(key);
  if (!v) return std::nullopt;
  if (v->is_number_unsigned()) return v->get<std::uint64_t>();
  if (v->is_number_integer() && v->get<std::int64_t>() >= 0) return v->get<std::uint64_t>();
  json_fail(key_path(key), "expected a non-negative integer, got " + json_excerpt(*v));
}

std::optional<bool> JsonReader::optional_bool(const std::string& key) {
  const json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) json_fail(key_path(key), "expected true or false, got " + json_excerpt(*v));
  return v->get<bool>();
}

std::optional<std::size_t> JsonReader::optional_choice(const std::string& key,
                                                       std::initializer_list<const char*> names,
                                                       const char* what) {
  return optional_choice(key, std::vector<std::string>(names.begin(), names.end()), what);
}

std::optional<std::size_t> JsonReader::optional_choice(const std::string& key,
                                                       const std::vector<std::string>& names,
                                                       const char* what) {
  const auto text = optional_string(key);
  if (!text) return std::nullopt;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (*text == names[i]) return i;
  }
  json_fail(key_path(key), "unknown " + std::string(what) + " " + json_excerpt(json(*text)) +
                               " (expected " + one_of(names) + ")");
}

const json* JsonReader::optional_array(const std::string& key) {
  const json* v = find(key);
  if (v && !v->is_array()) json_fail(key_path(key), "expected a list, got " + json_excerpt(*v));
  return v;
}

std::string JsonReader::element_path(const std::string& key, std::size_t index) const {
  return key_path(key) + "[" + std::to_string(index) + "]";
}

std::optional<std::vector<double>> JsonReader::optional_numbers(const std::string& key) {
  const json* list = optional_array(key);
  if (!list) return std::nullopt;
  std::vector<double> out;
  for (std::size_t i = 0; i < list->size(); ++i)
    out.push_back(finite_number_at((*list)[i], element_path(key, i)));
  return out;
}

std::optional<std::vector<std::int64_t>> JsonReader::optional_integers(const std::string& key,
                                                                       std::int64_t min,
                                                                       std::int64_t max) {
  const json* list = optional_array(key);
  if (!list) return std::nullopt;
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < list->size(); ++i)
    out.push_back(integer_in((*list)[i], element_path(key, i), min, max));
  return out;
}

std::optional<std::vector<std::string>> JsonReader::optional_strings(const std::string& key) {
  const json* list = optional_array(key);
  if (!list) return std::nullopt;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& v = (*list)[i];
    if (!v.is_string())
      json_fail(element_path(key, i), "expected a string, got " + json_excerpt(v));
    out.push_back(v.get<std::string>());
  }
  return out;
}

std::optional<std::pair<double, double>> JsonReader::optional_low_high(const std::string& key) {
  const json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_array() || v->size() != 2)
    json_fail(key_path(key), "expected [low, high], got " + json_excerpt(*v));
  return std::pair{finite_number_at((*v)[0], element_path(key, 0)),
                   finite_number_at((*v)[1], element_path(key, 1))};
}

void JsonReader::reject_unknown() const {
  for (auto it = j_.begin(); it != j_.end(); ++it) {
    if (seen_.count(it.key())) continue;
    json_fail(key_path(it.key()),
              seen_.empty()
                  ? std::string("unknown key")
                  : "unknown key (expected " +
                        one_of(std::vector<std::string>(seen_.begin(), seen_.end())) + ")");
  }
}

}  // namespace dplab
