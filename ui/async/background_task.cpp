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

bool TaskControl::post(std::function<void()> fn) {
  std::lock_guard lock(mutex_);
  if (!receiver_) return false;
  // Holding the lock: contextDestroyed() cannot clear receiver_ while the event is being posted.
  QMetaObject::invokeMethod(
      receiver_,
      [self = shared_from_this(), fn = std::move(fn)] {
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
