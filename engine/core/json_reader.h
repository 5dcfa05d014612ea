// JsonReader: the one way dplab reads an object of a user file (experiment files, release and
// accounting blocks, presets, saved states). Every error is a ParseError "<key path>: <what>"
// that names the key ("optimizers[0].grid.clip: expected a number, got \"abc\""), shows the
// offending value only as a bounded excerpt (json_excerpt: never a whole dump of a large or
// deeply nested value), and a key the schema does not know is reported, not ignored.
//
// Use: JsonReader r(j, "release"); read the keys with the typed getters (each marks its key as
// known), then r.reject_unknown(). Duplicate keys and nesting depth are checked earlier, when
// the text is parsed (parse_json_text in json_guard.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace dplab {

// Throws ParseError("<path>: <message>").
[[noreturn]] void json_fail(const std::string& path, const std::string& message);

class JsonReader {
 public:
  // Throws "<path>: expected an object, got <excerpt>" unless `object` is an object. An empty
  // path reads as "(top level)" in messages. `object` must outlive the reader.
  JsonReader(const nlohmann::json& object, std::string path);

  const std::string& path() const { return path_; }
  // "path.key" ("key" at the top level).
  std::string key_path(const std::string& key) const;

  // Whether the key is present (does not mark it as read).
  bool has(const std::string& key) const;
  // The value or null; marks the key as known either way.
  const nlohmann::json* find(const std::string& key);
  // The value; "<path.key>: missing (required)" when absent.
  const nlohmann::json& require(const std::string& key);

  std::optional<std::string> optional_string(const std::string& key);
  std::string string_or(const std::string& key, const std::string& fallback);
  std::string required_string(const std::string& key);

  // A finite number (an integer is accepted); `key` only names it in messages.
  double number(const nlohmann::json& value, const std::string& key) const;
  std::optional<double> optional_number(const std::string& key);
  double number_or(const std::string& key, double fallback);
  double required_number(const std::string& key);

  // An integer; a float with an integral value below 9e15 is accepted (JSON writers print 1e3).
  std::optional<std::int64_t> optional_integer(const std::string& key);
  // An integer in [min, max]: "<path.key>: must be between min and max, got v" otherwise.
  std::optional<std::int64_t> optional_integer(const std::string& key, std::int64_t min,
                                               std::int64_t max);
  // A non-negative integer up to 2^64 - 1 (seeds).
  std::optional<std::uint64_t> optional_seed(const std::string& key);
  std::optional<bool> optional_bool(const std::string& key);
  // The index of the string at `key` in `names`; "<path.key>: unknown <what> "x" (expected a, b
  // or c)" for any other string.
  std::optional<std::size_t> optional_choice(const std::string& key,
                                             std::initializer_list<const char*> names,
                                             const char* what = "value");
  std::optional<std::size_t> optional_choice(const std::string& key,
                                             const std::vector<std::string>& names,
                                             const char* what = "value");

  // The list at `key` or null when absent; "<path.key>: expected a list, got <excerpt>" for any
  // other value. Its elements are named "<path.key>[i]" (element_path).
  const nlohmann::json* optional_array(const std::string& key);
  std::string element_path(const std::string& key, std::size_t index) const;
  // Lists whose every element is a finite number / an integer in [min, max] / a string; a bad
  // element is named "<path.key>[i]". An empty list is returned as such (the caller's rule).
  std::optional<std::vector<double>> optional_numbers(const std::string& key);
  std::optional<std::vector<std::int64_t>> optional_integers(const std::string& key,
                                                             std::int64_t min, std::int64_t max);
  std::optional<std::vector<std::string>> optional_strings(const std::string& key);
  // A pair [low, high] of finite numbers ("<path.key>: expected [low, high], got <excerpt>");
  // their order is the caller's rule.
  std::optional<std::pair<double, double>> optional_low_high(const std::string& key);

  // "<path.key>: unknown key (expected a, b or c)" for the first key no getter asked for,
  // listing the keys that were asked for.
  void reject_unknown() const;

 private:
  const nlohmann::json& j_;
  std::string path_;
  std::set<std::string> seen_;
};

}  // namespace dplab
