// `dplab-cli leaderboard --scale tiny|small|paper --out DIR`: every honest procedure x optimizer
// family at total epsilon 1, 3, 8, over five seeds (engine reproduction/leaderboard.h); writes
// leaderboard.csv and one figure per task (PNG and SVG), and prints the best cell per task and
// epsilon by the rule stated before the run.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/figure_file.h"
#include "cli/output_files.h"
#include "cli/progress_line.h"
#include "core/atomic_file.h"
#include "core/csv_table.h"
#include "core/error.h"
#include "reproduction/leaderboard.h"
#include "reproduction/number_text.h"
#include "reproduction/rule_files.h"

namespace dplab::cli {
namespace {

int run_leaderboard_command(const Arguments& args) {
  const std::string scale = args.text_or("scale", "tiny");
  const std::string out = args.text_or("out", "leaderboard-" + scale);
  reproduction::LeaderboardSpec spec;
  try {
    spec = reproduction::leaderboard_spec(scale);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--scale: ") + e.what());
  }
  require_writable_folder(out, "--out");
  std::printf("rule for best (stated before the run): %s\n(rule file %s, SHA-256 %s)\n",
              reproduction::rule_text("leaderboard").c_str(),
              reproduction::rule_path("leaderboard").c_str(),
              reproduction::rule_sha256("leaderboard").c_str());
  ProgressLine progress("leaderboard", "procedures");
  reproduction::LeaderboardOptions options;
  options.threads = args.threads();
  options.on_progress = [&](const reproduction::LeaderboardProgress& p) {
    progress.update(static_cast<double>(p.done), static_cast<double>(p.total), p.current);
  };
  const auto cells = reproduction::run_leaderboard(spec, options);
  progress.finish();
  std::filesystem::create_directories(out);
  const std::filesystem::path csv = std::filesystem::path(out) / "leaderboard.csv";
  csv::write_csv_file(csv.string(), reproduction::leaderboard_table(cells));
  for (const auto& task : spec.tasks) {
    const figures::Plot plot = reproduction::leaderboard_plot(cells, task.label, scale);
    for (const char* ext : {".png", ".svg"})
      write_figure(plot, std::filesystem::path(out) / ("leaderboard-" + task.label + ext));
  }
  for (const auto& c : cells) {
    if (!c.best) continue;
    std::printf(
        "best: %s at total eps %s: %s %s, test accuracy %s [%s, %s] over %d seeds "
        "(sigma %s, %s full-data runs)\n",
        c.task.c_str(), reproduction::general(c.target_epsilon).c_str(), c.method.c_str(),
        c.family.c_str(), reproduction::fixed(c.mean_accuracy, 4).c_str(),
        reproduction::fixed(c.ci_low, 4).c_str(), reproduction::fixed(c.ci_high, 4).c_str(),
        c.seeds_released, reproduction::general(c.noise_multiplier).c_str(),
        reproduction::fixed(c.compute, 1).c_str());
  }
  std::printf(
      "wrote %s and the figures in %s (the curator's evaluation of many procedures on the "
      "same data: no epsilon covers this table)\n",
      csv.string().c_str(), out.c_str());
  return 0;
}

}  // namespace

void add_leaderboard_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_leaderboard_flags(cli, *args), [args] { return run_leaderboard_command(*args); });
}

}  // namespace dplab::cli
