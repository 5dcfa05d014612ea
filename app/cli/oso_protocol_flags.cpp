// The flags of `dplab-cli oso-protocol` (declared here, read by oso_protocol_command.cpp).
#include "cli/command_flags.h"

namespace dplab::cli {

CLI::App* add_oso_protocol_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(
      cli, "oso-protocol", "the OSO paper's per-grid-budget tuning protocol (Figure 4 / Table 3)");
  add_value(*cmd, args, "preset", "protocol preset: a file, or a shipped preset's name (oso-*)",
            "FILE|NAME")
      .required();
  add_value(*cmd, args, "epsilons", "per-grid budgets, comma-separated (default: the preset's)",
            "E1,E2");
  add_value(*cmd, args, "granularities",
            "grid granularities k, comma-separated (default: the preset's)", "K1,K2");
  add_value(*cmd, args, "seeds", "seeds per configuration (default: the preset's)", "N");
  add_value(*cmd, args, "steps", "training steps per run (default: the preset's)", "T");
  add_value(*cmd, args, "train-subset", "use only the first N training rows (a scaled run)", "N");
  add_value(*cmd, args, "validation-subset",
            "score checkpoints on the first N validation rows only (a scaled run)", "N");
  add_value(*cmd, args, "lot-size", "expected lot size L (default: the preset's)", "L");
  add_value(*cmd, args, "eval-every", "checkpoint every N steps (default: the preset's)", "N");
  add_value(*cmd, args, "json-out", "also write the rows as JSON to this file", "FILE");
  add_value(*cmd, args, "threads",
            "worker threads; a grid's runs go side by side, one per thread (default: all cores)",
            "N");
  add_switch(*cmd, args, "quiet", "no progress on stderr");
  add_examples(*cmd,
               {"dplab-cli oso-protocol --preset resources/presets/oso-fashion-mnist-logistic.json "
                "--epsilons 1 --granularities 2 --seeds 1 --steps 20 --train-subset 2000 "
                "--validation-subset 500"});
  return cmd;
}

}  // namespace dplab::cli
