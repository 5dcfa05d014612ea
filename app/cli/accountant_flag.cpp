#include "cli/accountant_flag.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "cli/arguments.h"
#include "core/error.h"

namespace dplab::cli {

privacy::Accountant parse_accountant_flag(const std::string& text, privacy::Accountant fallback) {
  if (text.empty()) return fallback;
  try {
    return privacy::parse_accountant(text);
  } catch (const InvalidArgument&) {
    throw UsageError("--accountant must be 'rdp' or 'pld', got '" + text + "'");
  }
}

privacy::PldOptions parse_pld_precision_flag(const std::string& text) {
  privacy::PldOptions options;
  if (text.empty() || text == "default") return options;
  if (text == "fast") {
    options.precision = privacy::PldPrecision::kFast;
  } else if (text == "tight") {
    options.precision = privacy::PldPrecision::kTight;
  } else {
    throw UsageError("--pld-precision must be 'fast', 'default' or 'tight', got '" + text + "'");
  }
  return options;
}

AccountantFlags parse_accountant_flags(const std::string& accountant_text,
                                       const std::string& precision_text) {
  AccountantFlags flags;
  flags.given = !accountant_text.empty();
  flags.run = parse_accountant_flag(accountant_text, privacy::kDefaultRunAccountant);
  flags.lt = parse_accountant_flag(accountant_text, privacy::kDefaultLtAccountant);
  flags.pld = parse_pld_precision_flag(precision_text);
  // A flag the run does not read is an error, not a silent no-op (issue #24 item 6).
  if (!precision_text.empty() && flags.run != privacy::Accountant::kPld &&
      flags.lt != privacy::Accountant::kPld) {
    throw UsageError("--pld-precision is a PLD setting; it needs --accountant pld");
  }
  return flags;
}

void put_selection_epsilons(nlohmann::json& out, const privacy::SubsampledGaussian& run,
                            int candidates, double delta, double gamma, double delta2,
                            const AccountantFlags& flags, const privacy::AccountingOptions& rdp,
                            privacy::LogBase lt_log_base) {
  auto number = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  const auto single = privacy::run_epsilon(run, 1, delta, flags.run, flags.pld, rdp);
  const auto ma = privacy::run_epsilon(run, candidates, delta, flags.run, flags.pld, rdp);
  const auto lt = privacy::liu_talwar_selection_with(run, gamma, delta, flags.lt, delta2,
                                                     lt_log_base, flags.pld, rdp);
  out["epsilon_single_run"] = number(single.epsilon);
  out["epsilon_ma"] = number(ma.epsilon);
  out["epsilon_lt"] = number(lt.epsilon);
  put_accountant_fields(out, ma);
  out["accountant_lt"] = privacy::to_string(flags.lt);
  if (flags.run == privacy::Accountant::kRdp || flags.lt == privacy::Accountant::kRdp) {
    out["conversion"] = rdp.conversion == privacy::Conversion::kClassic ? "classic" : "improved";
  }
  out["lt_log_base"] = lt_log_base == privacy::LogBase::kTwo ? "2" : "e";
}

std::string accountant_text(const nlohmann::json& j, const char* key) {
  std::string text = j.value(key, std::string("?"));
  if (text == "rdp" && j.value("conversion", std::string()) == "classic")
    text += ", classic conversion";
  if (std::string(key) == "accountant_lt" && j.value("lt_log_base", std::string()) == "2")
    text += ", log2";
  return text;
}

void put_accountant_fields(nlohmann::json& out, const privacy::AccountedEpsilon& epsilon) {
  out["accountant"] = privacy::to_string(epsilon.accountant);
  out["accountant_label"] = privacy::accountant_label(epsilon);
  if (epsilon.accountant == privacy::Accountant::kPld) {
    out["pld_error_estimate"] = epsilon.pld_error_bound;  // Richardson: eps(2d) - eps(d)
    out["pld_discretization"] = epsilon.pld_discretization;
    out["pld_tail_mass"] = epsilon.pld_tail_mass;
  }
}

}  // namespace dplab::cli
