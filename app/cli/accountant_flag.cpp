#include "cli/accountant_flag.h"

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

void put_accountant_fields(nlohmann::json& out, const privacy::AccountedEpsilon& epsilon) {
  out["accountant"] = privacy::to_string(epsilon.accountant);
  out["accountant_label"] = privacy::accountant_label(epsilon);
  if (epsilon.accountant == privacy::Accountant::kPld) {
    out["pld_error_bound"] = epsilon.pld_error_bound;
    out["pld_discretization"] = epsilon.pld_discretization;
    out["pld_tail_mass"] = epsilon.pld_tail_mass;
  }
}

}  // namespace dplab::cli
