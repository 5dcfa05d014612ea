#include "async/background_task.h"

namespace dplab::ui::async {

std::shared_ptr<TaskControl> TaskControl::create(QObject* context) {
  std::shared_ptr<TaskControl> control(new TaskControl());
  control->receiver_ = context;
  if (context) {
    // Emitted from ~QObject before Qt drops the events posted to `context`: once this has run,
    // post() posts nothing more, and what it posted before dies with the context.
    std::weak_ptr<TaskControl> weak = control;
    control->watch_ = QObject::connect(context, &QObject::destroyed, [weak] {
      if (const auto c = weak.lock()) c->contextDestroyed();
    });
  }
  return control;
}

namespace {

// Orders a posted call after everything its worker wrote, in the C++ memory model: the worker
// posts while holding it, and the call takes it before it reads its captures. Qt's event queue
// gives that order already, but through QMutex's futex, which ThreadSanitizer cannot see (it
// reported every posted call's captures as a race).
std::mutex& hand_over_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

bool TaskControl::post(std::function<void()> fn) {
  std::lock_guard hand_over(hand_over_mutex());
  std::lock_guard lock(mutex_);
  if (!receiver_) return false;
  // Holding the lock: contextDestroyed() cannot clear receiver_ while the event is being posted.
  QMetaObject::invokeMethod(
      receiver_,
      [self = shared_from_this(), fn = std::move(fn)] {
        { std::lock_guard hand_over(hand_over_mutex()); }
        if (self->contextAlive()) fn();
      },
      Qt::QueuedConnection);
  return true;
}

bool TaskControl::contextAlive() const {
  std::lock_guard lock(mutex_);
  return receiver_ != nullptr;
}

void TaskControl::contextDestroyed() {
  cancel_ = true;  // nobody is left to receive the result: work that polls stops early
  std::lock_guard lock(mutex_);
  receiver_ = nullptr;
}

void TaskControl::markDone() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  done_changed_.notify_all();
}

bool TaskControl::done() const {
  std::lock_guard lock(mutex_);
  return done_;
}

void TaskControl::wait() const {
  std::unique_lock lock(mutex_);
  done_changed_.wait(lock, [this] { return done_; });
}

void TaskControl::release() {
  QObject::disconnect(watch_);
}

}  // namespace dplab::ui::async
