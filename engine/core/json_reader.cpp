#include "core/json_reader.h"

#include <cmath>
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
  if (!value.is_number()) json_fail(key_path(key), "expected a number, got " + json_excerpt(value));
  const double x = value.get<double>();
  if (!std::isfinite(x)) json_fail(key_path(key), "expected a finite number");
  return x;
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
  if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    json_fail(key_path(key), "integer out of range, got " + json_excerpt(*v));
  if (v->is_number_integer()) return v->get<std::int64_t>();
  if (v->is_number_float()) {
    const double x = v->get<double>();
    if (std::isfinite(x) && x == std::floor(x) && std::abs(x) < 9e15)
      return static_cast<std::int64_t>(x);
  }
  json_fail(key_path(key), "expected an integer, got " + json_excerpt(*v));
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
  const auto text = optional_string(key);
  if (!text) return std::nullopt;
  std::size_t i = 0;
  for (const char* name : names) {
    if (*text == name) return i;
    ++i;
  }
  json_fail(key_path(key), "unknown " + std::string(what) + " \"" + *text + "\" (expected " +
                               one_of(std::vector<std::string>(names.begin(), names.end())) + ")");
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
