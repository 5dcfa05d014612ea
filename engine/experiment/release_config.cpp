#include "experiment/release_config.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "core/validate.h"
#include "experiment/release_repeats.h"

namespace dplab::experiment {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw ParseError(path + ": " + message);
}

std::string text_of(const json& j, const std::string& path) {
  if (!j.is_string()) fail(path, "expected a string, got " + j.dump());
  return j.get<std::string>();
}
double number_of(const json& j, const std::string& path) {
  if (!j.is_number()) fail(path, "expected a number, got " + j.dump());
  const double v = j.get<double>();
  if (!std::isfinite(v)) fail(path, "must be finite");
  return v;
}

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

void check_release(const ReleaseConfig& r, const std::string& path) {
  if (r.subsampled) {
    if (r.mode != ReleaseMode::kPrivate || r.selection != PrivateSelection::kPs) {
      fail(path + ".mode", "private-subsampled runs a Papernot-Steinke search (selection ps)");
    }
    if (!(r.tuning_fraction > 0.0 && r.tuning_fraction <= 1.0)) {
      fail(path + ".tuning_fraction", "must be in (0, 1], got " + format_number(r.tuning_fraction));
    }
    if (r.validation == ValidationAssumption::kPrivate) {
      fail(path + ".validation",
           "\"private\" is not available with private-subsampled yet (the final run's score "
           "would need its own noise)");
    }
    if (r.secure) fail(path + ".secure", "is not available with private-subsampled yet");
    if (r.lr_transfer.rule == LearningRateTransfer::kFactor &&
        !(r.lr_transfer.factor > 0.0 && std::isfinite(r.lr_transfer.factor))) {
      fail(path + ".lr_transfer_factor",
           "must be > 0 with lr_transfer \"factor\", got " + format_number(r.lr_transfer.factor));
    }
  }
  if (r.validation == ValidationAssumption::kPrivate) {
    if (r.mode == ReleaseMode::kExplore) {
      fail(path + ".validation",
           "\"private\" needs mode \"private\": explore releases every validation curve, which "
           "the noisy score would not cover");
    }
    if (!(r.validation_noise_multiplier > 0) || !std::isfinite(r.validation_noise_multiplier)) {
      fail(path + ".validation_noise_multiplier", "must be > 0 with validation \"private\", got " +
                                                      format_number(r.validation_noise_multiplier));
    }
  }
  if (r.secure && r.mode == ReleaseMode::kExplore) {
    fail(path + ".secure", "needs mode \"private\" (explore keeps reproducible seeds)");
  }
  if (!(r.ps_mu >= 1.0 && r.ps_mu <= 700.0))
    fail(path + ".ps_mu", "must be in [1, 700], got " + format_number(r.ps_mu));
  if (!(r.ps_eta > -1.0 && r.ps_eta <= 1000.0))
    fail(path + ".ps_eta", "must be in (-1, 1000], got " + format_number(r.ps_eta));
  if (!(r.ps_gamma > 0.0 && r.ps_gamma < 1.0))
    fail(path + ".ps_gamma", "must be strictly between 0 and 1, got " + format_number(r.ps_gamma));
}

void check_release_repeats(const ReleaseConfig& r, int repeats, const std::string& path,
                           bool one_procedure_only) {
  if (!r.subsampled) return;
  if (repeats < 1) fail(path, "must be >= 1, got " + std::to_string(repeats));
  if (one_procedure_only && repeats != 1) {
    fail(path,
         "release mode \"private-subsampled\" in the GUI runs one procedure (one tuning search "
         "and one final run): repeats must be 1 here; `dplab-cli tune --repeats R` runs R "
         "procedures with their epsilon composed, got " +
             std::to_string(repeats));
  }
}

