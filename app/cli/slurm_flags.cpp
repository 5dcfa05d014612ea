// The flags of `dplab-cli slurm` and `dplab-cli slurm-status` (read by slurm_command.cpp).
#include <string>
#include <vector>

#include "cli/accountant_flag.h"
#include "cli/command_flags.h"
#include "cli/release_flags.h"
#include "cli/run_config.h"

namespace dplab::cli {

CLI::App* add_slurm_flags(CLI::App& cli, Arguments& args, std::vector<std::string>& sbatch_args) {
  CLI::App* cmd = add_command(
      cli, "slurm", "plan a search and write (or --submit) a Slurm job array that runs its shards");
  add_positional(*cmd, args, "experiment",
                 "experiment file, or a shipped preset's name (e.g. quick-demo)")
      .type_name("EXPERIMENT.json");
  add_value(*cmd, args, "out",
            "the plan folder to write (tune --plan DIR), on a file system "
            "the compute nodes share",
            "DIR")
      .required();
  add_value(*cmd, args, "shards",
            "array tasks N (default " + std::to_string(kDefaultShards) +
                ", or the job count when smaller; a private release: " +
                std::to_string(kDefaultShards) + ")",
            "N");
  add_value(*cmd, args, "max-running", "at most M tasks at once (--array=...%M)", "M");
  add_value(*cmd, args, "partition", "Slurm partition", "P");
  add_value(*cmd, args, "time",
            "time limit of one task, in Slurm's formats: minutes, MM:SS, HH:MM:SS, D-HH, "
            "D-HH:MM, D-HH:MM:SS, or INFINITE",
            "TIME");
  add_value(*cmd, args, "cpus-per-task",
            "cores per task; run-jobs uses them all (default " +
                std::to_string(kDefaultCpusPerTask) + ")",
            "C");
  add_value(*cmd, args, "mem", "memory per task in MB", "MB");
  add_value(*cmd, args, "account", "Slurm account to charge", "A");
  add_repeatable(*cmd, sbatch_args, "sbatch-arg",
                 "one more #SBATCH line, repeatable: --sbatch-arg=--qos=short", "ARG");
  add_switch(*cmd, args, "submit", "submit the array with sbatch and record its job id");
  add_release_flags(*cmd, args);
  add_csv_reading_flags(*cmd, args);
  add_value(*cmd, args, "accountant", "rdp or pld (as tune)", "rdp|pld");
  add_value(*cmd, args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  set_footer(*cmd,
             "Writes DIR/plan.json (curator only), DIR/dplab.sbatch, DIR/slurm.json (shards, job "
             "ids) and, as tasks run, DIR/stores/shard-I.sqlite and DIR/logs/shard-I.out.");
  add_examples(*cmd,
               {"dplab-cli slurm resources/presets/quick-demo.json --out slurm-plan --shards 4"});
  return cmd;
}

CLI::App* add_slurm_status_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(
      cli, "slurm-status", "per shard of a plan folder: jobs done, failed, missing; squeue's view");
  add_positional(*cmd, args, "dir", "the plan folder (dplab-cli slurm --out DIR)").type_name("DIR");
  add_value(*cmd, args, "shards", "the shard count (default: DIR/slurm.json's)", "N");
  add_switch(*cmd, args, "resubmit-missing",
             "submit DIR/dplab.sbatch again for the shards with missing jobs only");
  add_examples(*cmd, {"dplab-cli slurm-status slurm-plan"});
  return cmd;
}

cluster::SlurmOptions slurm_options_from(const Arguments& args,
                                         const std::vector<std::string>& sbatch_args) {
  cluster::SlurmOptions o;
  o.max_running = args.int_or("max-running", 0);
  if (args.has("max-running") && o.max_running < 1) throw UsageError("--max-running must be >= 1");
  o.partition = args.text_or("partition", "");
  o.time = args.text_or("time", "");
  o.cpus_per_task = args.int_or("cpus-per-task", kDefaultCpusPerTask);
  o.mem_mb = args.integer_or("mem", 0);
  if (args.has("mem") && o.mem_mb < 1) throw UsageError("--mem must be >= 1 (MB)");
  o.account = args.text_or("account", "");
  o.extra = sbatch_args;
  return o;
}

}  // namespace dplab::cli
