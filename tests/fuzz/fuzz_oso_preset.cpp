// libFuzzer harness: the OSO protocol preset (tuning/oso_protocol.h, `dplab-cli oso-protocol
// --preset FILE` and the GUI's OSO page), read from a file by the one reader like the command
// does. A preset that parses satisfies invalid_oso_field (the one rule of flags, presets and the
// GUI) and plans at most kMaxTrainingJobs runs; preset_kind tells it apart from the other kinds.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/limits.h"
#include "experiment/preset_kind.h"
#include "tuning/oso_protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const nlohmann::json j = dplab::parse_json_text(text, "fuzz");
    (void)dplab::experiment::preset_kind(j);
  } catch (const dplab::Error&) {
  }
  try {
    const auto config = dplab::tuning::parse_oso_protocol(text, "fuzz");
    if (dplab::tuning::invalid_oso_field(config)) __builtin_trap();
    const auto plan = dplab::tuning::plan_oso_protocol(config);
    if (plan.total_runs < 1 || plan.total_runs > dplab::kMaxTrainingJobs) __builtin_trap();
  } catch (const dplab::Error&) {
  }
  return 0;
}
