#include "core/pause_gate.h"

namespace dplab {

void PauseGate::pause() {
  std::lock_guard lock(mutex_);
  if (paused_.load()) return;
  paused_at_ = Clock::now();
  paused_.store(true);
}

void PauseGate::resume() {
  {
    std::lock_guard lock(mutex_);
    if (!paused_.load()) return;
    paused_total_ += Clock::now() - paused_at_;
    paused_.store(false);
  }
  wake_.notify_all();
}

void PauseGate::release_waiters() {
  { std::lock_guard lock(mutex_); }  // a waiter between its check and its wait sees the flag
  wake_.notify_all();
}

void PauseGate::wait_while_paused(const std::atomic<bool>* cancel) {
  if (!paused_.load(std::memory_order_relaxed)) return;
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [&] { return !paused_.load() || (cancel && cancel->load()); });
}

double PauseGate::paused_seconds() const {
  std::lock_guard lock(mutex_);
  Clock::duration total = paused_total_;
  if (paused_.load()) total += Clock::now() - paused_at_;
  return std::chrono::duration<double>(total).count();
}

}  // namespace dplab
