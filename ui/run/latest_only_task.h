// LatestOnlyTask<Query, Result>: runs an engine computation off the GUI thread so that a control
// never blocks it (issue #9 item 9: nothing over 16 ms on the GUI thread). One worker thread
// computes one query at a time; a query submitted while it is busy waits, and a newer one
// replaces it (latest value wins: a slider dragged over 30 values computes the one under the
// pointer, not the 28 in between). Each result is handed to `deliver` on the GUI thread (a queued
// call on `context`) with the sequence number of its query, in submission order, so a view can
// show intermediate results while a drag goes on and knows when the newest has arrived.
// Failures (exceptions) go to `fail`. The destructor waits for a computation in progress (it
// cannot be interrupted); queued deliveries die with `context`.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace dplab::ui {

template <class Query, class Result>
class LatestOnlyTask {
 public:
  using Compute = std::function<Result(const Query&)>;
  using Deliver = std::function<void(int sequence, const Result&)>;
  using Fail = std::function<void(int sequence, const QString&)>;

  LatestOnlyTask(QObject* context, Compute compute, Deliver deliver, Fail fail)
      : context_(context),
        compute_(std::move(compute)),
        deliver_(std::move(deliver)),
        fail_(std::move(fail)),
        thread_([this] { loop(); }) {}
  ~LatestOnlyTask() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  LatestOnlyTask(const LatestOnlyTask&) = delete;
  LatestOnlyTask& operator=(const LatestOnlyTask&) = delete;

  // Queues `query` (dropping a waiting one); returns its sequence number (1, 2, …).
  int submit(Query query) {
    int sequence = 0;
    {
      std::lock_guard lock(mutex_);
      pending_ = std::move(query);
      sequence = pending_sequence_ = ++last_sequence_;
    }
    wake_.notify_one();
    return sequence;
  }
  // A sequence number for work done outside the task (a synchronous redraw) that must count as
  // newer than everything submitted so far.
  int nextSequence() {
    std::lock_guard lock(mutex_);
    return ++last_sequence_;
  }
  // True while a query waits or is computed.
  bool busy() const {
    std::lock_guard lock(mutex_);
    return pending_.has_value() || computing_;
  }
  // The thread the last computation ran on (tests: it is not the GUI thread).
  std::thread::id computeThread() const { return thread_.get_id(); }
  // Computations started so far (a replaced query never starts).
  int computations() const {
    std::lock_guard lock(mutex_);
    return computations_;
  }

 private:
  void loop() {
    for (;;) {
      Query query;
      int sequence = 0;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stop_ || pending_.has_value(); });
        if (stop_) return;
        query = std::move(*pending_);
        pending_.reset();
        sequence = pending_sequence_;
        computing_ = true;
        ++computations_;
      }
      std::optional<Result> result;
      QString error;
      try {
        result = compute_(query);
      } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
      }
      {
        std::lock_guard lock(mutex_);
        computing_ = false;
      }
      if (result) {
        QMetaObject::invokeMethod(
            context_, [this, sequence, r = std::move(*result)] { deliver_(sequence, r); },
            Qt::QueuedConnection);
      } else {
        QMetaObject::invokeMethod(
            context_, [this, sequence, error] { fail_(sequence, error); }, Qt::QueuedConnection);
      }
    }
  }

  QObject* context_;
  Compute compute_;
  Deliver deliver_;
  Fail fail_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Query> pending_;
  int pending_sequence_ = 0;
  int last_sequence_ = 0;
  int computations_ = 0;
  bool computing_ = false;
  bool stop_ = false;
  std::thread thread_;  // last: started after every other member is initialised
};

}  // namespace dplab::ui
