// PauseGate: lets a long computation be paused between two of its steps and resumed later in the
// same process, without losing or changing anything. Workers call wait_while_paused() at points
// where their state is complete (the trainer: before each optimizer step); while the gate is
// paused they sleep there on a condition variable, holding their model, optimizer and random
// streams untouched in memory. Resuming wakes them and they continue with exactly the state they
// had, so a paused-and-resumed computation is bit-identical to an uninterrupted one (tested in
// tests/engine/test_pause_resume.cpp).
//
// A waiting worker also wakes when `cancel` (if given) becomes true and release_waiters() is
// called, so cancelling a paused run ends it at once.
// Thread-safety: every member may be called from any thread.
// Cost while running: one relaxed atomic load per step.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace dplab {

class PauseGate {
 public:
  void pause();
  void resume();
  bool paused() const { return paused_.load(std::memory_order_relaxed); }
  // Wakes every waiter so that it re-checks `cancel` (call after setting a cancel flag).
  void release_waiters();
  // Returns at once unless paused; else blocks until resume() or until `cancel` is true.
  void wait_while_paused(const std::atomic<bool>* cancel = nullptr);
  // Total time spent paused (finished pauses plus the current one), for rates and ETAs.
  double paused_seconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  std::atomic<bool> paused_{false};
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  Clock::time_point paused_at_{};
  Clock::duration paused_total_{0};
};

}  // namespace dplab
