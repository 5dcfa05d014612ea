// The "accounting" block of an experiment: which RDP -> (epsilon, delta) conversion and which
// logarithm in Liu & Talwar's hard stop the search's PLANNING figures use (the single-run, MA and
// LT epsilons `dplab-cli tune` prints per optimizer; the epsilon of what was released always uses
// the tightest valid accounting, release_cost.h).
//
//   conversion   "improved" (default; Balle et al. 2020 Thm 21, dplab's accountant) or "classic"
//                (Mironov 2017 Prop. 3, minimised over continuous orders in (1, 512]: the main
//                paper's accountant, privacy::paper_compatible_options()). Both are valid upper
//                bounds; classic is looser. With it, the Adult Table 1 setting (sigma = 4,
//                L = 250, T = 10,000, delta = 1e-6) gives the paper's 5.01 (LT, K = 40) and 1.91
//                (MA, K = 4) instead of dplab's tighter numbers.
//   lt_log_base  "e" (default) or "2": Upsilon = (1/gamma) log(1/delta2) with ln, as in Liu &
//                Talwar and the paper's Table 1, or with log2 (the paper's Figure 1 notebook; a
//                larger Upsilon, so a larger, still valid epsilon).
// JSON: "accounting": {"conversion": "classic"|"improved", "lt_log_base": "e"|"2"}; errors name
// the key, e.g. `accounting.lt_log_base: expected "e" or "2", got "10"`.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "privacy/accounting/rdp_accountant.h"
#include "privacy/selection/private_selection.h"

namespace dplab::experiment {

struct AccountingConfig {
  privacy::Conversion conversion = privacy::Conversion::kImproved;
  privacy::LogBase lt_log_base = privacy::LogBase::kNatural;

  // The RDP accountant's options: the default ones, or paper_compatible_options() for classic.
  privacy::AccountingOptions rdp_options() const;
  bool operator==(const AccountingConfig& other) const = default;
};

std::string to_string(privacy::Conversion conversion);  // "improved" | "classic"
std::string to_string(privacy::LogBase base);           // "e" | "2"

// Parses the "accounting" object (`path` names it in errors); throws ParseError.
AccountingConfig parse_accounting(const nlohmann::json& j, const std::string& path = "accounting");
nlohmann::json accounting_to_json(const AccountingConfig& accounting);

}  // namespace dplab::experiment
