// The flags of `dplab-cli run-jobs` and `dplab-cli history merge` (read by cluster_command.cpp).
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/run_config.h"
#include "core/validate.h"

namespace dplab::cli {

CLI::App* add_run_jobs_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(
      cli, "run-jobs", "run one shard of a search planned with tune --plan (a Slurm array task)");
  add_positional(*cmd, args, "dir", "the plan folder (tune --plan DIR)").type_name("DIR");
  add_value(*cmd, args, "shard", "this shard's index I, 0 <= I < N", "I").required();
  add_value(*cmd, args, "shards",
            "the number of shards N: job j of plan.json runs in shard j mod N", "N")
      .required();
  add_value(*cmd, args, "threads", "worker threads (default: all cores)", "T");
  add_value(*cmd, args, "db-retry",
            "seconds to keep retrying jobs the shard store could not take (default " +
                format_number(kDefaultDbRetrySeconds) + ")",
            "S");
  add_max_memory_flag(*cmd, args);
  set_footer(
      *cmd,
      "Writes DIR/stores/shard-I.sqlite (one writer per file). Run again, it runs only the jobs "
      "that file does not hold yet. SIGTERM or SIGUSR1 (Slurm, before a time limit or a "
      "preemption) stop the jobs in flight at their next step without storing them. Exit "
      "status: 0 ok; 1 a job failed or could not be stored; 2 bad usage; 130 Ctrl-C, 143 "
      "SIGTERM, 138 SIGUSR1 (run the shard again to finish it).");
  add_examples(*cmd, {"dplab-cli tune --config resources/presets/quick-demo.json --plan plan",
                      "dplab-cli run-jobs plan --shard 0 --shards 1"});
  return cmd;
}

CLI::App* add_history_merge_flags(CLI::App& history, Arguments& args) {
  CLI::App* cmd = add_command(
      history, "merge",
      "fold the shard stores of a plan folder into one run of --db and write tune's outputs");
  add_positional(*cmd, args, "dir", "the plan folder (tune --plan DIR)").type_name("DIR");
  add_value(*cmd, args, "db", "the SQLite run history to add the merged run to", "FILE").required();
  add_value(*cmd, args, "out",
            "folder for the outputs tune --out writes (default: DIR/results; private release: "
            "with curator-only.json)",
            "OUTDIR");
  set_footer(
      *cmd,
      "Refuses (exit 1, naming the job or file) a missing job, a job stored twice, a store of "
      "another plan or a second store of one shard. Exit status otherwise as tune's.");
  add_examples(*cmd,
               {"dplab-cli history merge plan --db merged.sqlite   # plan: run-jobs' example"});
  return cmd;
}

}  // namespace dplab::cli
