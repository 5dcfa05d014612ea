// Who is writing a run: enough to tell later, from another process, whether that writer is still
// alive. A pid alone is not enough (pids are reused), so the identity is host + boot id + pid +
// the process start time (field 22 of /proc/PID/stat, in clock ticks since boot).
// Used to mark runs "interrupted" when their writer died (kill -9, crash, power cut).
#pragma once

#include <cstdint>
#include <string>

namespace dplab::store {

struct WriterIdentity {
  std::string host;
  std::string boot_id;  // /proc/sys/kernel/random/boot_id
  std::int64_t pid = 0;
  std::int64_t start_ticks = 0;  // process start time, clock ticks after boot
};

enum class WriterState { kAlive, kGone, kUnknown };

// This process.
WriterIdentity current_writer();

// kGone when the writer ran on this host and its process no longer exists (or the pid now
// belongs to a later process, or the machine rebooted); kUnknown for another host or missing
// data (old rows); kAlive otherwise.
WriterState writer_state(const WriterIdentity& writer);

}  // namespace dplab::store
