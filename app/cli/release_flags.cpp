// The release flags of `tune`, `slurm` and `audit --tuning` (cli/release_flags.h).
#include "cli/release_flags.h"

#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/validate.h"
#include "experiment/release_repeats.h"

namespace dplab::cli {
namespace {

using experiment::PrivateSelection;
using experiment::ReleaseMode;
using experiment::RunCountDistribution;
using experiment::ValidationAssumption;

}  // namespace

void add_release_flags(CLI::App& command, Arguments& args) {
  // The defaults printed are a ReleaseConfig's own: what a release block without the key (and
  // no flag) uses.
  const experiment::ReleaseConfig d;
  add_value(command, args, "release",
            "explore (every run shown; eps = composition of ALL runs trained), private (a "
            "selection runs for real and releases only its winner) or private-subsampled "
            "(Koskela-Kulkarni: Papernot-Steinke search on a Poisson subsample, then one final "
            "run; eps covers both phases) or private-linear-scaling (Panda et al.: every "
            "candidate at two cheap trial budgets, the best learning rate extrapolated to the "
            "final run; eps covers the trials and the final run) (default " +
                experiment::to_string(d.mode) + ")",
            "explore|private|private-subsampled|private-linear-scaling");
  add_value(command, args, "trial-fractions",
            "private-linear-scaling: the trial budgets as fractions f1,f2 of the final run's "
            "epsilon, 0 < f1 < f2 < 1 (default " +
                format_number(d.trial_fraction_low) + "," + format_number(d.trial_fraction_high) +
                ")",
            "F1,F2");
  add_value(command, args, "tuning-fraction",
            "private-subsampled: Poisson rate q of the tuning subset, in (0, 1] (default " +
                format_number(d.tuning_fraction) + ")",
            "Q");
  add_value(command, args, "final-data",
            "private-subsampled: the final run trains on full or complement (the rows not in "
            "the tuning subset) (default " +
                experiment::to_string(d.final_data) + ")",
            "full|complement");
  add_value(command, args, "subset-batching",
            "private-subsampled: lot sampling rate on the subset: same_sampling_rate (L/n) or "
            "same_lot_size (L/(q n)) (default " +
                experiment::to_string(d.subset_batching) + ")",
            "same_sampling_rate|same_lot_size");
  add_value(command, args, "lr-transfer",
            "private-subsampled: learning rate of the final run (heuristic, no privacy cost): "
            "inverse_fraction (x 1/q), keep, or factor (x --lr-transfer-factor) (default " +
                experiment::to_string(d.lr_transfer.rule) + ")",
            "inverse_fraction|keep|factor");
  add_value(command, args, "lr-transfer-factor",
            "private-subsampled: the factor of --lr-transfer factor", "F");
  add_value(command, args, "strategy",
            "private selection: ma (each candidate once), lt (Liu-Talwar random stopping with "
            "tuning.gamma, tuning.delta2) or ps (Papernot-Steinke); grid = explore",
            "grid|ma|lt|ps");
  add_value(command, args, "validation",
            "public (the validation set is not protected) or private (the score is released "
            "with Gaussian noise of std S/n_val, charged in every run) (default " +
                experiment::to_string(d.validation) + ")",
            "public|private");
  add_value(command, args, "validation-noise", "noise multiplier S of the private validation score",
            "S");
  add_value(command, args, "ps-distribution",
            "ps: poisson or tnb (default " + experiment::to_string(d.ps_distribution) + ")",
            "poisson|tnb");
  add_value(command, args, "ps-mu",
            "ps poisson: mean number of runs mu >= 1 (default " + format_number(d.ps_mu) + ")",
            "MU");
  add_value(command, args, "ps-eta",
            "ps tnb: shape eta > -1, 1 = geometric (default " + format_number(d.ps_eta) + ")", "E");
  add_value(command, args, "ps-gamma",
            "ps tnb: gamma in (0, 1) (default " + format_number(d.ps_gamma) + ")", "G");
  add_value(command, args, "repeats",
            "override the experiment's repeats: explore = runs per candidate (all charged); "
            "private = independent replicate searches (the printed eps composes all R; one "
            "replicate's beside it)",
            "R");
  add_switch(
      command, args, "secure",
      "private modes: lots and noise from getrandom + ChaCha20; no seed is written anywhere");
}

void apply_release_flags(const Arguments& args, experiment::ExperimentConfig& config) {
  auto& r = config.release;
  const bool file_is_private = r.mode == ReleaseMode::kPrivate;
  if (auto mode = args.text("release")) {
    if (*mode == "explore")
      r.mode = ReleaseMode::kExplore;
    else if (*mode == "private")
      r.mode = ReleaseMode::kPrivate;
    else if (*mode == "private-subsampled" || *mode == "private-linear-scaling")
      r.mode = ReleaseMode::kPrivate;
    else
      throw UsageError(
          "--release must be 'explore', 'private', 'private-subsampled' or "
          "'private-linear-scaling', got '" +
          *mode + "'");
    r.subsampled = *mode == "private-subsampled";
    if (r.subsampled) r.selection = PrivateSelection::kPs;
    r.linear_scaling = *mode == "private-linear-scaling";
    if (r.linear_scaling) r.selection = PrivateSelection::kMa;
  }
  if (r.linear_scaling && args.has("strategy") && args.text_or("strategy", "") != "ma") {
    throw UsageError(
        "--release private-linear-scaling trains every candidate once per trial budget: "
        "--strategy ma");
  }
  if (args.has("trial-fractions")) {
    if (!r.linear_scaling)
      throw UsageError("--trial-fractions needs --release private-linear-scaling");
    const std::string text = args.text_or("trial-fractions", "");
    const std::vector<double> f = parse_number_list("trial-fractions", text);
    if (f.size() != 2) {
      throw UsageError("--trial-fractions must be two numbers F1,F2 (e.g. 0.1,0.25), got '" + text +
                       "'");
    }
    r.trial_fraction_low = f[0];
    r.trial_fraction_high = f[1];
  }
  if (r.subsampled && args.has("strategy") && args.text_or("strategy", "") != "ps") {
    throw UsageError("--release private-subsampled runs a Papernot-Steinke search: --strategy ps");
  }
  for (const char* flag :
       {"tuning-fraction", "final-data", "subset-batching", "lr-transfer", "lr-transfer-factor"}) {
    if (args.has(flag) && !r.subsampled) {
      throw UsageError(std::string("--") + flag + " needs --release private-subsampled");
    }
  }
  if (args.has("tuning-fraction")) r.tuning_fraction = args.required_number("tuning-fraction");
  if (auto d = args.text("final-data")) {
    if (*d == "full")
      r.final_data = privacy::FinalRunData::kFullData;
    else if (*d == "complement")
      r.final_data = privacy::FinalRunData::kComplement;
    else
      throw UsageError("--final-data must be 'full' or 'complement', got '" + *d + "'");
  }
  if (auto b = args.text("subset-batching")) {
    if (*b == "same_sampling_rate")
      r.subset_batching = privacy::SubsetBatching::kSameSamplingRate;
    else if (*b == "same_lot_size")
      r.subset_batching = privacy::SubsetBatching::kSameLotSize;
    else
      throw UsageError("--subset-batching must be 'same_sampling_rate' or 'same_lot_size', got '" +
                       *b + "'");
  }
  if (auto t = args.text("lr-transfer")) {
    try {
      r.lr_transfer.rule = experiment::parse_learning_rate_transfer(*t);
    } catch (const InvalidArgument& e) {
      throw UsageError(std::string("--lr-transfer: ") + e.what());
    }
  }
  if (args.has("lr-transfer-factor"))
    r.lr_transfer.factor = args.required_number("lr-transfer-factor");
  if (auto strategy = args.text("strategy")) {
    if (*strategy == "grid") {
      if (r.mode == ReleaseMode::kPrivate) {
        throw UsageError("--strategy grid trains and shows every run: it is --release explore");
      }
    } else {
      if (r.mode != ReleaseMode::kPrivate) {
        throw UsageError("--strategy " + *strategy + " selects privately: add --release private");
      }
      if (*strategy == "ma")
        r.selection = PrivateSelection::kMa;
      else if (*strategy == "lt")
        r.selection = PrivateSelection::kLt;
      else if (*strategy == "ps")
        r.selection = PrivateSelection::kPs;
      else
        throw UsageError("--strategy must be grid, ma, lt or ps, got '" + *strategy + "'");
    }
  }
  // A flag overrides the file; an absent flag must not. The file's release.selection is kept by
  // the parse above; an explore file switched to private by --release without --strategy takes
  // its selection from the file's tuning.strategy ("lt" -> LT; "grid"/"random" -> MA), instead
  // of silently running MA over every candidate when the file asked for Liu-Talwar.
  if (!args.has("strategy") && !file_is_private && r.mode == ReleaseMode::kPrivate &&
      config.tuning.strategy == experiment::Strategy::kLt) {
    r.selection = PrivateSelection::kLt;
  }
  if (auto v = args.text("validation")) {
    if (*v == "public")
      r.validation = ValidationAssumption::kPublic;
    else if (*v == "private")
      r.validation = ValidationAssumption::kPrivate;
    else
      throw UsageError("--validation must be 'public' or 'private', got '" + *v + "'");
  }
  if (args.has("validation-noise"))
    r.validation_noise_multiplier = args.required_number("validation-noise");
  if (auto d = args.text("ps-distribution")) {
    if (*d == "poisson")
      r.ps_distribution = RunCountDistribution::kPoisson;
    else if (*d == "tnb")
      r.ps_distribution = RunCountDistribution::kTruncatedNegativeBinomial;
    else
      throw UsageError("--ps-distribution must be 'poisson' or 'tnb', got '" + *d + "'");
  }
  if (args.has("ps-mu")) r.ps_mu = args.required_number("ps-mu");
  if (args.has("ps-eta")) r.ps_eta = args.required_number("ps-eta");
  if (args.has("ps-gamma")) r.ps_gamma = args.required_number("ps-gamma");
  if (args.has("secure")) r.secure = true;
  if (args.has("repeats")) {
    const std::int64_t repeats = args.required_integer("repeats");
    if (repeats < 1 || repeats > 1000) {
      throw UsageError("--repeats = " + std::to_string(repeats) +
                       " must be an integer in [1, 1000]");
    }
    config.repeats = static_cast<int>(repeats);
  }
  try {
    experiment::check_release(r, "release");
  } catch (const ParseError& e) {
    // Name the flag rather than the JSON key when the flags made the combination.
    std::string message = e.what();
    for (const auto& [key, flag] : std::vector<std::pair<std::string, std::string>>{
             {"release.validation_noise_multiplier", "--validation-noise"},
             {"release.validation", "--validation"},
             {"release.secure", "--secure"},
             {"release.ps_mu", "--ps-mu"},
             {"release.ps_eta", "--ps-eta"},
             {"release.ps_gamma", "--ps-gamma"},
             {"release.tuning_fraction", "--tuning-fraction"},
             {"release.trial_fractions", "--trial-fractions"},
             {"release.lr_transfer_factor", "--lr-transfer-factor"}}) {
      if (message.rfind(key, 0) == 0) {
        message = flag + " (" + key + ")" + message.substr(key.size());
        break;
      }
    }
    throw UsageError(message);
  }
  if (r.mode == ReleaseMode::kPrivate && config.repeats < 1)
    throw UsageError("repeats must be >= 1");
  try {
    experiment::check_release_repeats(r, config.repeats, "--repeats");
  } catch (const ParseError& e) {
    throw UsageError(e.what());
  }
}

}  // namespace dplab::cli
