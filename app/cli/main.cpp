// dplab-cli: headless entry point. Usage errors exit with 2, run-time errors with 1, and so does
// output that never reached stdout (a full disk, /dev/full): the exit status tells the truth.
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/message_text.h"

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
  add_predict_command(cli);
  add_plot_command(cli);
  add_leaderboard_command(cli);
  add_oso_protocol_command(cli);
  add_objpert_command(cli);
  add_history_command(cli);
  add_reproduce_command(cli);
  add_run_jobs_command(cli);
  add_slurm_commands(cli);
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

// Runs the parsed command; its errors become the exit status (see the file comment).
int run_selected(const std::string& command) {
  try {
    return selected_run()();
  } catch (const UsageError& e) {
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

// Flushes stdout and checks that everything written to it arrived: the one place every command's
// printed output is checked. A write error turns status 0 into 1, with the system's reason.
int checked_stdout(const std::string& command, int status) {
  errno = 0;
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout;
  if (!failed) return status;
  const int error = errno;
  std::cerr << command << ": error: cannot write to standard output: "
            << (error != 0 ? os_error_text(error) : std::string("write error")) << "\n";
  return status == 0 ? 1 : status;
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
      "Exit status: 0 ok, 1 run-time error (also: an output file or stdout could not be "
      "written), 2 bad usage (the message names the flag), 130 cancelled (Ctrl-C), 143 "
      "terminated (SIGTERM), 138 stopped by SIGUSR1 (Slurm's warning before a time limit).");
  cli.get_formatter()->column_width(30);
  cli::add_commands(cli);

  try {
    cli.parse(argc, argv);
  } catch (const CLI::Success& e) {
    // --help, --version: printed on stdout, status 0
    return cli::checked_stdout("dplab-cli", cli.exit(e));
  } catch (const CLI::ParseError& e) {
    // CLI11 checks required flags before unknown ones; a typo is the better thing to report.
    const std::vector<std::string> extra = cli.remaining(true);
    if (!extra.empty() && cli.get_subcommands().empty()) {
      std::cerr << "dplab-cli: unknown command '" << cut_for_message(extra.front()) << "'\n";
    } else if (!extra.empty()) {
      std::cerr << cli::who(cli) << ": unexpected argument '" << cut_for_message(extra.front())
                << "'\n";
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
  return cli::checked_stdout(command, cli::run_selected(command));
}