#include "experiment/release_config.h"

#include <cmath>
#include <set>

#include "core/error.h"
#include "core/validate.h"

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

void check_release(const ReleaseConfig& r, const std::string& path) {
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
                                           "secure"};
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
    else
      fail(path + ".mode", "unknown mode \"" + m + "\" (expected explore or private)");
  }
  if (j.contains("selection")) {
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
  json j{{"mode", to_string(r.mode)}, {"validation", to_string(r.validation)}};
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
  return j;
}

std::string describe_release(const ReleaseConfig& r) {
  if (r.mode == ReleaseMode::kExplore) return "explore";
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
