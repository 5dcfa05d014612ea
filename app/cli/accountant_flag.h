// The --accountant rdp|pld and --pld-precision fast|default|tight flags shared by account,
// calibrate, train and tune: their --help lines here; their rules and the JSON fields that say
// which accountant produced an epsilon in the engine (privacy/selection/accountant_settings.h),
// shared with the Python module. Errors name the flag.
#pragma once

#include <string>

#include "privacy/selection/accountant_settings.h"

namespace dplab::cli {

inline constexpr const char* kAccountantHelp =
    "rdp (default) or pld: the accountant behind epsilon (pld: tight numerical composition with "
    "an error bound; Papernot-Steinke is always rdp)";
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
