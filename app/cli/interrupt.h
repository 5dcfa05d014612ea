// Ctrl-C (SIGINT) and SIGTERM for the long commands (train, sparse-train, oso-protocol, bench),
// one rule with tune and reproduce: while an InterruptScope lives, the signal only sets a flag
// (an atomic store, signal-safe) that the work checks before every step; the command then stops,
// keeps what is done (the curve so far, finished runs), says so, and exits 130 (SIGINT) or 143
// (SIGTERM). A second signal kills at once (the default action), for a stuck process.
#pragma once

#include <atomic>
#include <string>

namespace dplab::cli {

class InterruptScope {
 public:
  InterruptScope();   // installs the SIGINT and SIGTERM handlers
  ~InterruptScope();  // restores the previous ones
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // Set by the first SIGINT/SIGTERM; hand it to the engine's `cancel` parameters.
  const std::atomic<bool>* flag() const;
  bool interrupted() const;
  // 130 after SIGINT, 143 after SIGTERM.
  int exit_status() const;
  // "cancelled" (SIGINT) or "terminated" (SIGTERM), for the message that says what was kept.
  std::string what_happened() const;
};

}  // namespace dplab::cli
