// dplab-cli label-canary: the canary memorisation audit for classifiers (engine/audit/
// label_canary.h): m held-out examples with a wrong label are inserted n_c times into the
// training set of the run that `train`'s flags describe; the run is trained and each canary's
// loss is ranked against never-inserted mislabelled references; prints the 10-bin rank histogram
// with Pearson's chi-square distance and p-value (a memorised run is non-uniform) and writes
// label_canary.csv (one row per n_c).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "audit/label_canary.h"
#include "cli/arguments.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "cli/run_config.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"

namespace dplab::cli {
namespace {

int run_label_canary(const Arguments& args) {
  RunConfig config = parse_run_config(args);
  if (config.out.empty()) throw UsageError("missing required flag --out");
  const int canaries = args.int_or("canaries", kDefaultCanaries);
  if (canaries < 10) throw UsageError("--canaries must be >= 10 (10 histogram bins)");
  const std::vector<int> repeats =
      parse_int_list("repeats", args.text_or("repeats", kDefaultRepeats));
  for (int n : repeats)
    if (n < 0) throw UsageError("--repeats: every n_c must be >= 0, got " + std::to_string(n));

  data::DatasetSource source = data::source_for(config.dataset);
  source.format = data::parse_data_format(config.format);
  source.label_column = config.label_column;
  config.apply_data_limits(source);
  const data::Dataset all = data::load_dataset(source);
  const auto split = data::prepare_split(all, config.validation_fraction, 0);
  require_writable_folder(config.out, "--out");  // before training, not after
  const std::string path = config.out + "/label_canary.csv";
  // Rewritten atomically after every n_c (core/atomic_file.h): the rows done survive a later
  // failure, and a full disk is an error with its reason, never a truncated file.
  std::ostringstream csv;
  csv << "n_c,canaries,chi2_distance,chi2_statistic,p_value";
  for (int b = 0; b < 10; ++b) csv << ",bin" << b;
  csv << '\n';
  std::cout << "model " << config.model << ", optimizer " << config.optimizer << ", sigma "
            << (config.is_private() ? config.noise_multiplier : 0.0) << ", " << config.steps
            << " steps; " << canaries
            << " canaries (rank 1 = lower loss than every never-inserted reference)\n"
            << "n_c  distance  p_value    histogram (10 bins, rank 0 -> 1)\n";
  for (const int n_c : repeats) {
    const auto result = audit::run_label_canary_audit(split, config.training_config(),
                                                      {canaries, n_c, config.seed + 1});
    const auto& h = result.histogram;
    std::string bins;
    for (const double c : h.counts) bins += std::to_string(static_cast<int>(c)) + " ";
    char line[256];
    std::snprintf(line, sizeof line, "%-3d  %8.3f  %9.3g  %s\n", n_c, h.test.distance,
                  h.test.p_value, bins.c_str());
    std::cout << line;
    csv.precision(17);
    csv << n_c << ',' << canaries << ',' << h.test.distance << ',' << h.test.statistic << ','
        << h.test.p_value;
    for (const double c : h.counts) csv << ',' << c;
    csv << '\n';
    write_text_file_atomically(path, csv.str());
  }
  write_text_file_atomically(path, csv.str());
  std::cout << "wrote " << path << "\n";
  return 0;
}

}  // namespace

void add_label_canary_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_label_canary_flags(cli, *args), [args] { return run_label_canary(*args); });
}

}  // namespace dplab::cli
