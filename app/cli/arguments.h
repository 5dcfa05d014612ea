// The values of one dplab-cli command line. CLI11 (cli/commands.h) does the parsing, --help and
// the unknown-flag errors; every declared flag stores its text here under its canonical name, and
// the command reads it with the typed accessors below. Every problem throws UsageError (or the
// engine's InvalidArgument) with a message that names the flag; main() prints it and exits with
// status 2.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/settings.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace dplab::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The flags of one command line: the engine's Settings (core/settings.h) spelled as flags, so a
// command hands them to the engine's request functions as they are. Its typed accessors throw
// InvalidArgument naming the flag ("--steps: expected an integer, got 'x'"), which main() reports
// like a UsageError (exit status 2).
class Arguments : public Settings {
 public:
  Arguments() : Settings(SettingSpelling::kFlag) {}
  // "--threads N": worker threads, 0..1024; 0 (also when not given) means all cores.
  int threads() const;
};

// The engine's parsing rules (core/settings.h) for a flag's text, as UsageErrors naming "--flag".
double parse_number(const std::string& flag, const std::string& text);
std::int64_t parse_integer(const std::string& flag, const std::string& text);
int parse_int(const std::string& flag, const std::string& text);  // in int's range
// A comma-separated value "1,2,3", item by item; an empty list or item is an error naming the flag.
std::vector<std::string> comma_items(const std::string& flag, const std::string& text);
std::vector<double> parse_number_list(const std::string& flag, const std::string& text);
std::vector<int> parse_int_list(const std::string& flag, const std::string& text);

// The command-line layer is the only code that sees CLI11's headers (they cost ~4 s of compile
// time per file): commands declare themselves through the functions below, which take CLI11's
// types by reference only.

// A declared flag or positional, for the two tweaks a command makes to it.
class Flag {
 public:
  explicit Flag(CLI::Option* option) : option_(option) {}
  // CLI11 reports it missing, and --help marks it REQUIRED.
  Flag& required();
  // The word that stands for its value in --help ("FILE", "DIR").
  Flag& type_name(const std::string& name);

 private:
  CLI::Option* option_;
};

// Declares subcommand `name` of `parent` ("dplab-cli NAME", or "dplab-cli history NAME").
CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& help);
// Text printed at the end of the command's --help.
void set_footer(CLI::App& command, const std::string& text);
// Ends the command's --help (after its footer, if any) with "Examples:" and one indented
// command line per example, each runnable as written from a source checkout's folder
// (tests/cli/test_cli_help_examples.cpp runs them all). An example that takes long ends with
// "  # long: <how long>"; the test then only checks that it starts (docs in the test).
void add_examples(CLI::App& command, const std::vector<std::string>& examples);
// The command only groups subcommands: one of them must be given.
void require_one_subcommand(CLI::App& command);

// Declares "--name VALUE" on `command`; its text lands in `args` under `name`. The help line
// says what the value means, its unit and its default.
Flag add_value(CLI::App& command, Arguments& args, const std::string& name, const std::string& help,
               const std::string& value_name = "VALUE");
// Declares a required positional argument NAME (a word without dashes, e.g. the plan folder of
// `run-jobs DIR`); its text lands in `args` under `name`.
Flag add_positional(CLI::App& command, Arguments& args, const std::string& name,
                    const std::string& help);
// Declares a switch "--name" (no value).
Flag add_switch(CLI::App& command, Arguments& args, const std::string& name,
                const std::string& help);
// Declares "--name=VALUE", repeatable: each value is appended to `values`, in order. One value
// per flag (a following word is not taken as a second value).
Flag add_repeatable(CLI::App& command, std::vector<std::string>& values, const std::string& name,
                    const std::string& help, const std::string& value_name);
// A hidden old spelling "--alias VALUE" that stores under `name` (giving both is an error).
// Do not mark `name` ->required() (CLI11 would not count the alias); read it with required_*.
void add_hidden_alias(CLI::App& command, Arguments& args, const std::string& alias,
                      const std::string& name);

}  // namespace dplab::cli
