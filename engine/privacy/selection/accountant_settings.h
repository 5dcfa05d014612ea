// The accountant settings every request shares (dplab-cli account, calibrate, train and tune;
// the Python module's account, calibrate, train): "accountant" rdp|pld and "pld-precision"
// fast|default|tight, and the JSON fields that say which accountant produced an epsilon
// ("accountant": "pld", "accountant_label": "accountant: pld (error <= ..., grid ..., tail ...)",
// the PLD error bound, grid and tail mass). Errors are InvalidArguments naming the setting as the
// caller spells it (core/settings.h). Defaults (privacy/accounting/accountant_choice.h): RDP; PLD
// on request.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "core/settings.h"
#include "privacy/accounting/accountant_choice.h"
#include "privacy/selection/private_selection.h"

namespace dplab::privacy {

// Both settings resolved: the accountant of single runs / MA and of LT (PLD for LT only when
// asked).
struct AccountantSettings {
  Accountant run = kDefaultRunAccountant;
  Accountant lt = kDefaultLtAccountant;
  bool given = false;  // "accountant" was given
  PldOptions pld;
};

// Empty texts: the defaults. A precision without the PLD accountant is an error (a setting the
// run does not read is never a silent no-op).
AccountantSettings parse_accountant_settings(const std::string& accountant_text,
                                             const std::string& precision_text,
                                             SettingSpelling spelling);
// The "accountant" and "pld-precision" of `settings`.
AccountantSettings read_accountant_settings(const Settings& settings);

// A search's three epsilons under the settings: epsilon_single_run, epsilon_ma (K runs composed)
// and epsilon_lt (gamma, delta2), each with its accountant fields (accountant, accountant_lt,
// ...). `rdp` and `lt_log_base` are the experiment's "accounting" block (accounting_config.h;
// RDP's conversion, LT's logarithm), written as "conversion" (RDP only) and "lt_log_base".
void put_selection_epsilons(nlohmann::json& out, const SubsampledGaussian& run, int candidates,
                            double delta, double gamma, double delta2,
                            const AccountantSettings& accountants,
                            const AccountingOptions& rdp = {},
                            LogBase lt_log_base = LogBase::kNatural);

// "rdp" / "rdp, classic conversion" / "pld ..." for a line of text: the accountant of an object
// written by put_selection_epsilons, `key` "accountant" or "accountant_lt".
std::string accountant_text(const nlohmann::json& j, const char* key);

// Adds accountant, accountant_label and (PLD) pld_error_estimate, pld_discretization,
// pld_tail_mass to out.
void put_accountant_fields(nlohmann::json& out, const AccountedEpsilon& epsilon);

}  // namespace dplab::privacy
