// The flags of `dplab-cli train` (declared here, read by train_command.cpp).
#include "cli/accountant_flag.h"
#include "cli/command_flags.h"
#include "cli/run_config.h"
#include "training/trainer.h"

namespace dplab::cli {

CLI::App* add_train_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(
      cli, "train",
      "train one model with a DP optimizer, write curve.csv, release.json and summary.json");
  add_run_config_flags(*cmd, args);
  add_value(*cmd, args, "accountant",
            accountant_help("the accountant of the epsilon column and of the summary"), "rdp|pld");
  add_value(*cmd, args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  add_value(*cmd, args, "threads",
            "split each lot's per-example work over T threads (1.." +
                std::to_string(training::kMaxLotThreads) +
                "); every T gives the same model bit for bit (a partition fixed by the lot's "
                "size); without it, the one-thread path of tune's jobs (equal to rounding)",
            "T");
  add_switch(*cmd, args, "secure",
             "secure noise: lots and Gaussian noise from the operating system's entropy "
             "(getrandom, ChaCha20, discrete Gaussian on an integer grid), as tune --secure; no "
             "seed is used or written, two runs differ (private optimizers only)");
  set_footer(
      *cmd,
      "Exit status: 0 ok; 1 run-time error (unreadable data, an output that cannot be written, a "
      "diverged run); 2 bad usage; 130 Ctrl-C, 143 SIGTERM, 138 SIGUSR1 (curve.csv and "
      "summary.json keep the steps taken, status \"cancelled\").");
  add_examples(*cmd, {"dplab-cli train --dataset adult --steps 300 --out runs/adult",
                      "dplab-cli train --dataset my-data.csv --label-column income --lot-size 50 "
                      "--steps 300 --out runs/mine"});
  return cmd;
}

}  // namespace dplab::cli
