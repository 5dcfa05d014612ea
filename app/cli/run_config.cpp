#include "cli/run_config.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/memory_check.h"
#include "data/file_reader.h"

namespace dplab::cli {
namespace {

std::string to_flag(std::string key) {
  std::replace(key.begin(), key.end(), '_', '-');
  return key;
}

// A JSON value as the text a flag would carry, so both paths share one set of checks.
std::string json_as_text(const std::string& key, const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  // Unsigned first: 2^64 - 1 read as long long became -1 (the seed message quoted "-1").
  if (value.is_number_unsigned()) return std::to_string(value.get<unsigned long long>());
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  if (value.is_number()) {
    std::ostringstream out;
    out.precision(17);
    out << value.get<double>();
    return out.str();
  }
  throw UsageError("--config: key \"" + key + "\" must be a string or a number, got " +
                   json_excerpt(value));
}

// A JSON file named by `flag` (depth-capped parse; errors name the flag, file, line, column).
nlohmann::json read_json_file(const std::string& path, const std::string& flag) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw UsageError(flag + ": '" + path + "' is a directory");
  try {
    // The one reader: regular files only (--config /dev/zero or a FIFO used to be read for
    // ever), size-capped, UTF-8, within the memory budget; depth-capped, and errors name line,
    // column and key (core/json_guard.h).
    return data::read_json_file(path);
  } catch (const Error& e) {
    throw UsageError(flag + ": " + e.what());
  }
}

}  // namespace

const std::vector<RunConfigFlag>& run_config_flag_list() {
  return experiment::run_setting_list();
}

const std::set<std::string>& run_config_flags() {
  return experiment::run_setting_names();
}

double parse_max_memory(const std::string& text) {
  try {
    return experiment::parse_max_memory(text, "--max-memory");
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
}

void add_run_config_flags(CLI::App& command, Arguments& args) {
  add_value(command, args, "config",
            "JSON object of settings, keys = the flag names with '_' for '-'; flags override it",
            "FILE");
  for (const auto& flag : run_config_flag_list())
    add_value(command, args, flag.name, flag.help, flag.value_name);
}

void add_max_memory_flag(CLI::App& command, Arguments& args) {
  for (const auto& flag : run_config_flag_list()) {
    if (std::string(flag.name) == "max-memory")
      add_value(command, args, flag.name, flag.help, flag.value_name);
  }
}

const std::vector<std::string>& csv_reading_flags() {
  static const std::vector<std::string> flags = {"delimiter", "na-values", "na-policy"};
  return flags;
}

void add_csv_reading_flags(CLI::App& command, Arguments& args) {
  for (const auto& flag : run_config_flag_list()) {
    const auto& names = csv_reading_flags();
    if (std::find(names.begin(), names.end(), flag.name) != names.end())
      add_value(command, args, flag.name, flag.help, flag.value_name);
  }
}

void apply_csv_reading_flags(const Arguments& args, data::CsvReading& csv) {
  try {
    if (auto v = args.text("delimiter")) csv.delimiter = data::parse_delimiter(*v, "--delimiter");
    if (auto v = args.text("na-values")) csv.na_values = data::parse_na_values(*v, "--na-values");
    if (auto v = args.text("na-policy")) csv.na_policy = data::parse_na_policy(*v, "--na-policy");
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
}

void apply_max_memory_flag(const Arguments& args) {
  if (auto v = args.text("max-memory")) set_memory_limit_bytes(parse_max_memory(*v));
}

Settings run_config_settings(const Arguments& args) {
  // Collect every setting as text: first from the file, then the flags on top.
  std::map<std::string, std::string> values;
  if (auto path = args.text("config")) {
    // Depth-capped, and errors name line, column and key (core/json_guard.h).
    const nlohmann::json file = read_json_file(*path, "--config");
    if (!file.is_object()) throw UsageError("--config: '" + *path + "' must hold a JSON object");
    for (const auto& [key, value] : file.items()) {
      const std::string flag = to_flag(key);
      if (!run_config_flags().count(flag)) {
        throw UsageError("--config: unknown key \"" + key + "\" in '" + *path + "'");
      }
      values[flag] = json_as_text(key, value);
    }
  }
  Settings settings(SettingSpelling::kFlag);
  for (const auto& flag : args.given()) {
    if (flag == "config") continue;
    if (auto value = args.text(flag)) {
      values[flag] = *value;
    } else {
      settings.set_switch(flag);
    }
  }
  for (const auto& [flag, value] : values) settings.set(flag, value);
  return settings;
}

RunConfig parse_run_config(const Arguments& args) {
  return experiment::parse_run_settings(run_config_settings(args));
}

}  // namespace dplab::cli
