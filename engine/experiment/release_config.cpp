#include "experiment/release_config.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_reader.h"
#include "core/validate.h"
#include "experiment/release_repeats.h"

namespace dplab::experiment {
namespace {

using nlohmann::json;

}  // namespace

std::string to_string(ReleaseMode m) {
  return m == ReleaseMode::kExplore ? "explore" : "private";
}
std::string to_string(PrivateSelection s) {
  switch (s) {
    case PrivateSelection::kMa:
      return "ma";
    case PrivateSelection::kLt:
      return "lt";
    case PrivateSelection::kPs:
      return "ps";
  }
  return "?";
}
std::string to_string(ValidationAssumption v) {
  return v == ValidationAssumption::kPublic ? "public" : "private";
}
std::string to_string(RunCountDistribution d) {
  return d == RunCountDistribution::kPoisson ? "poisson" : "tnb";
}

std::string to_string(privacy::FinalRunData d) {
  return d == privacy::FinalRunData::kFullData ? "full" : "complement";
}
std::string to_string(privacy::SubsetBatching b) {
  return b == privacy::SubsetBatching::kSameSamplingRate ? "same_sampling_rate" : "same_lot_size";
}

ReleaseConfig canonical_release(ReleaseConfig r) {
  const ReleaseConfig d;
  const bool ps = r.mode == ReleaseMode::kPrivate && r.selection == PrivateSelection::kPs;
  if (r.mode == ReleaseMode::kExplore) r.selection = d.selection;
  if (r.validation == ValidationAssumption::kPublic)
    r.validation_noise_multiplier = d.validation_noise_multiplier;
  if (!ps) r.ps_distribution = d.ps_distribution;
  if (!ps || r.ps_distribution != RunCountDistribution::kPoisson) r.ps_mu = d.ps_mu;
  if (!ps || r.ps_distribution != RunCountDistribution::kTruncatedNegativeBinomial) {
    r.ps_eta = d.ps_eta;
    r.ps_gamma = d.ps_gamma;
  }
  if (!r.subsampled) {
    r.tuning_fraction = d.tuning_fraction;
    r.final_data = d.final_data;
    r.subset_batching = d.subset_batching;
    r.lr_transfer = d.lr_transfer;
  } else if (r.lr_transfer.rule != LearningRateTransfer::kFactor) {
    r.lr_transfer.factor = d.lr_transfer.factor;
  }
  if (!r.linear_scaling) {
    r.trial_fraction_low = d.trial_fraction_low;
    r.trial_fraction_high = d.trial_fraction_high;
    r.trial_candidates = d.trial_candidates;
  }
  return r;
}

void check_release(const ReleaseConfig& r, const std::string& path) {
  if (r.subsampled) {
    if (r.mode != ReleaseMode::kPrivate || r.selection != PrivateSelection::kPs) {
      json_fail(path + ".mode", "private-subsampled runs a Papernot-Steinke search (selection ps)");
    }
    if (!(r.tuning_fraction > 0.0 && r.tuning_fraction <= 1.0)) {
      json_fail(path + ".tuning_fraction",
                "must be in (0, 1], got " + format_number(r.tuning_fraction));
    }
    if (r.validation == ValidationAssumption::kPrivate) {
      json_fail(path + ".validation",
                "\"private\" is not available with private-subsampled yet (the final run's score "
                "would need its own noise)");
    }
    if (r.secure) json_fail(path + ".secure", "is not available with private-subsampled yet");
    if (r.lr_transfer.rule == LearningRateTransfer::kFactor &&
        !(r.lr_transfer.factor > 0.0 && std::isfinite(r.lr_transfer.factor))) {
      json_fail(path + ".lr_transfer_factor", "must be > 0 with lr_transfer \"factor\", got " +
                                                  format_number(r.lr_transfer.factor));
    }
  }
  if (r.linear_scaling) {
    if (r.mode != ReleaseMode::kPrivate || r.selection != PrivateSelection::kMa || r.subsampled) {
      json_fail(path + ".mode",
                "private-linear-scaling trains every candidate once per trial budget (selection "
                "ma)");
    }
    if (!(r.trial_fraction_low > 0.0 && r.trial_fraction_low < r.trial_fraction_high &&
          r.trial_fraction_high < 1.0)) {
      json_fail(path + ".trial_fractions",
                "must be two fractions 0 < f1 < f2 < 1 of the final run's epsilon, got [" +
                    format_number(r.trial_fraction_low) + ", " +
                    format_number(r.trial_fraction_high) + "]");
    }
    if (r.trial_candidates < 0) {
      json_fail(path + ".trial_candidates",
                "must be >= 1 (leave it out: dplab writes it on the final run)");
    }
    if (r.validation == ValidationAssumption::kPrivate) {
      json_fail(path + ".validation",
                "\"private\" is not available with private-linear-scaling yet (the trial "
                "winners' scores would need their own noise)");
    }
    if (r.secure) json_fail(path + ".secure", "is not available with private-linear-scaling yet");
  }
  if (r.validation == ValidationAssumption::kPrivate) {
    if (r.mode == ReleaseMode::kExplore) {
      json_fail(
          path + ".validation",
          "\"private\" needs mode \"private\": explore releases every validation curve, which "
          "the noisy score would not cover");
    }
    if (!(r.validation_noise_multiplier > 0) || !std::isfinite(r.validation_noise_multiplier)) {
      json_fail(path + ".validation_noise_multiplier",
                "must be > 0 with validation \"private\", got " +
                    format_number(r.validation_noise_multiplier));
    }
  }
  if (r.secure && r.mode == ReleaseMode::kExplore) {
    json_fail(path + ".secure", "needs mode \"private\" (explore keeps reproducible seeds)");
  }
  if (!(r.ps_mu >= 1.0 && r.ps_mu <= 700.0))
    json_fail(path + ".ps_mu", "must be in [1, 700], got " + format_number(r.ps_mu));
  if (!(r.ps_eta > -1.0 && r.ps_eta <= 1000.0))
    json_fail(path + ".ps_eta", "must be in (-1, 1000], got " + format_number(r.ps_eta));
  if (!(r.ps_gamma > 0.0 && r.ps_gamma < 1.0))
    json_fail(path + ".ps_gamma",
              "must be strictly between 0 and 1, got " + format_number(r.ps_gamma));
}

void check_release_repeats(const ReleaseConfig& r, int repeats, const std::string& path,
                           bool one_procedure_only) {
  if (r.linear_scaling && repeats != 1) {
    json_fail(path,
              "release mode \"private-linear-scaling\" runs one procedure (two trial rounds and "
              "one final run): repeats must be 1, got " +
                  std::to_string(repeats));
  }
  if (!r.subsampled) return;
  if (repeats < 1) json_fail(path, "must be >= 1, got " + std::to_string(repeats));
  if (one_procedure_only && repeats != 1) {
    json_fail(
        path,
        "release mode \"private-subsampled\" in the GUI runs one procedure (one tuning search "
        "and one final run): repeats must be 1 here; `dplab-cli tune --repeats R` runs R "
        "procedures with their epsilon composed, got " +
            std::to_string(repeats));
  }
}

ReleaseConfig parse_release(const json& j, const std::string& path) {
  JsonReader in(j, path);
  ReleaseConfig r;
  if (const auto m = in.optional_string("mode")) {
    if (*m == "explore")
      r.mode = ReleaseMode::kExplore;
    else if (*m == "private")
      r.mode = ReleaseMode::kPrivate;
    else if (*m == "private-subsampled") {
      r.mode = ReleaseMode::kPrivate;
      r.selection = PrivateSelection::kPs;
      r.subsampled = true;
    } else if (*m == "private-linear-scaling") {
      r.mode = ReleaseMode::kPrivate;
      r.selection = PrivateSelection::kMa;
      r.linear_scaling = true;
    } else
      json_fail(in.key_path("mode"), "unknown mode \"" + *m +
                                         "\" (expected explore, private, private-subsampled or "
                                         "private-linear-scaling)");
  }
  if ((in.has("trial_fractions") || in.has("trial_candidates")) && !r.linear_scaling) {
    json_fail(in.key_path("mode"),
              "trial_fractions and trial_candidates need mode \"private-linear-scaling\"");
  }
  if (const auto f = in.optional_low_high("trial_fractions")) {
    r.trial_fraction_low = f->first;
    r.trial_fraction_high = f->second;
  }
  if (const auto k = in.optional_integer("trial_candidates", 1, 1000000))
    r.trial_candidates = static_cast<int>(*k);
  const bool subsampled_keys = in.has("tuning_fraction") || in.has("final_data") ||
                               in.has("subset_batching") || in.has("lr_transfer") ||
                               in.has("lr_transfer_factor");
  if (subsampled_keys && !r.subsampled) {
    json_fail(in.key_path("mode"),
              "tuning_fraction, final_data, subset_batching and lr_transfer need mode "
              "\"private-subsampled\"");
  }
  r.tuning_fraction = in.number_or("tuning_fraction", r.tuning_fraction);
  if (const auto d = in.optional_choice("final_data", {"full", "complement"}))
    r.final_data = *d == 0 ? privacy::FinalRunData::kFullData : privacy::FinalRunData::kComplement;
  if (const auto b = in.optional_choice("subset_batching", {"same_sampling_rate", "same_lot_size"}))
    r.subset_batching = *b == 0 ? privacy::SubsetBatching::kSameSamplingRate
                                : privacy::SubsetBatching::kSameLotSize;
  if (const auto rule = in.optional_string("lr_transfer")) {
    try {
      r.lr_transfer.rule = parse_learning_rate_transfer(*rule);
    } catch (const InvalidArgument& e) {
      json_fail(in.key_path("lr_transfer"), e.what());
    }
  }
  r.lr_transfer.factor = in.number_or("lr_transfer_factor", r.lr_transfer.factor);
  if (r.subsampled) {
    const auto s = in.optional_string("selection");
    if (s && *s != "ps")
      json_fail(in.key_path("selection"),
                "private-subsampled runs a Papernot-Steinke search: ps only");
  } else if (r.linear_scaling) {
    const auto s = in.optional_string("selection");
    if (s && *s != "ma")
      json_fail(in.key_path("selection"),
                "private-linear-scaling trains every candidate once per trial budget: ma only");
  } else {
    constexpr PrivateSelection kSelections[] = {PrivateSelection::kMa, PrivateSelection::kLt,
                                                PrivateSelection::kPs};
    if (const auto s = in.optional_choice("selection", {"ma", "lt", "ps"}, "selection"))
      r.selection = kSelections[*s];
  }
  if (const auto v = in.optional_choice("validation", {"public", "private"}, "assumption"))
    r.validation = *v == 0 ? ValidationAssumption::kPublic : ValidationAssumption::kPrivate;
  r.validation_noise_multiplier =
      in.number_or("validation_noise_multiplier", r.validation_noise_multiplier);
  if (const auto d = in.optional_choice("ps_distribution", {"poisson", "tnb"}, "distribution"))
    r.ps_distribution =
        *d == 0 ? RunCountDistribution::kPoisson : RunCountDistribution::kTruncatedNegativeBinomial;
  r.ps_mu = in.number_or("ps_mu", r.ps_mu);
  r.ps_eta = in.number_or("ps_eta", r.ps_eta);
  r.ps_gamma = in.number_or("ps_gamma", r.ps_gamma);
  r.secure = in.optional_bool("secure").value_or(r.secure);
  in.reject_unknown();
  check_release(r, path);
  return canonical_release(r);
}

json release_to_json(const ReleaseConfig& release) {
  const ReleaseConfig r = canonical_release(release);
  json j{{"mode", r.subsampled       ? std::string("private-subsampled")
                  : r.linear_scaling ? std::string("private-linear-scaling")
                                     : to_string(r.mode)},
         {"validation", to_string(r.validation)}};
  if (r.mode == ReleaseMode::kPrivate) j["selection"] = to_string(r.selection);
  if (r.validation == ValidationAssumption::kPrivate)
    j["validation_noise_multiplier"] = r.validation_noise_multiplier;
  if (r.mode == ReleaseMode::kPrivate && r.selection == PrivateSelection::kPs) {
    j["ps_distribution"] = to_string(r.ps_distribution);
    if (r.ps_distribution == RunCountDistribution::kPoisson) {
      j["ps_mu"] = r.ps_mu;
    } else {
      j["ps_eta"] = r.ps_eta;
      j["ps_gamma"] = r.ps_gamma;
    }
  }
  if (r.secure) j["secure"] = true;
  if (r.subsampled) {
    j["tuning_fraction"] = r.tuning_fraction;
    j["final_data"] = to_string(r.final_data);
    j["subset_batching"] = to_string(r.subset_batching);
    j["lr_transfer"] = to_string(r.lr_transfer.rule);
    if (r.lr_transfer.rule == LearningRateTransfer::kFactor)
      j["lr_transfer_factor"] = r.lr_transfer.factor;
  }
  if (r.linear_scaling) {
    j["trial_fractions"] = {r.trial_fraction_low, r.trial_fraction_high};
    if (r.trial_candidates > 0) j["trial_candidates"] = r.trial_candidates;
  }
  return j;
}

std::string describe_release(const ReleaseConfig& r) {
  if (r.mode == ReleaseMode::kExplore) return "explore";
  if (r.linear_scaling) {
    return "private-linear-scaling (trials at " + format_number(r.trial_fraction_low) + " and " +
           format_number(r.trial_fraction_high) + " of the final run's epsilon)";
  }
  if (r.subsampled) {
    return "private-subsampled (q=" + format_number(r.tuning_fraction) + ", " +
           (r.ps_distribution == RunCountDistribution::kPoisson
                ? "poisson mu=" + format_number(r.ps_mu)
                : "tnb eta=" + format_number(r.ps_eta) + " gamma=" + format_number(r.ps_gamma)) +
           ", final run on " +
           (r.final_data == privacy::FinalRunData::kFullData ? "the full data"
                                                             : "the complement of the subset") +
           ")";
  }
  std::string text = "private " + to_string(r.selection);
  if (r.selection == PrivateSelection::kPs) {
    text +=
        r.ps_distribution == RunCountDistribution::kPoisson
            ? " (poisson mu=" + format_number(r.ps_mu) + ")"
            : " (tnb eta=" + format_number(r.ps_eta) + " gamma=" + format_number(r.ps_gamma) + ")";
  }
  return text;
}

}  // namespace dplab::experiment
