// The flags of `dplab-cli sparse-train` (declared here, read by sparse_train_command.cpp).
#include <string>

#include "cli/command_flags.h"
#include "cli/sparse_options.h"

namespace dplab::cli {

CLI::App* add_sparse_train_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd =
      add_command(cli, "sparse-train",
                  "word2vec: DP-SGD vs sparse DP (EM / SVT / random selection), Figure 1 CSV");
  add_value(*cmd, args, "methods",
            "comma-separated of " + std::string(kAllMethods) +
                " (default: all of them), or oracle: exact top-k selection without noise, not "
                "private, the bound on what any selection and noise can learn at these settings",
            "LIST");
  add_sparse_preset_flags(*cmd, args);
  add_value(*cmd, args, "sparse-sigma",
            "noise multiplier of the sparse methods (em, svt, random) instead of Theorem 3's "
            "calibrated one, >= 0 (0: no noise, to part the selection's cost from the noise's); "
            "their epsilon is then not the budget's",
            "S");
  set_footer(*cmd, kSparsePresetFooter);
  add_examples(*cmd, {"dplab-cli sparse-train --methods dpsgd,em --epochs 1 --train-tokens 1000 "
                      "--vocabulary 200 --dim 20 --eval-examples 500 --out figure1"});
  return cmd;
}

}  // namespace dplab::cli
