// The --accountant rdp|pld and --pld-precision fast|default|tight flags shared by account,
// calibrate, train and tune, and the JSON fields that say which accountant produced an epsilon
// ("accountant": "pld", "accountant_label": "accountant: pld (error <= ..., grid ..., tail ...)",
// the PLD error bound, grid and tail mass). Parsing errors are UsageErrors naming the flag.
// Defaults (engine/privacy/accounting/accountant_choice.h): RDP; PLD on request.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "privacy/accounting/accountant_choice.h"
#include "privacy/selection/private_selection.h"

namespace dplab::cli {

inline constexpr const char* kAccountantHelp =
    "rdp (default) or pld: the accountant behind epsilon (pld: tight numerical composition with "
    "an error bound; Papernot-Steinke is always rdp)";
inline constexpr const char* kPldPrecisionHelp =
    "PLD speed/tightness: fast (1e-2 relative error estimate), default (1e-3) or tight (1e-4)";

// Empty text: the fallback.
privacy::Accountant parse_accountant_flag(const std::string& text, privacy::Accountant fallback);
privacy::PldOptions parse_pld_precision_flag(const std::string& text);

// Both flags resolved: the accountant of single runs / MA and of LT (PLD for LT only when asked).
struct AccountantFlags {
  privacy::Accountant run = privacy::kDefaultRunAccountant;
  privacy::Accountant lt = privacy::kDefaultLtAccountant;
  bool given = false;  // --accountant was on the command line
  privacy::PldOptions pld;
};
AccountantFlags parse_accountant_flags(const std::string& accountant_text,
                                       const std::string& precision_text);

// A search's three epsilons under the flags: epsilon_single_run, epsilon_ma (K runs composed) and
// epsilon_lt (gamma, delta2), each with its accountant fields (accountant, accountant_lt, ...).
// `rdp` and `lt_log_base` are the experiment's "accounting" block (accounting_config.h; RDP's
// conversion, LT's logarithm), written as "conversion" (RDP only) and "lt_log_base".
void put_selection_epsilons(nlohmann::json& out, const privacy::SubsampledGaussian& run,
                            int candidates, double delta, double gamma, double delta2,
                            const AccountantFlags& flags,
                            const privacy::AccountingOptions& rdp = {},
                            privacy::LogBase lt_log_base = privacy::LogBase::kNatural);

// "rdp" / "rdp, classic conversion" / "pld ..." for a line of text: the accountant of an object
// written by put_selection_epsilons, `key` "accountant" or "accountant_lt".
std::string accountant_text(const nlohmann::json& j, const char* key);

// Adds accountant, accountant_label and (PLD) pld_error_estimate, pld_discretization,
// pld_tail_mass to out.
void put_accountant_fields(nlohmann::json& out, const privacy::AccountedEpsilon& epsilon);

}  // namespace dplab::cli
