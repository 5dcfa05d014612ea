#include "store/run_status.h"

#include <array>
#include <utility>

namespace dplab::store {

namespace {
constexpr std::array<std::pair<RunStatus, std::string_view>, 5> kNames = {{
    {RunStatus::kRunning, "running"},
    {RunStatus::kFinished, "finished"},
    {RunStatus::kCancelled, "cancelled"},
    {RunStatus::kInterrupted, "interrupted"},
    {RunStatus::kIncomplete, "incomplete"},
}};
}  // namespace

std::string_view to_string(RunStatus status) {
  for (const auto& [value, name] : kNames) {
    if (value == status) return name;
  }
  return "unknown";
}

std::optional<RunStatus> parse_run_status(std::string_view text) {
  for (const auto& [value, name] : kNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

}  // namespace dplab::store
