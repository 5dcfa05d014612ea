// The flags of `dplab-cli label-canary` (declared here, read by label_canary_command.cpp).
#include <string>

#include "cli/command_flags.h"
#include "cli/run_config.h"

namespace dplab::cli {

CLI::App* add_label_canary_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd =
      add_command(cli, "label-canary",
                  "canary audit of a classifier run: mislabelled canaries, loss-rank chi-square");
  add_run_config_flags(*cmd, args);
  add_value(*cmd, args, "canaries",
            "mislabelled canaries m >= 10, drawn from the validation set (default " +
                std::to_string(kDefaultCanaries) + ")",
            "M");
  add_value(*cmd, args, "repeats",
            "comma-separated insertion counts n_c, 0 = never inserted (default " +
                std::string(kDefaultRepeats) + ")",
            "LIST");
  set_footer(*cmd,
             "The validation set must hold >= 4 m rows (canaries + never-inserted references).");
  add_examples(
      *cmd,
      {"dplab-cli label-canary --dataset adult --steps 300 --canaries 20 --out label-canary"});
  return cmd;
}

}  // namespace dplab::cli
