// libFuzzer harness: experiment JSON (experiment_config.h). A parsed config must survive the
// to_json -> parse round trip unchanged.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "experiment/experiment_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto config = dplab::experiment::parse_experiment_text(text, "fuzz");
    const auto json = dplab::experiment::to_json(config);
    const auto again = dplab::experiment::parse_experiment(json);
    if (dplab::experiment::to_json(again) != json) __builtin_trap();
  } catch (const dplab::Error&) {
  }
  return 0;
}
