// The flags of `dplab-cli leaderboard` (declared here, read by leaderboard_command.cpp).
#include "cli/command_flags.h"

namespace dplab::cli {

CLI::App* add_leaderboard_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(
      cli, "leaderboard",
      "test accuracy of every honest tuning procedure x optimizer family at total epsilon 1, 3 "
      "and 8 (search included), over five seeds");
  add_value(*cmd, args, "scale",
            "tiny (CI, ~a minute: 1,500-row subsamples, T = 20), small (8,000-row subsamples of "
            "Adult and Fashion-MNIST, T = 300), small-cnn (the CNN on small's Fashion-MNIST "
            "subsample and shape) or paper (full data, T = 1000, and the CNN) (default tiny)",
            "tiny|small|small-cnn|paper");
  add_value(*cmd, args, "out",
            "folder for leaderboard.csv and the figures (default "
            "leaderboard-SCALE)",
            "DIR");
  add_value(*cmd, args, "threads", "worker threads (default: all cores)", "N");
  set_footer(*cmd,
             "Each procedure's noise is calibrated so that its whole epsilon (search and release) "
             "meets the target; the released model is scored on a test split the search never "
             "sees. Methods: ma, lt, ps, subsampled (Koskela-Kulkarni), linear-scaling (Panda et "
             "al.).");
  add_examples(*cmd,
               {"dplab-cli leaderboard --scale tiny --out /tmp/leaderboard-tiny   # long: a minute",
                "dplab-cli leaderboard --scale small --threads 2 --out docs/gallery/leaderboard   "
                "# long: an hour"});
  return cmd;
}

}  // namespace dplab::cli
