// dplab-cli sparse-train: the sparse-DP reproduction's Figure 1 (Zhang, Mironov & Hejazinia):
// word2vec CBOW trained non-privately, with DP-SGD and with sparse DP (exponential mechanism,
// sparse vector, random selection) at the same total epsilon; writes figure1.csv (loss curves)
// and calibration.csv (sigma, eps', Theorem 3 and dplab's RDP account per method) and prints
// the privacy report and final losses. The work is engine/reproduction/sparse_reproduction.h.
// Ctrl-C / SIGTERM stop within one step: the methods finished so far are written (figure1.csv,
// calibration.csv) and it exits 130 / 143 (cli/interrupt.h).
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/sparse_options.h"
#include "cli/sparse_report.h"
#include "core/error.h"

namespace dplab::cli {
namespace {

std::vector<training::WideMethod> parse_methods(const std::string& list) {
  std::vector<training::WideMethod> methods;
  for (const auto& item : comma_items("methods", list)) {
    try {
      methods.push_back(training::parse_wide_method(item));
    } catch (const InvalidArgument& e) {
      throw UsageError(std::string("--methods: ") + e.what());
    }
  }
  return methods;
}

int run_sparse_train(const Arguments& args) {
  const auto methods = parse_methods(args.text_or("methods", "nonprivate,dpsgd,em,svt,random"));
  const experiment::SparsePreset preset = sparse_preset_from(args);
  const std::string out_dir = args.text_or("out", ".");
  std::filesystem::create_directories(out_dir);

  const auto data = experiment::prepare_text(preset);
  const auto calibration = experiment::calibrate(preset, data.train.size());
  std::cout << "corpus " << preset.corpus_path << ": " << data.corpus.raw_tokens << " tokens, "
            << data.corpus.kept_tokens << " kept (vocabulary " << data.corpus.vocabulary.size()
            << ")\n";
  print_calibration(std::cout, calibration, preset);
  // One method at a time (each is seeded by the preset's seed alone, so the curves are those of
  // one call with every method): a signal keeps the methods already finished.
  const InterruptScope interrupt;
  std::vector<experiment::MethodCurve> curves;
  for (const auto method : methods) {
    try {
      auto one = experiment::run_figure1(
          preset, data, calibration, {method},
          [](const std::string& what, double) { std::cerr << what << "\n"; }, interrupt.flag());
      curves.push_back(std::move(one.front()));
    } catch (const Cancelled&) {
      break;
    }
  }
  if (!curves.empty()) {
    experiment::write_figure1_csv(out_dir + "/figure1.csv", curves, preset.lot_size,
                                  data.train.size());
  }
  experiment::write_calibration_csv(out_dir + "/calibration.csv", calibration, preset.delta);
  if (interrupt.interrupted()) {
    std::cerr << "dplab-cli sparse-train: " << interrupt.what_happened() << " during method "
              << (curves.size() + 1) << " of " << methods.size() << "; kept the " << curves.size()
              << " finished ("
              << (curves.empty() ? std::string("no figure1.csv") : out_dir + "/figure1.csv") << ", "
              << out_dir << "/calibration.csv)\n";
    return interrupt.exit_status();
  }
  std::cout << "method      train_loss  test_loss  (start "
            << curves.front().run.curve.front().train_loss << " / "
            << curves.front().run.curve.front().test_loss << ")  wall_s\n";
  for (const auto& c : curves) {
    char line[160];
    std::snprintf(line, sizeof line, "%-10s  %10.4f  %9.4f  %8.1f\n",
                  training::to_string(c.method).c_str(), c.run.curve.back().train_loss,
                  c.run.curve.back().test_loss, c.run.wall_seconds);
    std::cout << line;
  }
  std::cout << "wrote " << out_dir << "/figure1.csv, " << out_dir << "/calibration.csv\n";
  return 0;
}

}  // namespace

void add_sparse_train_command(CLI::App& cli) {
  CLI::App* cmd = cli.add_subcommand(
      "sparse-train", "word2vec: DP-SGD vs sparse DP (EM / SVT / random selection), Figure 1 CSV");
  auto args = std::make_shared<Arguments>();
  add_value(*cmd, *args, "methods",
            "comma-separated of nonprivate,dpsgd,em,svt,random (default all)", "LIST");
  add_sparse_preset_flags(*cmd, *args);
  cmd->footer(kSparsePresetFooter);
  on_run(*cmd, [args] { return run_sparse_train(*args); });
}

}  // namespace dplab::cli
