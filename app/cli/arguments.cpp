#include "cli/arguments.h"

#include <CLI/CLI.hpp>

#include "core/error.h"

namespace dplab::cli {

namespace {

// The engine's rule, its InvalidArgument as the command line's UsageError.
template <class Parse>
auto as_usage_error(Parse parse) {
  try {
    return parse();
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
}

// Records a flag's value while CLI11 parses; "--x is given twice" is a UsageError there, as every
// problem main() reports during parsing.
void set_flag(Arguments& args, const std::string& name, const std::string& value) {
  as_usage_error([&] {
    args.set(name, value);
    return 0;
  });
}

}  // namespace

double parse_number(const std::string& flag, const std::string& text) {
  return as_usage_error([&] { return parse_setting_number("--" + flag, text); });
}

std::int64_t parse_integer(const std::string& flag, const std::string& text) {
  return as_usage_error([&] { return parse_setting_integer("--" + flag, text); });
}

int parse_int(const std::string& flag, const std::string& text) {
  return as_usage_error([&] { return parse_setting_int("--" + flag, text); });
}

std::vector<std::string> comma_items(const std::string& flag, const std::string& text) {
  return as_usage_error([&] { return setting_items("--" + flag, text); });
}

int Arguments::threads() const {
  const std::int64_t threads = integer_or("threads", 0);
  if (threads < 0 || threads > 1024)
    throw UsageError("--threads: expected 0..1024, got " + std::to_string(threads));
  return static_cast<int>(threads);
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

void add_examples(CLI::App& command, const std::vector<std::string>& examples) {
  // After the footer as it stands: the command's own, or the one CLI11 copied from its parent
  // (dplab-cli's exit statuses), kept as it was.
  std::string footer = command.get_footer();
  if (!footer.empty()) footer += "\n";
  footer += "Examples:";
  for (const auto& example : examples) footer += "\n  " + example;
  command.footer(footer);
}

void require_one_subcommand(CLI::App& command) {
  command.require_subcommand(1);
}

Flag add_value(CLI::App& command, Arguments& args, const std::string& name, const std::string& help,
               const std::string& value_name) {
  return Flag(command
                  .add_option_function<std::string>(
                      "--" + name,
                      [&args, name](const std::string& value) { set_flag(args, name, value); },
                      wrap(help))
                  ->type_name(value_name));
}

Flag add_positional(CLI::App& command, Arguments& args, const std::string& name,
                    const std::string& help) {
  return Flag(command
                  .add_option_function<std::string>(
                      name,
                      [&args, name](const std::string& value) { set_flag(args, name, value); },
                      wrap(help))
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
          "--" + alias, [&args, name](const std::string& value) { set_flag(args, name, value); })
      ->group("");
}

}  // namespace dplab::cli
