// dplab-cli: headless entry point. Usage errors exit with 2, run-time errors with 1.
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/error.h"

namespace dplab::cli {
namespace {

std::function<int()>& selected_run() {
  static std::function<int()> run;
  return run;
}

void add_commands(CLI::App& cli) {
  add_train_command(cli);
  add_tune_command(cli);
  add_account_command(cli);
  add_calibrate_command(cli);
  add_bench_command(cli);
  add_sparse_train_command(cli);
  add_canary_command(cli);
  add_label_canary_command(cli);
  add_audit_command(cli);
  add_oso_protocol_command(cli);
  add_objpert_command(cli);
  add_history_command(cli);
  add_reproduce_command(cli);
}

// "dplab-cli train" (or "dplab-cli history show") for messages: the selected command path.
std::string who(const CLI::App& cli) {
  std::string name = "dplab-cli";
  for (const CLI::App* app = &cli; !app->get_subcommands().empty();) {
    app = app->get_subcommands().front();
    name += " " + app->get_name();
  }
  return name;
}

}  // namespace

void on_run(CLI::App& command, std::function<int()> run) {
  command.callback([run = std::move(run)] { selected_run() = run; });
}

}  // namespace dplab::cli

int main(int argc, char** argv) {
  using namespace dplab;
  CLI::App cli(
      "dplab-cli: differentially private training, honest hyperparameter search and "
      "privacy accounting, headless.",
      "dplab-cli");
  cli.set_version_flag("--version", "dplab-cli " DPLAB_VERSION);
  cli.require_subcommand(1);
  cli.footer(
      "Run 'dplab-cli <command> --help' for the flags of a command.\n"
      "Exit status: 0 ok, 1 run-time error, 2 bad usage (the message names the flag), "
      "130 cancelled (Ctrl-C).");
  cli.get_formatter()->column_width(30);
  cli::add_commands(cli);

  try {
    cli.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return cli.exit(e);  // --help, --version: printed on stdout, status 0
  } catch (const CLI::ParseError& e) {
    // CLI11 checks required flags before unknown ones; a typo is the better thing to report.
    const std::vector<std::string> extra = cli.remaining(true);
    if (!extra.empty() && cli.get_subcommands().empty()) {
      std::cerr << "dplab-cli: unknown command '" << extra.front() << "'\n";
    } else if (!extra.empty()) {
      std::cerr << cli::who(cli) << ": unexpected argument '" << extra.front() << "'\n";
    } else {
      std::cerr << cli::who(cli) << ": " << e.what() << "\n";
    }
    if (argc < 2)
      std::cerr << cli.help();
    else
      std::cerr << "Run with --help for the flags.\n";
    return 2;
  } catch (const cli::UsageError& e) {
    std::cerr << cli::who(cli) << ": " << e.what() << "\n";
    return 2;
  }
  const std::string command = cli::who(cli);
  try {
    return cli::selected_run()();
  } catch (const cli::UsageError& e) {
    std::cerr << command << ": " << e.what() << "\n";
    return 2;
  } catch (const InvalidArgument& e) {
    std::cerr << command << ": " << e.what() << "\n";
    return 2;
  } catch (const Cancelled&) {
    std::cerr << command << ": cancelled\n";
    return 130;
  } catch (const Error& e) {
    std::cerr << command << ": error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << command << ": internal error: " << e.what() << "\n";
    return 1;
  }
}
