// libFuzzer harness: the dplab-cli flag parser (app/cli/arguments.*, CLI11) and the settings of
// `train` (app/cli/run_config.*), linked without the rest of the CLI. The input is split at NUL
// bytes into at most 40 arguments after "dplab-cli train"; every flag of `train` is declared as
// the command declares it (--config aside: files are the loaders' harnesses). Parsing must end
// in a RunConfig or a UsageError / InvalidArgument / CLI11 error naming the problem, never a
// crash or a wrapped value; the typed accessors are exercised on the same arguments.
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/arguments.h"
#include "cli/run_config.h"
#include "core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> tokens = {"dplab-cli", "train"};
  std::string current;
  for (std::size_t k = 0; k < size && tokens.size() < 42; ++k) {
    if (data[k] == 0) {
      tokens.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[k]));
    }
  }
  if (tokens.size() < 42) tokens.push_back(current);
  std::vector<char*> argv;
  for (auto& token : tokens) argv.push_back(token.data());

  CLI::App cli("fuzz", "dplab-cli");
  cli.require_subcommand(1);
  CLI::App* cmd = cli.add_subcommand("train", "train");
  dplab::cli::Arguments args;
  for (const auto& flag : dplab::cli::run_config_flag_list())
    dplab::cli::add_value(*cmd, args, flag.name, flag.help, flag.value_name);
  dplab::cli::add_value(*cmd, args, "accountant", "rdp|pld", "A");
  dplab::cli::add_switch(*cmd, args, "quiet", "no progress");
  try {
    cli.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::Error&) {
    return 0;
  } catch (const dplab::cli::UsageError&) {
    return 0;
  }
  try {
    const dplab::cli::RunConfig config = dplab::cli::parse_run_config(args);
    (void)config.to_json();
  } catch (const dplab::cli::UsageError&) {
  } catch (const dplab::Error&) {
  }
  try {
    (void)args.seed_or("seed", 0);
    (void)args.int_or("hidden-units", 1);
    (void)args.integer_or("steps", 1);
    (void)args.number_or("lr", 0.1);
    if (auto v = args.text("lr")) (void)dplab::cli::parse_number_list("lr", *v);
    if (auto v = args.text("categorical")) (void)dplab::cli::comma_items("categorical", *v);
  } catch (const dplab::cli::UsageError&) {
  } catch (const dplab::InvalidArgument&) {  // the accessors' engine rules (core/settings.h)
  }
  return 0;
}
