// The --accountant rdp|pld and --pld-precision fast|default|tight flags shared by account,
// calibrate, train and tune: their --help lines here; their rules and the JSON fields that say
// which accountant produced an epsilon in the engine (privacy/selection/accountant_settings.h),
// shared with the Python module. Errors name the flag.
#pragma once

#include <string>

#include "privacy/selection/accountant_settings.h"

namespace dplab::cli {

// "rdp or pld (default: rdp): WHAT", the default from the engine's (privacy/accounting/
// accountant_choice.h), so the help line says what a run without the flag uses.
inline std::string accountant_help(const std::string& what) {
  return "rdp or pld (default: " + std::string(privacy::to_string(privacy::kDefaultRunAccountant)) +
         "): " + what;
}
inline constexpr const char* kPldPrecisionHelp =
    "PLD speed/tightness: fast (1e-2 relative error estimate), default (1e-3) or tight (1e-4)";

using AccountantFlags = privacy::AccountantSettings;
using privacy::accountant_text;
using privacy::put_accountant_fields;
using privacy::put_selection_epsilons;

// --accountant and --pld-precision as given (empty: not given).
inline AccountantFlags parse_accountant_flags(const std::string& accountant,
                                              const std::string& precision) {
  return privacy::parse_accountant_settings(accountant, precision, SettingSpelling::kFlag);
}

}  // namespace dplab::cli
