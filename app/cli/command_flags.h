// The flags of every dplab-cli command, declared apart from what the command does: each
// add_<name>_flags (app/cli/<name>_flags.cpp) adds the subcommand <name> to `parent` with its
// flags, bound to `args`, and returns it; the command's add_<name>_command (commands.h) binds its
// run function to it. So the whole command line can be parsed without the code that trains
// (tests/fuzz/fuzz_cli_commands.cpp parses every command's flags, and reads them with the
// commands' own flag readers, without linking the commands).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cluster/slurm_script.h"

namespace dplab::cli {

// Defaults the commands apply and their help texts name (the rest are the engine's).
inline constexpr int kDefaultShards = 8;  // slurm
inline constexpr int kDefaultCpusPerTask = 1;
inline constexpr const char* kDefaultScale = "quick";  // reproduce
inline constexpr const char* kDefaultData = "all";
inline constexpr int kDefaultCanaries = 50;  // label-canary
inline constexpr const char* kDefaultRepeats = "3,9,15";
inline constexpr const char* kAllMethods = "nonprivate,dpsgd,em,svt,random";  // sparse-train
inline constexpr double kDefaultSeconds = 1.0;  // bench: measuring time per variant
inline constexpr double kDefaultLotSize = 250;
// bench: threads of the batch-parallel rows (logistic, TLNN, conv models; issue #49); the rest is
// one thread.
inline constexpr int kDefaultConvThreads = 2;
// objpert: the flags the engine's settings do not carry (--bounds; the one run's split).
inline constexpr double kBoundsGradientBound = 1.0;  // --clip in bounds mode
inline constexpr double kBoundsSmoothness = 1.0;
inline constexpr int kBoundsPoints = 50;
inline constexpr double kDefaultTestFraction = 0.2;
inline constexpr std::uint64_t kDefaultSplitSeed = 0;

CLI::App* add_train_flags(CLI::App& parent, Arguments& args);
CLI::App* add_tune_flags(CLI::App& parent, Arguments& args);
CLI::App* add_account_flags(CLI::App& parent, Arguments& args);
CLI::App* add_calibrate_flags(CLI::App& parent, Arguments& args);
CLI::App* add_bench_flags(CLI::App& parent, Arguments& args);
CLI::App* add_sparse_train_flags(CLI::App& parent, Arguments& args);
CLI::App* add_canary_flags(CLI::App& parent, Arguments& args);
CLI::App* add_label_canary_flags(CLI::App& parent, Arguments& args);
CLI::App* add_audit_flags(CLI::App& parent, Arguments& args);
CLI::App* add_predict_flags(CLI::App& parent, Arguments& args);
CLI::App* add_plot_flags(CLI::App& parent, Arguments& args);
CLI::App* add_leaderboard_flags(CLI::App& parent, Arguments& args);
CLI::App* add_oso_protocol_flags(CLI::App& parent, Arguments& args);
CLI::App* add_objpert_flags(CLI::App& parent, Arguments& args);
CLI::App* add_reproduce_flags(CLI::App& parent, Arguments& args);
CLI::App* add_run_jobs_flags(CLI::App& parent, Arguments& args);
CLI::App* add_slurm_flags(CLI::App& parent, Arguments& args, std::vector<std::string>& sbatch_args);
CLI::App* add_slurm_status_flags(CLI::App& parent, Arguments& args);
// `slurm`'s sbatch settings from its flags (--max-running, --partition, --time, --cpus-per-task,
// --mem, --account, --sbatch-arg); UsageError naming the flag. The script's paths (cli_path,
// plan_dir) are the caller's to fill, and cluster::check_slurm_options checks the whole.
cluster::SlurmOptions slurm_options_from(const Arguments& args,
                                         const std::vector<std::string>& sbatch_args);
// `history` and its list / show / export (`name`); `merge` is add_history_merge_flags.
CLI::App* add_history_group(CLI::App& parent);
CLI::App* add_history_query_flags(CLI::App& history, const std::string& name, Arguments& args);
CLI::App* add_history_merge_flags(CLI::App& history, Arguments& args);

}  // namespace dplab::cli
