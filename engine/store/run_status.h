// The status of a run in the history (column experiments.status of the SQLite store), as an enum:
// code compares RunStatus values, never free strings. The stored text is unchanged (to_string
// gives the exact bytes every earlier version wrote and read: "running", "finished",
// "cancelled", "interrupted", "incomplete"), so old history files stay readable and the CLI's
// `history` output and JSON are byte-identical.
//   running      a writer holds the run (or held it: see interrupted)
//   finished     every job ended and is stored
//   cancelled    stopped by the user; the missing jobs can be resumed
//   interrupted  its writer died while it ran (Store::mark_interrupted_runs); resumable
//   incomplete   finished jobs the history could not store (disk full, lock held too long) are
//                missing exactly like a cancelled run's; resumable
#pragma once

#include <optional>
#include <string_view>

namespace dplab::store {

enum class RunStatus { kRunning, kFinished, kCancelled, kInterrupted, kIncomplete };

// The stored text.
std::string_view to_string(RunStatus status);
// The status a stored text names; nullopt for any other text (a newer version's status).
std::optional<RunStatus> parse_run_status(std::string_view text);

// The run has stopped (no writer is adding jobs to it).
constexpr bool has_ended(RunStatus status) {
  return status != RunStatus::kRunning;
}
// Its missing jobs can be run again with their seeds (`tune --resume`, the history's Resume).
constexpr bool is_resumable(RunStatus status) {
  return status == RunStatus::kCancelled || status == RunStatus::kInterrupted ||
         status == RunStatus::kIncomplete;
}

}  // namespace dplab::store
