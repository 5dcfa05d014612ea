// The flags of `dplab-cli canary` (declared here, read by canary_command.cpp).
#include <string>

#include "cli/command_flags.h"
#include "cli/sparse_options.h"

namespace dplab::cli {

CLI::App* add_canary_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd =
      add_command(cli, "canary",
                  "word2vec canary memorisation audit (rank histograms, chi-square), Table 2 CSV");
  // The defaults are the preset's (experiment::SparsePreset), which run_canary keeps.
  const experiment::SparsePreset defaults = experiment::sparse_paper_preset("");
  std::string repeats;
  for (int n : defaults.canary_repeats) repeats += (repeats.empty() ? "" : ",") + std::to_string(n);
  add_value(*cmd, args, "canaries",
            "number of canaries m >= 10 (default " + std::to_string(defaults.canaries) +
                "; the paper 1,000)",
            "M");
  add_value(*cmd, args, "repeats", "comma-separated insertion counts n_c (default " + repeats + ")",
            "LIST");
  add_value(*cmd, args, "sigma",
            "noise multiplier of DP-SGD and em instead of the calibrated one (> 0, at most 100; "
            "e.g. the paper's 0.5): the runs then do not have the budget's epsilon",
            "S");
  add_sparse_preset_flags(*cmd, args);
  set_footer(*cmd, kSparsePresetFooter);
  add_examples(*cmd, {"dplab-cli canary --canaries 10 --repeats 3 --epochs 1 --train-tokens 1000 "
                      "--vocabulary 200 --dim 20 --eval-examples 500 --out table2"});
  return cmd;
}

}  // namespace dplab::cli
