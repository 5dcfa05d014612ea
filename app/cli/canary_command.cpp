// dplab-cli canary: the sparse-DP reproduction's Figure 2 / Table 2 (Zhang, Mironov & Hejazinia
// section 6.5): m random three-word canaries inserted n_c times, word2vec trained non-privately,
// with DP-SGD and with sparse DP (exponential mechanism), each canary's rank among all
// alternatives, rank histogram vs uniform, Pearson chi-square distance and p-value; plus
// never-inserted phrases as the null. Writes table2.csv and histograms.csv.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/arguments.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/sparse_options.h"
#include "cli/sparse_report.h"
#include "core/atomic_file.h"
#include "core/limits.h"
#include "core/validate.h"

namespace dplab::cli {
namespace {

int run_canary(const Arguments& args) {
  experiment::SparsePreset preset = sparse_preset_from(args);
  preset.canaries = args.int_or("canaries", preset.canaries);
  if (preset.canaries < 10) throw UsageError("--canaries must be >= 10 (10 histogram bins)");
  if (const auto list = args.text("repeats")) {
    preset.canary_repeats = parse_int_list("repeats", *list);
    for (int n : preset.canary_repeats)
      if (n < 1) throw UsageError("--repeats: every n_c must be >= 1, got " + std::to_string(n));
  }
  if (const auto sigma = args.text("sigma")) {
    preset.table2_sigma = args.number_or("sigma", 0);
    require_positive("--sigma", preset.table2_sigma);
    require_run_size("--sigma", preset.table2_sigma, 0, kMaxGivenSigma);
  }
  const std::string out_dir = args.text_or("out", ".");
  require_writable_folder(out_dir, "--out");  // before the canaries train, not after
  const auto rows = experiment::run_table2(
      preset, [](const std::string& what, double) { std::cerr << what << "\n"; });
  experiment::write_table2_csv(out_dir + "/table2.csv", rows);
  experiment::write_histograms_csv(out_dir + "/histograms.csv", rows);
  std::cout
      << "canaries m = " << preset.canaries
      << "; rank = fraction of all |V|^2 alternatives the canary beats;\n"
      << "chi-square distance = X^2 / m against uniform over 10 bins (9 degrees of freedom);\n"
      << "exposure = log2 |V|^2 - log2 rank, rank 1 = likeliest of all |V|^2 candidates\n"
      << "(Carlini et al. 2019; at most log2 |V|^2 bits, ~1.44 under the null)\n"
      << (preset.table2_sigma > 0
              ? "sigma = " + format_number(preset.table2_sigma) +
                    " given with --sigma for DP-SGD and em: NOT the calibrated sigma, so the "
                    "runs do not have the budget's epsilon (the paper's sigma, epsilon not as "
                    "printed)\n"
              : std::string("sigma calibrated to the budget (em: Theorem 3; DP-SGD uses em's "
                            "sigma, as the paper does)\n"))
      << "n_c  method          sigma   distance  p_value    exposure mean/max  histogram (10 "
         "bins, rank 0 -> 1)        train_s\n";
  for (const auto& r : rows) {
    char line[256];
    std::string histogram;
    for (const double c : r.histogram.counts)
      histogram += std::to_string(static_cast<int>(c)) + " ";
    std::snprintf(line, sizeof line,
                  "%-3d  %-14s  %6.4f  %8.3f  %9.3g  %7.2f / %7.2f  %-38s  %7.1f\n", r.repeats,
                  r.method.c_str(), r.noise_multiplier, r.histogram.test.distance,
                  r.histogram.test.p_value, r.exposure.mean, r.exposure.max, histogram.c_str(),
                  r.train_wall_seconds);
    std::cout << line;
  }
  std::cout << "wrote " << out_dir << "/table2.csv, " << out_dir << "/histograms.csv\n";
  return 0;
}

}  // namespace

void add_canary_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_canary_flags(cli, *args), [args] { return run_canary(*args); });
}

}  // namespace dplab::cli
