#include "privacy/selection/accountant_settings.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace dplab::privacy {
namespace {

Accountant parse_accountant_setting(const std::string& text, Accountant fallback,
                                    SettingSpelling spelling) {
  if (text.empty()) return fallback;
  try {
    return parse_accountant(text);
  } catch (const InvalidArgument&) {
    throw InvalidArgument(setting_field(spelling, "accountant") + " must be 'rdp' or 'pld', got '" +
                          text + "'");
  }
}

PldOptions parse_pld_precision_setting(const std::string& text, SettingSpelling spelling) {
  PldOptions options;
  if (text.empty() || text == "default") return options;
  if (text == "fast") {
    options.precision = PldPrecision::kFast;
  } else if (text == "tight") {
    options.precision = PldPrecision::kTight;
  } else {
    throw InvalidArgument(setting_field(spelling, "pld-precision") +
                          " must be 'fast', 'default' or 'tight', got '" + text + "'");
  }
  return options;
}

}  // namespace

AccountantSettings parse_accountant_settings(const std::string& accountant_text,
                                             const std::string& precision_text,
                                             SettingSpelling spelling) {
  AccountantSettings settings;
  settings.given = !accountant_text.empty();
  settings.run = parse_accountant_setting(accountant_text, kDefaultRunAccountant, spelling);
  settings.lt = parse_accountant_setting(accountant_text, kDefaultLtAccountant, spelling);
  settings.pld = parse_pld_precision_setting(precision_text, spelling);
  // A setting the run does not read is an error, not a silent no-op (issue #24 item 6).
  if (!precision_text.empty() && settings.run != Accountant::kPld &&
      settings.lt != Accountant::kPld) {
    throw InvalidArgument(setting_field(spelling, "pld-precision") +
                          " is a PLD setting; it needs " + setting_field(spelling, "accountant") +
                          " pld");
  }
  return settings;
}

AccountantSettings read_accountant_settings(const Settings& settings) {
  return parse_accountant_settings(settings.text_or("accountant", ""),
                                   settings.text_or("pld-precision", ""), settings.spelling());
}

void put_selection_epsilons(nlohmann::json& out, const SubsampledGaussian& run, int candidates,
                            double delta, double gamma, double delta2,
                            const AccountantSettings& accountants, const AccountingOptions& rdp,
                            LogBase lt_log_base) {
  auto number = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  const auto single = run_epsilon(run, 1, delta, accountants.run, accountants.pld, rdp);
  const auto ma = run_epsilon(run, candidates, delta, accountants.run, accountants.pld, rdp);
  const auto lt = liu_talwar_selection_with(run, gamma, delta, accountants.lt, delta2, lt_log_base,
                                            accountants.pld, rdp);
  out["epsilon_single_run"] = number(single.epsilon);
  out["epsilon_ma"] = number(ma.epsilon);
  out["epsilon_lt"] = number(lt.epsilon);
  put_accountant_fields(out, ma);
  out["accountant_lt"] = to_string(accountants.lt);
  if (accountants.run == Accountant::kRdp || accountants.lt == Accountant::kRdp) {
    out["conversion"] = rdp.conversion == Conversion::kClassic ? "classic" : "improved";
  }
  out["lt_log_base"] = lt_log_base == LogBase::kTwo ? "2" : "e";
}

std::string accountant_text(const nlohmann::json& j, const char* key) {
  std::string text = j.value(key, std::string("?"));
  if (text == "rdp" && j.value("conversion", std::string()) == "classic")
    text += ", classic conversion";
  if (std::string(key) == "accountant_lt" && j.value("lt_log_base", std::string()) == "2")
    text += ", log2";
  return text;
}

void put_accountant_fields(nlohmann::json& out, const AccountedEpsilon& epsilon) {
  out["accountant"] = to_string(epsilon.accountant);
  out["accountant_label"] = accountant_label(epsilon);
  if (epsilon.accountant == Accountant::kPld) {
    out["pld_error_estimate"] = epsilon.pld_error_bound;  // Richardson: eps(2d) - eps(d)
    out["pld_discretization"] = epsilon.pld_discretization;
    out["pld_tail_mass"] = epsilon.pld_tail_mass;
  }
}

}  // namespace dplab::privacy
