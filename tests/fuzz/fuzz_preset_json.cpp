// libFuzzer harness: the preset JSONs of resources/presets (scripts/fuzz.sh seeds it with them):
// experiment files (experiment_config.h) and the objective-perturbation comparison presets
// (comparison_preset.h), through the shared JSON reader (core/json_guard.h: depth cap, duplicate
// keys refused). A parsed experiment must survive the to_json -> parse round trip unchanged.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "core/json_guard.h"
#include "experiment/experiment_config.h"
#include "objective_perturbation/comparison_preset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json json;
  try {
    json = dplab::parse_json_text(text, "fuzz");
  } catch (const dplab::Error&) {
    return 0;
  }
  try {
    const auto config = dplab::experiment::parse_experiment(json);
    const auto again = dplab::experiment::parse_experiment(dplab::experiment::to_json(config));
    if (dplab::experiment::to_json(again) != dplab::experiment::to_json(config)) __builtin_trap();
  } catch (const dplab::Error&) {
  }
  try {
    (void)dplab::objpert::parse_comparison_preset(json, "fuzz");
  } catch (const dplab::Error&) {
  }
  return 0;
}
