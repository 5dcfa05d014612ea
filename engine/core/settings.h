// Settings: the named values of one request, by canonical name ("noise-multiplier"): the flags of
// a dplab-cli command, or the keyword arguments of a call into the `dplab` Python module. Both
// doors hand the engine the same Settings, so a request is checked by one set of rules whichever
// door it came through (engine/privacy/selection/accounting_requests.h, experiment/run_settings.h).
//
// Values are kept as text, as a command line carries them (a Python float arrives as its repr,
// which reads back as the same double). The typed accessors parse them; every error is an
// InvalidArgument that names the setting as its caller spells it (SettingSpelling): "--steps" on
// the command line, "steps" in Python ("noise_multiplier" for "noise-multiplier").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dplab {

enum class SettingSpelling {
  kFlag,     // dplab-cli: "--noise-multiplier"
  kKeyword,  // Python: "noise_multiplier"
};

// How `name` ("noise-multiplier") is written in a message for `spelling`.
std::string setting_field(SettingSpelling spelling, std::string_view name);

// The parsing rules of one value; `field` names it in the message ("--steps: expected an
// integer, got 'x'"). Integers accept integral values in scientific notation (1e4).
double parse_setting_number(std::string_view field, const std::string& text);
std::int64_t parse_setting_integer(std::string_view field, const std::string& text);
int parse_setting_int(std::string_view field, const std::string& text);  // in int's range
// A comma-separated value "1,2,3", item by item; an empty list or item is an error.
std::vector<std::string> setting_items(std::string_view field, const std::string& text);

class Settings {
 public:
  explicit Settings(SettingSpelling spelling = SettingSpelling::kFlag) : spelling_(spelling) {}

  SettingSpelling spelling() const { return spelling_; }
  // `name` as this request's caller writes it: "--steps" or "steps".
  std::string field(std::string_view name) const { return setting_field(spelling_, name); }

  // Records a value (or a switch); a setting given twice is an error.
  void set(const std::string& name, const std::string& value);
  void set_switch(const std::string& name);

  bool has(const std::string& name) const;
  // Every setting given (values and switches), by canonical name, sorted.
  std::vector<std::string> given() const;
  // Refuses a given setting that the selected mode does not read: "--trials is not used by
  // --bounds-csv" (`mode`), instead of accepting it unchecked. `used` lists the mode's settings.
  void require_only(const std::set<std::string>& used, const std::string& mode) const;

  std::optional<std::string> text(const std::string& name) const;
  std::string text_or(const std::string& name, const std::string& fallback) const;
  std::string required_text(const std::string& name) const;
  double number_or(const std::string& name, double fallback) const;
  double required_number(const std::string& name) const;
  std::int64_t integer_or(const std::string& name, std::int64_t fallback) const;
  // For int fields: a value outside int's range is an error naming the setting, never a wrap.
  int int_or(const std::string& name, int fallback) const;
  std::int64_t required_integer(const std::string& name) const;
  std::uint64_t seed_or(const std::string& name, std::uint64_t fallback) const;

 private:
  SettingSpelling spelling_;
  std::map<std::string, std::string> values_;
  std::set<std::string> switches_;
};

}  // namespace dplab
