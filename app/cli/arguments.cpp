#include "cli/arguments.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <CLI/CLI.hpp>

#include "core/message_text.h"

namespace dplab::cli {

void Arguments::set(const std::string& flag, const std::string& value) {
  if (values_.count(flag)) throw UsageError("--" + flag + " is given twice");
  values_[flag] = value;
}

void Arguments::set_switch(const std::string& flag) {
  switches_seen_.insert(flag);
}

bool Arguments::has(const std::string& flag) const {
  return values_.count(flag) || switches_seen_.count(flag);
}

std::vector<std::string> Arguments::given() const {
  std::set<std::string> names = switches_seen_;
  for (const auto& [name, value] : values_) names.insert(name);
  return {names.begin(), names.end()};
}

void Arguments::require_only(const std::set<std::string>& used, const std::string& mode) const {
  for (const auto& flag : given()) {
    if (!used.count(flag)) throw UsageError("--" + flag + " is not used by " + mode);
  }
}

std::optional<std::string> Arguments::text(const std::string& flag) const {
  auto it = values_.find(flag);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Arguments::text_or(const std::string& flag, const std::string& fallback) const {
  return text(flag).value_or(fallback);
}

std::string Arguments::required_text(const std::string& flag) const {
  auto value = text(flag);
  if (!value) throw UsageError("missing required flag --" + flag);
  return *value;
}

double parse_number(const std::string& flag, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE ||
      !std::isfinite(value)) {
    throw UsageError("--" + flag + ": expected a finite number, got '" + cut_for_message(text) +
                     "'");
  }
  return value;
}

std::int64_t parse_integer(const std::string& flag, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE) {
    // An integer too large for 64 bits says so (not "expected an integer").
    const bool digits_only =
        !text.empty() &&
        text.find_first_not_of("0123456789", text[0] == '-' ? 1 : 0) == std::string::npos;
    if (errno == ERANGE && digits_only) {
      throw UsageError("--" + flag + ": " + cut_for_message(text) + " is out of range (at most " +
                       std::to_string(std::numeric_limits<long long>::max()) + ")");
    }
    // Accept integral values written in scientific notation, e.g. 1e4.
    const double as_double = parse_number(flag, text);
    if (as_double != std::floor(as_double) || std::abs(as_double) > 9e15) {
      throw UsageError("--" + flag + ": expected an integer, got '" + cut_for_message(text) + "'");
    }
    return static_cast<std::int64_t>(as_double);
  }
  return value;
}

double Arguments::number_or(const std::string& flag, double fallback) const {
  auto value = text(flag);
  return value ? parse_number(flag, *value) : fallback;
}

double Arguments::required_number(const std::string& flag) const {
  return parse_number(flag, required_text(flag));
}

std::int64_t Arguments::integer_or(const std::string& flag, std::int64_t fallback) const {
  auto value = text(flag);
  return value ? parse_integer(flag, *value) : fallback;
}

int Arguments::int_or(const std::string& flag, int fallback) const {
  auto value = text(flag);
  return value ? parse_int(flag, *value) : fallback;
}

int Arguments::threads() const {
  const std::int64_t threads = integer_or("threads", 0);
  if (threads < 0 || threads > 1024)
    throw UsageError("--threads: expected 0..1024, got " + std::to_string(threads));
  return static_cast<int>(threads);
}

int parse_int(const std::string& flag, const std::string& text) {
  const std::int64_t value = parse_integer(flag, text);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
    throw UsageError("--" + flag + ": " + cut_for_message(text) + " is out of range");
  return static_cast<int>(value);
}

std::vector<std::string> comma_items(const std::string& flag, const std::string& text) {
  std::vector<std::string> items;
  std::string::size_type start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    items.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (items.back().empty())
      throw UsageError("--" + flag + ": empty item in '" + cut_for_message(text) + "'");
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

std::vector<double> parse_number_list(const std::string& flag, const std::string& text) {
  std::vector<double> values;
  for (const auto& item : comma_items(flag, text)) values.push_back(parse_number(flag, item));
  return values;
}

std::vector<int> parse_int_list(const std::string& flag, const std::string& text) {
  std::vector<int> values;
  for (const auto& item : comma_items(flag, text)) values.push_back(parse_int(flag, item));
  return values;
}

std::int64_t Arguments::required_integer(const std::string& flag) const {
  return parse_integer(flag, required_text(flag));
}

std::uint64_t Arguments::seed_or(const std::string& flag, std::uint64_t fallback) const {
  auto value = text(flag);
  if (!value) return fallback;
  const std::int64_t seed = parse_integer(flag, *value);
  if (seed < 0)
    throw UsageError("--" + flag + ": expected a non-negative integer, got '" +
                     cut_for_message(*value) + "'");
  return static_cast<std::uint64_t>(seed);
}

namespace {

// CLI11 prints a description as given (indenting after each '\n'): wrap it to fit 100 columns.
std::string wrap(const std::string& text, std::size_t width = 66) {
  std::string out, line, word;
  auto flush_word = [&] {
    if (word.empty()) return;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : text) {
    if (c == ' ')
      flush_word();
    else
      word += c;
  }
  flush_word();
  return out + line;
}

}  // namespace

Flag& Flag::required() {
  option_->required();
  return *this;
}

Flag& Flag::type_name(const std::string& name) {
  option_->type_name(name);
  return *this;
}

CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& help) {
  return parent.add_subcommand(name, help);
}

void set_footer(CLI::App& command, const std::string& text) {
  command.footer(text);
}

void require_one_subcommand(CLI::App& command) {
  command.require_subcommand(1);
}

Flag add_value(CLI::App& command, Arguments& args, const std::string& name, const std::string& help,
               const std::string& value_name) {
  return Flag(command
                  .add_option_function<std::string>(
                      "--" + name,
                      [&args, name](const std::string& value) { args.set(name, value); },
                      wrap(help))
                  ->type_name(value_name));
}

Flag add_positional(CLI::App& command, Arguments& args, const std::string& name,
                    const std::string& help) {
  return Flag(
      command
          .add_option_function<std::string>(
              name, [&args, name](const std::string& value) { args.set(name, value); }, wrap(help))
          ->required());
}

Flag add_switch(CLI::App& command, Arguments& args, const std::string& name,
                const std::string& help) {
  return Flag(command.add_flag_callback(
      "--" + name, [&args, name] { args.set_switch(name); }, wrap(help)));
}

Flag add_repeatable(CLI::App& command, std::vector<std::string>& values, const std::string& name,
                    const std::string& help, const std::string& value_name) {
  return Flag(command.add_option("--" + name, values, wrap(help))
                  ->type_name(value_name)
                  ->allow_extra_args(false));
}

void add_hidden_alias(CLI::App& command, Arguments& args, const std::string& alias,
                      const std::string& name) {
  command
      .add_option_function<std::string>(
          "--" + alias, [&args, name](const std::string& value) { args.set(name, value); })
      ->group("");
}

}  // namespace dplab::cli
