// `dplab-cli plot RELEASE --out FIG.png|pdf|svg`: the figure of a release folder (tune --out,
// train --out, history export), drawn from its released tables only, with its ε label as the
// subtitle (engine release/release_figure.h).
#include <cstdio>
#include <memory>

#include "cli/command_flags.h"
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
  auto args = std::make_shared<Arguments>();
  on_run(*add_plot_flags(cli, *args), [args] { return run_plot(*args); });
}

}  // namespace dplab::cli
