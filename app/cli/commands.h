// The dplab-cli commands. Parsing, --help, --version and unknown-flag errors come from CLI11;
// exit status 0 ok, 1 failure at run time, 2 bad usage (the message names the flag), 130 cancelled.
//
// How to add a flag to an existing command (one line in that command's add_<name>_flags(), in
// app/cli/<name>_flags.cpp):
//     add_value(*cmd, args, "my-flag", "what it is, its unit, its default (default 1)", "X");
//   or add_switch(*cmd, args, "my-switch", "...") for a flag without value. Read it in the
//   command's run function with args.text / number_or / required_number / integer_or / seed_or
//   (they throw UsageError naming the flag) and validate with core/validate.h helpers, giving
//   the flag name ("--my-flag") as the field so the message names it.
//
// How to add a command: its flags in a new app/cli/<name>_flags.cpp (globbed; no CMake edit;
// declared in cli/command_flags.h, and added to tests/fuzz/fuzz_cli_flags.cpp's command list)
//     CLI::App* add_<name>_flags(CLI::App& cli, Arguments& args) {
//       CLI::App* cmd = add_command(cli, "<name>", "one line for 'dplab-cli --help'");
//       add_value(*cmd, args, ...);              // its flags
//       return cmd;
//     }
//   and what it does in app/cli/<name>_command.cpp with
//     void add_<name>_command(CLI::App& cli) {
//       auto args = std::make_shared<Arguments>();
//       on_run(*add_<name>_flags(cli, *args), [args] { return run_<name>(*args); });
//     }
//   then declare add_<name>_command below and call it in add_commands() (main.cpp). The flags stay
//   apart from the run code so the whole command line can be fuzzed without the code that trains.
#pragma once

#include <functional>

#include "cli/arguments.h"

namespace dplab::cli {

// The usage error of `--db ''` (tune, history): SQLite would open an empty file name as a
// temporary database deleted when closed, so every run "stored" there would be lost.
inline constexpr const char* kEmptyDb =
    "--db: the file name is empty (SQLite would use a temporary database that is deleted when "
    "closed: nothing would be kept)";

// --db-retry's default (tune, run-jobs): seconds to keep retrying a store that could not take a
// finished job.
inline constexpr double kDefaultDbRetrySeconds = 60;

// Makes `run` the action of subcommand `command`: main() calls it after a successful parse
// and exits with the status it returns.
void on_run(CLI::App& command, std::function<int()> run);

void add_train_command(CLI::App& cli);
void add_tune_command(CLI::App& cli);
void add_account_command(CLI::App& cli);
void add_calibrate_command(CLI::App& cli);
void add_bench_command(CLI::App& cli);
void add_sparse_train_command(CLI::App& cli);
void add_canary_command(CLI::App& cli);
void add_label_canary_command(CLI::App& cli);
void add_oso_protocol_command(CLI::App& cli);
void add_objpert_command(CLI::App& cli);
void add_history_command(CLI::App& cli);
void add_reproduce_command(CLI::App& cli);
void add_audit_command(CLI::App& cli);
void add_predict_command(CLI::App& cli);
void add_plot_command(CLI::App& cli);
void add_leaderboard_command(CLI::App& cli);
// Running a search on a cluster (cluster_command.cpp, slurm_command.cpp).
void add_run_jobs_command(CLI::App& cli);
void add_history_merge_command(CLI::App& history);  // `history merge`
void add_slurm_commands(CLI::App& cli);             // `slurm`, `slurm-status`

}  // namespace dplab::cli
