// Off-GUI-thread work in one home (issue #26 item 5). startInBackground(context, work, on_result,
// on_error) runs `work` once on a detached worker thread and hands its result (on_result) or its
// failure (on_error: the exception's message, and whether it was dplab::Cancelled) to the GUI
// thread as a queued call on `context`. If `context` has been destroyed by then, nothing is
// delivered and nothing crashes: the worker holds only the shared TaskControl, never the widget,
// so a window closing during a slow load returns at once (the load finishes, or stops at its next
// poll of the cancel flag, in the background, and its result is dropped).
// Cancellation: TaskHandle::cancel() — or the death of `context` — sets the atomic flag the work
// receives (TaskControl::cancelFlag(), the `const std::atomic<bool>*` the engine's long loops
// poll). TaskControl::post() lets the work send progress to the GUI thread on the same terms.
// The work must capture values or shared state only. An owner whose work does touch its members
// (the run controller) calls TaskHandle::wait() in its destructor.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>

#include "core/error.h"

namespace dplab::ui::async {

// What the worker and the GUI side share. Created on the GUI thread (it watches `context`).
class TaskControl : public std::enable_shared_from_this<TaskControl> {
 public:
  static std::shared_ptr<TaskControl> create(QObject* context);
  TaskControl(const TaskControl&) = delete;
  TaskControl& operator=(const TaskControl&) = delete;

  // The flag long engine loops poll (they throw dplab::Cancelled or return early).
  const std::atomic<bool>& cancelFlag() const { return cancel_; }
  bool cancelRequested() const { return cancel_.load(); }
  void cancel() { cancel_ = true; }

  // Any thread: runs `fn` on the context's thread later, unless the context has died by then
  // (or dies first). False when the context is already gone.
  bool post(std::function<void()> fn);
  // Any thread: the context is still alive.
  bool contextAlive() const;

  // Worker side: the work has ended (after its last post). wait() blocks until then.
  void markDone();
  bool done() const;
  void wait() const;

  // GUI thread: stop watching the context (its destroyed() connection), after the last delivery.
  void release();

 private:
  TaskControl() = default;
  void contextDestroyed();

  std::atomic<bool> cancel_{false};
  mutable std::mutex mutex_;
  mutable std::condition_variable done_changed_;
  QObject* receiver_ = nullptr;  // guarded by mutex_; null once the context is destroyed
  bool done_ = false;            // guarded by mutex_
  QMetaObject::Connection watch_;
};

// The GUI side of one started task. Copyable; dropping every copy neither cancels nor waits.
class TaskHandle {
 public:
  TaskHandle() = default;
  explicit TaskHandle(std::shared_ptr<TaskControl> control) : control_(std::move(control)) {}

  void cancel() const {
    if (control_) control_->cancel();
  }
  bool cancelRequested() const { return control_ && control_->cancelRequested(); }
  // True from start until the work has returned (its delivery may still be queued).
  bool running() const { return control_ && !control_->done(); }
  // Blocks until the work has returned (for owners whose work uses their members).
  void wait() const {
    if (control_) control_->wait();
  }
  bool valid() const { return control_ != nullptr; }

 private:
  std::shared_ptr<TaskControl> control_;
};

// How the work ended when it did not return a result.
struct Failure {
  QString message;         // the exception's what(): a dplab::Error names the field/line/byte
  bool cancelled = false;  // it threw dplab::Cancelled
};

// Starts `work` (Result work(TaskControl&)) on a new detached thread. On the GUI thread, later:
// on_result(Result) (or on_result() for void work), or on_failure(const Failure&). Call on the
// thread `context` lives on.
template <class Work, class OnResult, class OnFailure>
TaskHandle startInBackground(QObject* context, Work work, OnResult on_result,
                             OnFailure on_failure) {
  using Result = std::invoke_result_t<Work&, TaskControl&>;
  std::shared_ptr<TaskControl> control = TaskControl::create(context);
  std::thread([control, work = std::move(work), on_result = std::move(on_result),
               on_failure = std::move(on_failure)]() mutable {
    Failure failure;
    bool ok = false;
    try {
      // Moved out so that what the work captured is released before markDone(): an owner that
      // waits (TaskHandle::wait) knows its copies are gone.
      Work local = std::move(work);
      if constexpr (std::is_void_v<Result>) {
        local(*control);
        ok = true;
        control->post([control, on_result = std::move(on_result)]() mutable {
          control->release();
          on_result();
        });
      } else {
        Result result = local(*control);
        ok = true;
        control->post(
            [control, on_result = std::move(on_result), result = std::move(result)]() mutable {
              control->release();
              on_result(std::move(result));
            });
      }
    } catch (const Cancelled& e) {
      failure = {QString::fromUtf8(e.what()), true};
    } catch (const std::exception& e) {
      failure = {QString::fromUtf8(e.what()), false};
    } catch (...) {
      failure = {QStringLiteral("unknown error"), false};
    }
    if (!ok) {
      control->post([control, on_failure = std::move(on_failure), failure]() mutable {
        control->release();
        on_failure(failure);
      });
    }
    control->markDone();
  }).detach();
  return TaskHandle(control);
}

}  // namespace dplab::ui::async
