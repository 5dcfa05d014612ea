// The experiment's "accounting" block (see accounting_config.h).
#include "experiment/accounting_config.h"

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_guard.h"

namespace dplab::experiment {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw ParseError(path + ": " + message);
}

std::string text_at(const nlohmann::json& j, const std::string& key, const std::string& path,
                    const char* expected) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_string()) {
    fail(path + "." + key,
         std::string("expected ") + expected + " (a string), got " + json_excerpt(v, 60));
  }
  return v.get<std::string>();
}

}  // namespace

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
  if (!j.is_object()) fail(path, "expected an object, got " + json_excerpt(j, 60));
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() != "conversion" && it.key() != "lt_log_base") {
      fail(path + "." + it.key(), "unknown key (expected conversion or lt_log_base)");
    }
  }
  AccountingConfig a;
  if (j.contains("conversion")) {
    const std::string c = text_at(j, "conversion", path, "\"classic\" or \"improved\"");
    if (c == "classic")
      a.conversion = privacy::Conversion::kClassic;
    else if (c == "improved")
      a.conversion = privacy::Conversion::kImproved;
    else
      fail(path + ".conversion", "expected \"classic\" or \"improved\", got \"" + c + "\"");
  }
  if (j.contains("lt_log_base")) {
    const std::string b = text_at(j, "lt_log_base", path, "\"e\" or \"2\"");
    if (b == "e")
      a.lt_log_base = privacy::LogBase::kNatural;
    else if (b == "2")
      a.lt_log_base = privacy::LogBase::kTwo;
    else
      fail(path + ".lt_log_base", "expected \"e\" or \"2\", got \"" + b + "\"");
  }
  return a;
}

nlohmann::json accounting_to_json(const AccountingConfig& accounting) {
  return {{"conversion", to_string(accounting.conversion)},
          {"lt_log_base", to_string(accounting.lt_log_base)}};
}

}  // namespace dplab::experiment
