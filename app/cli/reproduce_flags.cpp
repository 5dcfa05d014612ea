// The flags of `dplab-cli reproduce` (declared here, read by reproduce_command.cpp).
#include <string>

#include "cli/command_flags.h"

namespace dplab::cli {

CLI::App* add_reproduce_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(
      cli, "reproduce",
      "run the main paper's figures and tables from their presets; write figures, CSVs and "
      "REPORT.md");
  add_positional(*cmd, args, "item",
                 "figure2, figure3, figure4 (with Table 1 and appendix Figure 6), figure8 and "
                 "figure9 (appendix: Figure 4 at sigma = 2, 8), section5.2, figure5, kk23 "
                 "(Koskela & Kulkarni 2023 vs Papernot-Steinke), followups (DPAdamWOSM vs "
                 "DP-AdamBC, automatic clipping vs the C grid, sigma = 2, 4, 8), or all");
  add_value(*cmd, args, "out", "folder for REPORT.md and one subfolder per item and data set",
            "DIR")
      .required();
  add_value(*cmd, args, "scale",
            "quick (T/20, 1 repeat, grids thinned to 4 values; minutes on 2 cores), paper (the "
            "presets as they are) or tiny (tests) (default " +
                std::string(kDefaultScale) + ")",
            "quick|paper|tiny");
  add_value(*cmd, args, "data",
            "adult, fashion-mnist or all (default " + std::string(kDefaultData) + ")", "NAME");
  add_value(*cmd, args, "sigma",
            "only the versions at this sigma, for items with one version per sigma (followups: 2, "
            "4, 8; default: all)",
            "X");
  add_value(*cmd, args, "threads", "worker threads (default: all cores)", "N");
  add_value(*cmd, args, "presets",
            "folder with the paper-*.json presets (default: the installed or source presets)",
            "DIR");
  set_footer(*cmd,
             "Exit status: 0 ok; 1 an item failed (REPORT.md says which); 2 bad usage; 130 Ctrl-C, "
             "143 SIGTERM, 138 SIGUSR1 (finished items and REPORT.md are kept).");
  add_examples(*cmd,
               {"dplab-cli reproduce figure2 --scale tiny --out reproduction",
                "dplab-cli reproduce all --scale paper --threads 2 --out paper   # long: hours"});
  return cmd;
}

}  // namespace dplab::cli