ReleaseConfig parse_release(const json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "expected an object, got " + j.dump());
  static const std::set<std::string> kKeys{"mode",
                                           "selection",
                                           "validation",
                                           "validation_noise_multiplier",
                                           "ps_distribution",
                                           "ps_mu",
                                           "ps_eta",
                                           "ps_gamma",
                                           "secure",
                                           "tuning_fraction",
                                           "final_data",
                                           "subset_batching",
                                           "lr_transfer",
                                           "lr_transfer_factor"};
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!kKeys.count(it.key())) fail(path + "." + it.key(), "unknown key");
  }
  ReleaseConfig r;
  if (j.contains("mode")) {
    const std::string m = text_of(j["mode"], path + ".mode");
    if (m == "explore")
      r.mode = ReleaseMode::kExplore;
    else if (m == "private")
      r.mode = ReleaseMode::kPrivate;
    else if (m == "private-subsampled") {
      r.mode = ReleaseMode::kPrivate;
      r.selection = PrivateSelection::kPs;
      r.subsampled = true;
    } else
      fail(path + ".mode",
           "unknown mode \"" + m + "\" (expected explore, private or private-subsampled)");
  }
  const bool subsampled_keys = j.contains("tuning_fraction") || j.contains("final_data") ||
                               j.contains("subset_batching") || j.contains("lr_transfer") ||
                               j.contains("lr_transfer_factor");
  if (subsampled_keys && !r.subsampled) {
    fail(path + ".mode",
         "tuning_fraction, final_data, subset_batching and lr_transfer need mode "
         "\"private-subsampled\"");
  }
  if (j.contains("tuning_fraction"))
    r.tuning_fraction = number_of(j["tuning_fraction"], path + ".tuning_fraction");
  if (j.contains("final_data")) {
    const std::string d = text_of(j["final_data"], path + ".final_data");
    if (d == "full")
      r.final_data = privacy::FinalRunData::kFullData;
    else if (d == "complement")
      r.final_data = privacy::FinalRunData::kComplement;
    else
      fail(path + ".final_data", "unknown value \"" + d + "\" (expected full or complement)");
  }
  if (j.contains("subset_batching")) {
    const std::string b = text_of(j["subset_batching"], path + ".subset_batching");
    if (b == "same_sampling_rate")
      r.subset_batching = privacy::SubsetBatching::kSameSamplingRate;
    else if (b == "same_lot_size")
      r.subset_batching = privacy::SubsetBatching::kSameLotSize;
    else
      fail(path + ".subset_batching",
           "unknown value \"" + b + "\" (expected same_sampling_rate or same_lot_size)");
  }
  if (j.contains("lr_transfer")) {
    try {
      r.lr_transfer.rule =
          parse_learning_rate_transfer(text_of(j["lr_transfer"], path + ".lr_transfer"));
    } catch (const InvalidArgument& e) {
      fail(path + ".lr_transfer", e.what());
    }
  }
  if (j.contains("lr_transfer_factor"))
    r.lr_transfer.factor = number_of(j["lr_transfer_factor"], path + ".lr_transfer_factor");
  if (j.contains("selection") && r.subsampled) {
    if (text_of(j["selection"], path + ".selection") != "ps")
      fail(path + ".selection", "private-subsampled runs a Papernot-Steinke search: ps only");
  } else if (j.contains("selection")) {
    const std::string s = text_of(j["selection"], path + ".selection");
    if (s == "ma")
      r.selection = PrivateSelection::kMa;
    else if (s == "lt")
      r.selection = PrivateSelection::kLt;
    else if (s == "ps")
      r.selection = PrivateSelection::kPs;
    else
      fail(path + ".selection", "unknown selection \"" + s + "\" (expected ma, lt or ps)");
  }
  if (j.contains("validation")) {
    const std::string v = text_of(j["validation"], path + ".validation");
    if (v == "public")
      r.validation = ValidationAssumption::kPublic;
    else if (v == "private")
      r.validation = ValidationAssumption::kPrivate;
    else
      fail(path + ".validation", "unknown assumption \"" + v + "\" (expected public or private)");
  }
  if (j.contains("validation_noise_multiplier")) {
    r.validation_noise_multiplier =
        number_of(j["validation_noise_multiplier"], path + ".validation_noise_multiplier");
  }
  if (j.contains("ps_distribution")) {
    const std::string d = text_of(j["ps_distribution"], path + ".ps_distribution");
    if (d == "poisson")
      r.ps_distribution = RunCountDistribution::kPoisson;
    else if (d == "tnb")
      r.ps_distribution = RunCountDistribution::kTruncatedNegativeBinomial;
    else
      fail(path + ".ps_distribution",
           "unknown distribution \"" + d + "\" (expected poisson or tnb)");
  }
  if (j.contains("ps_mu")) r.ps_mu = number_of(j["ps_mu"], path + ".ps_mu");
  if (j.contains("ps_eta")) r.ps_eta = number_of(j["ps_eta"], path + ".ps_eta");
  if (j.contains("ps_gamma")) r.ps_gamma = number_of(j["ps_gamma"], path + ".ps_gamma");
  if (j.contains("secure")) {
    if (!j["secure"].is_boolean())
      fail(path + ".secure", "expected true or false, got " + j["secure"].dump());
    r.secure = j["secure"].get<bool>();
  }
  check_release(r, path);
  return r;
}

json release_to_json(const ReleaseConfig& r) {
  json j{{"mode", r.subsampled ? std::string("private-subsampled") : to_string(r.mode)},
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
  return j;
}

std::string describe_release(const ReleaseConfig& r) {
  if (r.mode == ReleaseMode::kExplore) return "explore";
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
