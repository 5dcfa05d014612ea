// The experiment's "accounting" block (see accounting_config.h).
#include "experiment/accounting_config.h"

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_reader.h"

namespace dplab::experiment {

privacy::AccountingOptions AccountingConfig::rdp_options() const {
  return conversion == privacy::Conversion::kClassic ? privacy::paper_compatible_options()
                                                     : privacy::AccountingOptions{};
}

std::string to_string(privacy::Conversion conversion) {
  return conversion == privacy::Conversion::kClassic ? "classic" : "improved";
}

std::string to_string(privacy::LogBase base) {
  return base == privacy::LogBase::kTwo ? "2" : "e";
}

AccountingConfig parse_accounting(const nlohmann::json& j, const std::string& path) {
  JsonReader in(j, path);
  AccountingConfig a;
  if (const auto c = in.optional_choice("conversion", {"classic", "improved"}))
    a.conversion = *c == 0 ? privacy::Conversion::kClassic : privacy::Conversion::kImproved;
  if (const auto b = in.optional_choice("lt_log_base", {"e", "2"}))
    a.lt_log_base = *b == 0 ? privacy::LogBase::kNatural : privacy::LogBase::kTwo;
  in.reject_unknown();
  return a;
}

nlohmann::json accounting_to_json(const AccountingConfig& accounting) {
  return {{"conversion", to_string(accounting.conversion)},
          {"lt_log_base", to_string(accounting.lt_log_base)}};
}

}  // namespace dplab::experiment
