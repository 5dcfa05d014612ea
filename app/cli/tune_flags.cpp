// The flags of `dplab-cli tune` (declared here, read by tune_command.cpp).
#include "cli/accountant_flag.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/release_flags.h"
#include "cli/run_config.h"
#include "cli/tune_dataset.h"
#include "core/validate.h"

namespace dplab::cli {

CLI::App* add_tune_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd =
      add_command(cli, "tune", "run an honest hyperparameter search from an experiment file");
  add_value(*cmd, args, "config",
            "experiment file, or a shipped preset's name (e.g. quick-demo); not with --resume",
            "EXPERIMENT.json");
  add_value(
      *cmd, args, "resume",
      "finish an interrupted or cancelled run of --db: only its missing jobs run, with the same "
      "seeds, so the result equals an uninterrupted run",
      "RUN_ID");
  add_value(*cmd, args, "plan",
            "write the search as files into DIR without training (plan.json: the jobs with their "
            "seeds and, for --release private, the draws; curator only) for run-jobs and "
            "history merge",
            "DIR");
  add_value(*cmd, args, "threads", "worker threads (default: all cores)", "N");
  add_value(
      *cmd, args, "save-models",
      "explore: also write trained models (model.npz, model.json, model.onnx): none (default), "
      "best (the best-scoring run's, in DIR/model/) or all (DIR/models/candidate-C-repeat-R/); "
      "a private release always writes its winner's model",
      "none|best|all");
  add_max_memory_flag(*cmd, args);
  add_csv_reading_flags(*cmd, args);  // over the experiment file's dataset section
  add_value(*cmd, args, "db", "SQLite run history to append this run to (created if missing)",
            "FILE");
  add_value(*cmd, args, "db-retry",
            "seconds to keep retrying finished jobs --db could not take (locked, full; default " +
                format_number(kDefaultDbRetrySeconds) + ")",
            "S");
  add_value(*cmd, args, "out",
            "folder for curves.csv, aggregate_curves.csv, alpha_clip_grid.csv, summary.json "
            "(default: <experiment name>-results)",
            "DIR");
  add_tune_dataset_flags(*cmd, args);
  add_release_flags(*cmd, args);
  add_value(*cmd, args, "accountant",
            accountant_help("epsilon of the single run and of MA and of LT's base run"), "rdp|pld");
  add_value(*cmd, args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  add_switch(*cmd, args, "show-curator",
             "private lt / ps: also print on stderr what only the curator may see (the number of "
             "runs K drawn, the progress in jobs, curator-only.json); without it nothing printed "
             "reveals K");
  set_footer(
      *cmd,
      "Exit status: 0 ok; 1 a job failed (the first reason on stderr), a finished job could not be "
      "stored in --db, or another run-time error; 2 bad usage; 130 Ctrl-C, 143 SIGTERM, 138 "
      "SIGUSR1 (finished jobs are kept; continue with --resume). Diverged candidates are reported, "
      "not an error.");
  add_examples(
      *cmd,
      {"dplab-cli tune --config resources/presets/quick-demo.json --out demo --db runs.sqlite",
       "dplab-cli tune --config resources/presets/quick-demo.json --release private --strategy lt "
       "--out demo-private"});
  return cmd;
}

}  // namespace dplab::cli
