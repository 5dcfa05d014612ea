// dplab-cli sparse-train: the sparse-DP reproduction's Figure 1 (Zhang, Mironov & Hejazinia):
// word2vec CBOW trained non-privately, with DP-SGD and with sparse DP (exponential mechanism,
// sparse vector, random selection) at the same total epsilon; writes figure1.csv (loss curves)
// and calibration.csv (sigma, eps', Theorem 3 and dplab's RDP account per method) and prints
// the privacy report and final losses. The work is engine/reproduction/sparse_reproduction.h.
// Ctrl-C / SIGTERM stop within one step: the methods finished so far are written (figure1.csv,
// calibration.csv) and it exits 130 / 143 (cli/interrupt.h).
// Also draws Figure 1 (figure1-train / figure1-test, SVG and PNG) and prints the verdict on the
// paper's Figure 1 claims with the scale rule (reproduction/sparse_figure1.h), and the rule itself
// from resources/rules/sparse-figure1.md with that file's SHA-256.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/arguments.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/progress_line.h"
#include "cli/sparse_options.h"
#include "cli/sparse_report.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/limits.h"
#include "reproduction/number_text.h"
#include "reproduction/rule_files.h"
#include "reproduction/sparse_figure1.h"

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

// figure1-train.{svg,png} and figure1-test.{svg,png} in out_dir; returns the file names.
std::string write_figure1_charts(const std::string& out_dir,
                                 const std::vector<experiment::MethodCurve>& curves,
                                 const experiment::SparsePreset& preset,
                                 const experiment::Calibration& calibration) {
  const std::string subtitle =
      std::to_string(calibration.train_examples) +
      " training pairs, b = " + reproduction::general(preset.lot_size) +
      ", T = " + std::to_string(calibration.steps) + " steps, epsilon = " +
      reproduction::general(preset.epsilon_noise + preset.epsilon_selection) +
      " (DP methods), seed " + std::to_string(preset.seed);
  std::string written;
  for (const auto loss : {reproduction::Figure1Loss::kTrain, reproduction::Figure1Loss::kTest}) {
    const auto plot = reproduction::figure1_plot(curves, loss, preset.lot_size,
                                                 calibration.train_examples, subtitle);
    const std::string stem =
        out_dir + (loss == reproduction::Figure1Loss::kTrain ? "/figure1-train" : "/figure1-test");
    write_file_atomically(stem + ".svg", figures::to_svg(plot));
    write_file_atomically(stem + ".png", figures::to_png(plot));
    written += ", " + stem + ".svg, " + stem + ".png";
  }
  return written;
}

int run_sparse_train(const Arguments& args) {
  const auto methods = parse_methods(args.text_or("methods", kAllMethods));
  experiment::SparsePreset preset = sparse_preset_from(args);
  if (args.has("sparse-sigma")) {
    preset.figure1_sparse_sigma = args.number_or("sparse-sigma", 0.0);
    require_run_size("--sparse-sigma", preset.figure1_sparse_sigma, 0, kMaxGivenSigma);
  }
  const std::string out_dir = args.text_or("out", ".");
  require_writable_folder(out_dir, "--out");  // before training, not after

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
  // One progress line over all the methods (cli/progress_line.h): it used to print the method's
  // name at every evaluation point of its run, the same line 95 times.
  ProgressLine progress("sparse-train", "");
  const auto method_count = static_cast<double>(methods.size());
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const auto on_progress = [&](const std::string& what, double fraction) {
      progress.update((static_cast<double>(i) + fraction) / method_count, 1.0, what);
    };
    try {
      auto one = experiment::run_figure1(preset, data, calibration, {methods[i]}, on_progress,
                                         interrupt.flag());
      curves.push_back(std::move(one.front()));
    } catch (const Cancelled&) {
      break;
    }
  }
  progress.finish(
      static_cast<double>(curves.size()) / method_count, 1.0,
      std::to_string(curves.size()) + " of " + std::to_string(methods.size()) + " methods trained");
  std::string charts;
  if (!curves.empty()) {
    experiment::write_figure1_csv(out_dir + "/figure1.csv", curves, preset.lot_size,
                                  data.train.size());
    charts = write_figure1_charts(out_dir, curves, preset, calibration);
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
  // The verdict on the paper's Figure 1 claims, by the rule fixed before the run.
  const auto scale = reproduction::figure1_scale_check(curves);
  if (scale.applies) std::cout << "scale rule: " << scale.text << "\n";
  const auto halves = reproduction::figure1_claims(curves);
  if (!halves.empty()) {
    std::cout << "Figure 1 verdict: "
              << reproduction::verdict_text(
                     halves, scale.applies && !scale.learns
                                 ? "the non-private baseline does not learn at this scale"
                                 : "")
              << "\n"
              << "Figure 1 rule (rule file " << reproduction::rule_path("sparse-figure1")
              << ", SHA-256 " << reproduction::rule_sha256("sparse-figure1")
              << "): " << reproduction::rule_text("sparse-figure1") << "\n";
  }
  const auto oracle = reproduction::figure1_oracle_check(curves);
  if (oracle.applies) std::cout << "diagnosis: " << oracle.text << "\n";
  std::cout << "wrote " << out_dir << "/figure1.csv, " << out_dir << "/calibration.csv" << charts
            << "\n";
  return 0;
}

}  // namespace

void add_sparse_train_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_sparse_train_flags(cli, *args), [args] { return run_sparse_train(*args); });
}

}  // namespace dplab::cli
