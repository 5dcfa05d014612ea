// The flags of `dplab-cli plot` (declared here, read by plot_command.cpp).
#include "cli/command_flags.h"

namespace dplab::cli {

CLI::App* add_plot_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(cli, "plot",
                              "draw a release folder's curves as a figure (PNG, PDF or SVG) with "
                              "its epsilon label");
  add_positional(*cmd, args, "release",
                 "a release folder (release.json: tune --out, train --out, history export)")
      .type_name("DIR");
  add_value(*cmd, args, "out", "the figure to write: FILE.png, FILE.pdf or FILE.svg", "FILE")
      .required();
  add_value(*cmd, args, "width",
            "figure width in points (default 504 = 7 in; 252 = a 3.5 in single column)", "PT");
  set_footer(*cmd,
             "Draws a private search's released winners (winners.csv), an explore search's best "
             "and median per optimizer (aggregate_curves.csv) or a train run's curve (curve.csv); "
             "nothing the release does not hold.");
  add_examples(*cmd, {"dplab-cli plot demo-private --out demo-private/winner.pdf",
                      "dplab-cli plot runs/adult --out adult-curve.png --width 252"});
  return cmd;
}

}  // namespace dplab::cli
