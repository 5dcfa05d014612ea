// LatestOnlyTask<Query, Result>: runs an engine computation off the GUI thread so that a control
// never blocks it (issue #9 item 9: nothing over 16 ms on the GUI thread). One worker thread
// computes one query at a time; a query submitted while it is busy waits, and a newer one
// replaces it (latest value wins: a slider dragged over 30 values computes the one under the
// pointer, not the 28 in between). Each result is handed to `deliver` on the GUI thread (a queued
// call on `context`) with the sequence number of its query, in submission order, so a view can
// show intermediate results while a drag goes on and knows when the newest has arrived.
// Failures (exceptions) go to `fail`. Nothing is delivered once the task or `context` is gone.
// The worker holds only the shared state below (queue, compute function, a TaskControl that
// watches `context`), never the task object. On destruction the cancel flag (the optional second
// argument of `compute`) is set and, with OnDestroy::kWait (the default, for a compute function
// that uses its owner's members), the destructor waits for a computation in progress; with
// OnDestroy::kDetach (a compute function that captures values only) it returns at once and the
// worker ends by itself.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "async/background_task.h"

namespace dplab::ui {

template <class Query, class Result>
class LatestOnlyTask {
 public:
  using Compute = std::function<Result(const Query&)>;
  using CancellableCompute = std::function<Result(const Query&, const std::atomic<bool>& cancel)>;
  using Deliver = std::function<void(int sequence, const Result&)>;
  using Fail = std::function<void(int sequence, const QString&)>;
  enum class OnDestroy { kWait, kDetach };

  LatestOnlyTask(QObject* context, Compute compute, Deliver deliver, Fail fail,
                 OnDestroy on_destroy = OnDestroy::kWait)
      : LatestOnlyTask(context,
                       CancellableCompute(
                           [compute = std::move(compute)](
                               const Query& q, const std::atomic<bool>&) { return compute(q); }),
                       std::move(deliver), std::move(fail), on_destroy) {}
  LatestOnlyTask(QObject* context, CancellableCompute compute, Deliver deliver, Fail fail,
                 OnDestroy on_destroy = OnDestroy::kWait)
      : state_(std::make_shared<State>()), on_destroy_(on_destroy) {
    state_->control = async::TaskControl::create(context);
    state_->compute = std::move(compute);
    state_->deliver = std::move(deliver);
    state_->fail = std::move(fail);
    thread_ = std::thread([state = state_] { loop(state); });
    state_->thread_id = thread_.get_id();
  }
  ~LatestOnlyTask() {
    {
      std::lock_guard lock(state_->mutex);
      state_->stop = true;
      state_->pending.reset();
    }
    state_->closed = true;  // GUI thread: queued deliveries are dropped
    state_->control->cancel();
    state_->control->release();  // stop watching the context, which may live on
    state_->wake.notify_one();
    if (on_destroy_ == OnDestroy::kWait) {
      thread_.join();
    } else {
      thread_.detach();
    }
  }
  LatestOnlyTask(const LatestOnlyTask&) = delete;
  LatestOnlyTask& operator=(const LatestOnlyTask&) = delete;

  // Queues `query` (dropping a waiting one); returns its sequence number (1, 2, …).
  int submit(Query query) {
    int sequence = 0;
    {
      std::lock_guard lock(state_->mutex);
      state_->pending = std::move(query);
      sequence = state_->pending_sequence = ++state_->last_sequence;
    }
    state_->wake.notify_one();
    return sequence;
  }
  // A sequence number for work done outside the task (a synchronous redraw) that must count as
  // newer than everything submitted so far.
  int nextSequence() {
    std::lock_guard lock(state_->mutex);
    return ++state_->last_sequence;
  }
  // True while a query waits or is computed.
  bool busy() const {
    std::lock_guard lock(state_->mutex);
    return state_->pending.has_value() || state_->computing;
  }
  // The thread the computations run on (tests: it is not the GUI thread).
  std::thread::id computeThread() const { return state_->thread_id; }
  // Computations started so far (a replaced query never starts).
  int computations() const {
    std::lock_guard lock(state_->mutex);
    return state_->computations;
  }

 private:
  struct State {
    std::shared_ptr<async::TaskControl> control;
    CancellableCompute compute;
    Deliver deliver;  // GUI thread only
    Fail fail;        // GUI thread only
    std::atomic<bool> closed{false};
    std::thread::id thread_id;
    std::mutex mutex;
    std::condition_variable wake;
    std::optional<Query> pending;  // guarded by mutex, as are the fields below
    int pending_sequence = 0;
    int last_sequence = 0;
    int computations = 0;
    bool computing = false;
    bool stop = false;
  };

  static void loop(const std::shared_ptr<State>& state) {
    for (;;) {
      Query query;
      int sequence = 0;
      {
        std::unique_lock lock(state->mutex);
        state->wake.wait(lock, [&] { return state->stop || state->pending.has_value(); });
        if (state->stop) return;
        query = std::move(*state->pending);
        state->pending.reset();
        sequence = state->pending_sequence;
        state->computing = true;
        ++state->computations;
      }
      std::optional<Result> result;
      QString error;
      try {
        result = state->compute(query, state->control->cancelFlag());
      } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
      }
      {
        std::lock_guard lock(state->mutex);
        state->computing = false;
      }
      if (result) {
        state->control->post([state, sequence, r = std::move(*result)] {
          if (!state->closed) state->deliver(sequence, r);
        });
      } else {
        state->control->post([state, sequence, error] {
          if (!state->closed) state->fail(sequence, error);
        });
      }
    }
  }

  std::shared_ptr<State> state_;
  OnDestroy on_destroy_;
  std::thread thread_;
};

}  // namespace dplab::ui
