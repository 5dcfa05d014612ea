// The flags of `dplab-cli objpert` (declared here, read by objpert_command.cpp).
#include <string>

#include "cli/command_flags.h"
#include "core/validate.h"
#include "objective_perturbation/algorithm1.h"
#include "objective_perturbation/calibration.h"

namespace dplab::cli {

CLI::App* add_objpert_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(
      cli, "objpert",
      "objective perturbation (Algorithm 1) for logistic/linear models; Table 2 compare");
  add_value(*cmd, args, "dataset",
            "one run: binary data set (adult, synthetic-l, synthetic-h, a file)", "NAME");
  add_value(*cmd, args, "dataset-path",
            "folder with your own adult.data.csv and adult.test.csv (default: the shipped, "
            "checksum-verified copy)",
            "DIR");
  add_value(*cmd, args, "epsilon", "one run: target epsilon > 0", "E");
  add_value(*cmd, args, "delta", "one run: delta in (0, 1)", "D");
  // The one run's defaults are the engine's Algorithm1Settings, which run_single keeps.
  const objpert::Algorithm1Settings d;
  const auto n = [](double value) { return format_number(value); };
  add_value(*cmd, args, "solver",
            "lbfgs or gd; free of privacy cost (default " +
                std::string(objpert::to_string(d.solver.kind)) + ")",
            "lbfgs|gd");
  add_value(*cmd, args, "loss",
            "logistic or squared (default " + std::string(objpert::to_string(d.loss)) + ")",
            "logistic|squared");
  add_value(*cmd, args, "clip",
            "gradient clip C = L (default " + n(d.clip) +
                " = sqrt 2; bounds: " + n(kBoundsGradientBound) + ")",
            "C");
  add_value(*cmd, args, "tau", "gradient-norm threshold (default " + n(d.tau) + ")", "T");
  add_value(*cmd, args, "output-noise", "sigma_out (default " + n(d.output_noise_std) + ")", "S");
  add_value(*cmd, args, "noise-factor",
            "f: sigma = f sigma_G (default " + n(objpert::kPaperNoiseFactor) + ")", "F");
  add_value(*cmd, args, "max-iterations",
            "solver iterations cap (default " + std::to_string(d.solver.max_iterations) + ")", "N");
  add_value(*cmd, args, "learning-rate",
            "gd: step = this / smoothness (default " + n(d.solver.learning_rate) + ")", "R");
  add_value(*cmd, args, "test-fraction",
            "held-out fraction (default " + n(kDefaultTestFraction) + ")", "P");
  add_value(*cmd, args, "split-seed",
            "seed of the train/test split (default " + std::to_string(kDefaultSplitSeed) + ")",
            "N");
  add_value(*cmd, args, "seed",
            "seed of the noise (default " + std::to_string(d.seed) + "; compare: the preset's)",
            "N");
  add_value(*cmd, args, "compare",
            "run a comparison preset: a file, or a shipped preset's name (objpert-vs-dpsgd-adult)",
            "FILE|NAME");
  add_value(*cmd, args, "trials", "compare: override the preset's trials", "N");
  add_value(*cmd, args, "out", "compare: also write the JSON summary here", "FILE");
  add_switch(*cmd, args, "quiet", "compare: no progress on stderr");
  add_value(*cmd, args, "bounds-csv", "write Figure 1 data (epsilon(delta) of each bound)", "FILE");
  add_value(*cmd, args, "bounds-svg", "bounds: also draw them as an SVG chart", "FILE");
  add_value(*cmd, args, "sigma", "bounds: noise std of b", "S");
  add_value(*cmd, args, "lambda", "bounds: regularization (> smoothness)", "L");
  add_value(*cmd, args, "smoothness", "bounds: beta (default " + n(kBoundsSmoothness) + ")", "B");
  add_value(
      *cmd, args, "points",
      "bounds: number of deltas in [1e-10, 0.1] (default " + std::to_string(kBoundsPoints) + ")",
      "N");
  set_footer(
      *cmd,
      "Output: one JSON object on stdout. Every epsilon is an upper bound from the named theorem;\n"
      "solver diagnostics (iterations) are not covered by it; the reached gradient norm is not\n"
      "printed (it depends on the private data).");
  add_examples(*cmd, {"dplab-cli objpert --dataset synthetic-l --epsilon 1 --delta 1e-5",
                      "dplab-cli objpert --bounds-csv bounds.csv --sigma 1 --lambda 2"});
  return cmd;
}

}  // namespace dplab::cli
