// dplab-cli objpert: objective perturbation for linear learners (Algorithm 1 of Redberg, Koskela &
// Wang; engine/objective_perturbation/, docs/objective_perturbation.md). Three uses:
//   one run      --dataset D --epsilon E --delta D [--solver lbfgs|gd] ...  -> JSON summary with
//                the epsilon of every bound (the headline one, Theorem 4.1, covers the release);
//   comparison   --compare PRESET.json [--trials N] [--out FILE]   -> the paper's Table 2 /
//                Figure 2 (Algorithm 1 vs dishonest and honest DP-SGD), JSON summary;
//   Figure 1     --bounds-csv FILE --sigma S --lambda L [--clip L] [--smoothness B]
//                -> epsilon(delta) of the four bounds and the Gaussian lower bound.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/arguments.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/validate.h"
#include "data/dataset.h"
#include "data/dataset_catalog.h"
#include "data/preset_files.h"
#include "objective_perturbation/algorithm1.h"
#include "objective_perturbation/bound_curves.h"
#include "objective_perturbation/calibration.h"
#include "objective_perturbation/comparison_preset.h"
#include "objective_perturbation/honest_comparison.h"
#include "objective_perturbation/synthetic_glm.h"

namespace dplab::cli {
namespace {

using nlohmann::json;

// "synthetic-l" / "synthetic-h" (objective_perturbation/synthetic_glm.h) or the catalog.
data::Dataset load_objpert_dataset(const std::string& name, const std::string& path,
                                   std::uint64_t seed, const std::string& flag) {
  try {
    return objpert::load_comparison_dataset(name, path, seed);
  } catch (const ParseError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(flag + ": " + e.what());
  }
}

// Atomic (temp file + rename): a full disk is an error with its reason, never a 0-byte file.
void write_text(const std::string& path, const std::string& text) {
  write_text_file_atomically(path, text);
}

int run_bounds(const Arguments& args) {
  objpert::ObjPertPrivacy p;
  p.noise_std = args.required_number("sigma");
  p.regularization = args.required_number("lambda");
  p.gradient_bound = args.number_or("clip", kBoundsGradientBound);
  p.smoothness = args.number_or("smoothness", kBoundsSmoothness);
  require_positive("--sigma", p.noise_std);
  require_positive("--clip", p.gradient_bound);
  require_non_negative("--smoothness", p.smoothness);
  if (!(p.regularization > p.smoothness)) {
    throw UsageError("--lambda = " + format_number(p.regularization) +
                     " must be > --smoothness = " + format_number(p.smoothness));
  }
  const int points = args.int_or("points", kBoundsPoints);
  if (points < 2 || points > 100000) throw UsageError("--points must be in [2, 100000]");
  const auto curve = objpert::bound_curves(p, 1e-10, 1e-1, points);
  write_text(args.required_text("bounds-csv"), objpert::bound_curves_csv(curve));
  if (args.has("bounds-svg")) {
    char title[200];
    std::snprintf(title, sizeof title, "objective perturbation: sigma %g, L %g, beta %g, lambda %g",
                  p.noise_std, p.gradient_bound, p.smoothness, p.regularization);
    write_text(*args.text("bounds-svg"), objpert::bound_curves_svg(curve, title));
  }
  std::cout << json_text(json{{"bounds_csv", args.required_text("bounds-csv")},
                              {"sigma", p.noise_std},
                              {"lambda", p.regularization},
                              {"gradient_bound", p.gradient_bound},
                              {"smoothness", p.smoothness},
                              {"points", points}},
                         2)
            << '\n';
  return 0;
}

int run_compare(const Arguments& args) {
  objpert::ComparisonPreset preset;
  try {
    preset =
        objpert::load_comparison_preset(data::resolve_preset_path(args.required_text("compare")));
  } catch (const IoError& e) {
    throw UsageError(std::string("--compare: ") + e.what());
  }
  if (args.has("trials")) {
    preset.config.trials = args.int_or("trials", 1);
    if (preset.config.trials < 1) throw UsageError("--trials must be >= 1");
  }
  if (args.has("out")) require_output_file(*args.text("out"), "--out");  // before the trials
  if (args.has("dataset-path")) preset.dataset_path = *args.text("dataset-path");
  preset.config.seed = args.seed_or("seed", preset.config.seed);
  const data::Dataset all = load_objpert_dataset(preset.dataset_source, preset.dataset_path,
                                                 preset.config.split_seed, "--compare dataset");
  const bool quiet = args.has("quiet");
  const objpert::ComparisonResult result =
      objpert::run_comparison(all, preset.config, [quiet](const std::string& m, double) {
        if (!quiet) std::cerr << "objpert: " << m << '\n';
      });
  const json summary = objpert::comparison_to_json(preset, result);
  if (args.has("out")) write_text(*args.text("out"), json_text(summary, 2) + "\n");
  std::cout << json_text(summary, 2) << '\n';
  return 0;
}

int run_single(const Arguments& args) {
  const std::string dataset = args.required_text("dataset");
  const double epsilon = args.required_number("epsilon");
  require_positive("--epsilon", epsilon);
  const double delta = args.required_number("delta");
  require_open_interval("--delta", delta, 0.0, 1.0);
  objpert::Algorithm1Settings s;
  try {
    if (auto loss = args.text("loss")) s.loss = objpert::parse_glm_loss(*loss);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--loss: ") + e.what());
  }
  try {
    if (auto solver = args.text("solver")) s.solver.kind = objpert::parse_solver(*solver);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--solver: ") + e.what());
  }
  s.clip = args.number_or("clip", s.clip);
  require_positive("--clip", s.clip);
  s.tau = args.number_or("tau", s.tau);
  require_positive("--tau", s.tau);
  s.output_noise_std = args.number_or("output-noise", s.output_noise_std);
  require_positive("--output-noise", s.output_noise_std);
  s.solver.max_iterations = args.integer_or("max-iterations", s.solver.max_iterations);
  if (s.solver.max_iterations < 1) throw UsageError("--max-iterations must be >= 1");
  s.solver.learning_rate = args.number_or("learning-rate", s.solver.learning_rate);
  require_positive("--learning-rate", s.solver.learning_rate);
  s.seed = args.seed_or("seed", s.seed);
  const double test_fraction = args.number_or("test-fraction", kDefaultTestFraction);
  require_open_interval("--test-fraction", test_fraction, 0.0, 1.0);
  const double noise_factor = args.number_or("noise-factor", objpert::kPaperNoiseFactor);
  require_at_least("--noise-factor", noise_factor, 1.0);

  const data::Dataset all =
      load_objpert_dataset(dataset, args.text_or("dataset-path", ""),
                           args.seed_or("split-seed", kDefaultSplitSeed), "--dataset");
  if (s.loss == objpert::GlmLoss::kLogistic && all.num_classes != 2) {
    throw UsageError("--dataset: the logistic loss needs a binary data set ('" + all.name +
                     "' has " + std::to_string(all.num_classes) + " classes)");
  }
  const auto split = data::split_train_validation(all, test_fraction,
                                                  args.seed_or("split-seed", kDefaultSplitSeed));
  objpert::GlmData train;
  objpert::GlmData test;
  try {
    train = objpert::make_glm_data(split.train);
    test = objpert::make_glm_data(split.validation);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--dataset: ") + e.what());
  }

  objpert::CalibrationRequest request;
  request.epsilon = epsilon;
  request.delta = delta;
  request.gradient_bound = s.clip;
  request.smoothness = objpert::smoothness_of(s.loss, train);
  request.tau = s.tau;
  request.output_noise_std = s.output_noise_std;
  request.noise_factor = noise_factor;
  const objpert::Calibration cal = objpert::calibrate_algorithm1(request);
  s.noise_std = cal.privacy.noise_std;
  s.regularization = cal.privacy.regularization;
  const objpert::Algorithm1Result r = objpert::run_algorithm1(train, s);

  const objpert::ObjPertPrivacy& p = cal.privacy;
  objpert::ObjPertPrivacy exact = p;  // the objective-perturbation step alone (exact minimiser)
  exact.tau = 0;
  exact.output_noise_std = 0;
  json out;
  out["dataset"] = all.name;
  out["train_size"] = train.size();
  out["test_size"] = test.size();
  out["dim"] = train.dim();
  out["loss"] = objpert::to_string(s.loss);
  out["delta"] = delta;
  out["epsilon"] = cal.epsilon;
  out["epsilon_covers"] =
      "the released model (theta_hat + output noise), Theorem 4.1 RDP converted to (epsilon, "
      "delta); add/remove one training row; public: d, clip, tau, sigma_out, lambda, sigma";
  out["epsilon_target"] = epsilon;
  out["privacy"] = {{"noise_std", p.noise_std},
                    {"gaussian_noise_std", cal.gaussian_noise_std},
                    {"noise_factor", cal.noise_factor},
                    {"regularization", p.regularization},
                    {"smoothness", p.smoothness},
                    {"clip", p.gradient_bound},
                    {"tau", p.tau},
                    {"output_noise_std", p.output_noise_std}};
  out["bounds"] = {
      {"algorithm1_rdp_thm41", objpert::algorithm1_rdp_epsilon(p, delta)},
      {"objective_perturbation_step_only",
       {{"note", "exact minimiser, no output noise: NOT the release; for comparing the bounds"},
        {"profile_thm31", objpert::objpert_profile_epsilon(exact, delta)},
        {"rdp_thm32", objpert::objpert_rdp_epsilon(exact, delta)},
        {"kifer_thm28", objpert::kifer_epsilon(exact, delta)},
        {"gaussian_lower_bound", objpert::gaussian_lower_bound_epsilon(exact, delta)}}}};
  out["solver"] = {{"kind", objpert::to_string(s.solver.kind)},
                   {"iterations", r.iterations},
                   {"stopping_rule", "||gradient|| <= tau (the reached norm is not released)"},
                   {"objective_evaluations", r.objective_evaluations},
                   {"note", "diagnostics of the non-private minimiser: not covered by epsilon"}};
  out["test_accuracy"] = test.classification ? json(objpert::glm_accuracy(test, r.theta)) : json();
  out["seed"] = s.seed;
  out["wall_seconds"] = r.wall_seconds;
  std::cout << json_text(out, 2) << '\n';
  return 0;
}

int run_objpert(const Arguments& args) {
  const int modes = args.has("compare") + args.has("bounds-csv") + args.has("dataset");
  if (modes != 1) {
    throw UsageError(
        "give exactly one of --dataset (one run), --compare PRESET, --bounds-csv FILE");
  }
  // Each mode reads its own flags; another mode's flag is an error, not ignored unchecked
  // (`--bounds-csv ... --trials abc` was accepted).
  if (args.has("compare")) {
    args.require_only({"compare", "trials", "out", "quiet", "seed", "dataset-path"}, "--compare");
    return run_compare(args);
  }
  if (args.has("bounds-csv")) {
    args.require_only(
        {"bounds-csv", "bounds-svg", "sigma", "lambda", "clip", "smoothness", "points"},
        "--bounds-csv");
    return run_bounds(args);
  }
  args.require_only({"dataset", "dataset-path", "epsilon", "delta", "solver", "loss", "clip", "tau",
                     "output-noise", "noise-factor", "max-iterations", "learning-rate",
                     "test-fraction", "split-seed", "seed"},
                    "a single run (--dataset)");
  return run_single(args);
}

}  // namespace

void add_objpert_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_objpert_flags(cli, *args), [args] { return run_objpert(*args); });
}

}  // namespace dplab::cli
