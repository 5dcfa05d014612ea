// A thread that calls `poll` every `period` until its owner's work ends: the long commands'
// interrupt check (reproduce) and progress redraw (tune, run-jobs) while the work runs on the
// calling thread. The destructor wakes it (a condition variable, not the next period) and joins,
// so a command returns when its work does (a quick search used to spend most of its wall time
// waiting for the next 100 ms poll: issue #49). `poll` runs on this thread only, never after the
// destructor returns.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace dplab::cli {

// The period every command polls at: a signal is noticed, and a progress line redrawn, within it.
inline constexpr std::chrono::milliseconds kPollPeriod{100};

class PollThread {
 public:
  PollThread(std::chrono::milliseconds period, std::function<void()> poll);
  ~PollThread();
  PollThread(const PollThread&) = delete;
  PollThread& operator=(const PollThread&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;  // last: started once the members it uses exist
};

}  // namespace dplab::cli
