#include "cli/poll_thread.h"

#include <utility>

namespace dplab::cli {

PollThread::PollThread(std::chrono::milliseconds period, std::function<void()> poll)
    : thread_([this, period, poll = std::move(poll)] {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!wake_.wait_for(lock, period, [this] { return stop_; })) {
          lock.unlock();  // the owner may stop us while poll runs
          poll();
          lock.lock();
        }
      }) {}

PollThread::~PollThread() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

}  // namespace dplab::cli
