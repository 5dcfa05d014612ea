#include "experiment/preset_kind.h"

#include <nlohmann/json.hpp>

namespace dplab::experiment {

PresetKind preset_kind(const nlohmann::json& file) {
  if (!file.is_object()) return PresetKind::kExperiment;
  auto has_value = [&](const char* key, const char* value) {
    const auto it = file.find(key);
    return it != file.end() && it->is_string() && it->get<std::string>() == value;
  };
  if (has_value("experiment", "objpert-vs-dpsgd") || file.contains("algorithm1"))
    return PresetKind::kObjpertComparison;
  if (has_value("protocol", "oso") || file.contains("granularities"))
    return PresetKind::kOsoProtocol;
  return PresetKind::kExperiment;
}

std::optional<std::string> other_preset_hint(PresetKind kind, const std::string& path) {
  switch (kind) {
    case PresetKind::kObjpertComparison:
      return "this is an objpert --compare preset: run `dplab-cli objpert --compare " + path + "`";
    case PresetKind::kOsoProtocol:
      return "this is an oso-protocol preset: run `dplab-cli oso-protocol --preset " + path + "`";
    case PresetKind::kExperiment:
      break;
  }
  return std::nullopt;
}

}  // namespace dplab::experiment
