// Ctrl-C (SIGINT), SIGTERM and SIGUSR1 for the long commands (train, sparse-train, oso-protocol,
// bench, reproduce; tune and run-jobs through run_cancellable, cli/tune_progress.h), one rule for
// all: while an InterruptScope lives, the signal
// only sets a flag (an atomic store, signal-safe) that the work checks before every step; the
// command then stops, keeps what is done (the curve so far, finished runs), says so, and exits
// 128 + the signal number: 130 (SIGINT), 143 (SIGTERM), 138 (SIGUSR1; Linux numbers it 10).
// SIGTERM and SIGUSR1 are what Slurm sends before a time limit or a preemption (SIGUSR1 on
// request: the `#SBATCH --signal` line of the generated script, cluster/slurm_script.cpp). A
// second signal kills at once (the default action), for a stuck process.
#pragma once

#include <atomic>
#include <string>

namespace dplab::cli {

class InterruptScope {
 public:
  InterruptScope();   // installs the SIGINT, SIGTERM and SIGUSR1 handlers
  ~InterruptScope();  // restores the previous ones
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // Set by the first SIGINT/SIGTERM/SIGUSR1; hand it to the engine's `cancel` parameters.
  const std::atomic<bool>* flag() const;
  bool interrupted() const;
  // The signal that set the flag (0 before any).
  int signal() const;
  // interrupt_exit_status(signal()) and interrupt_description(signal()).
  int exit_status() const;
  std::string what_happened() const;
};

// 128 + the signal: 130 after SIGINT, 143 after SIGTERM, 138 after SIGUSR1 (the shells' rule,
// so `$?` reads as "killed by" the signal that stopped the command).
int interrupt_exit_status(int signal);
// "cancelled" (SIGINT), "terminated" (SIGTERM) or "terminated by SIGUSR1", for the message that
// says what was kept.
std::string interrupt_description(int signal);

}  // namespace dplab::cli
