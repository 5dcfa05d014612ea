// `dplab-cli plot RELEASE --out FIG.png|pdf|svg`: the figure of a release folder (tune --out,
// train --out, history export), drawn from its released tables only, with its ε label as the
// subtitle (engine release/release_figure.h).
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "cli/figure_file.h"
#include "cli/output_files.h"
#include "release/release_figure.h"
#include "release/release_folder.h"

namespace dplab::cli {
namespace {

int run_plot(const Arguments& args) {
  const std::string folder = *args.text("release");
  const std::string out = *args.text("out");
  if (!is_figure_file_name(out))
    throw UsageError("--out '" + out + "': expected a file name ending in .png, .pdf or .svg");
  double width = 0;
  if (args.has("width")) {
    width = args.required_number("width");
    if (!(width >= 144 && width <= 2000))
      throw UsageError("--width: expected 144..2000 points, got " + *args.text("width"));
  }
  require_output_file(out, "--out");  // before the release is read
  figures::Plot plot = release::release_plot(release::read_release_folder(folder));
  if (width > 0) {
    plot.height *= width / plot.width;
    plot.width = width;
  }
  write_figure(plot, out);
  std::fprintf(stderr, "dplab-cli plot: %s -> %s (%s)\n", folder.c_str(), out.c_str(),
               plot.subtitle.c_str());
  return 0;
}

}  // namespace

void add_plot_command(CLI::App& cli) {
  CLI::App* cmd = add_command(cli, "plot",
                              "draw a release folder's curves as a figure (PNG, PDF or SVG) with "
                              "its epsilon label");
  auto args = std::make_shared<Arguments>();
  add_positional(*cmd, *args, "release",
                 "a release folder (release.json: tune --out, train --out, history export)")
      .type_name("DIR");
  add_value(*cmd, *args, "out", "the figure to write: FILE.png, FILE.pdf or FILE.svg", "FILE")
      .required();
  add_value(*cmd, *args, "width",
            "figure width in points (default 504 = 7 in; 252 = a 3.5 in single column)", "PT");
  set_footer(*cmd,
             "Draws a private search's released winners (winners.csv), an explore search's best "
             "and median per optimizer (aggregate_curves.csv) or a train run's curve (curve.csv); "
             "nothing the release does not hold.");
  add_examples(*cmd, {"dplab-cli plot demo-private --out demo-private/winner.pdf",
                      "dplab-cli plot runs/adult --out adult-curve.png --width 252"});
  on_run(*cmd, [args] { return run_plot(*args); });
}

}  // namespace dplab::cli
