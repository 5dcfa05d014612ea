#include "async/background_computation.h"

#include "core/thread_priority.h"

namespace dplab::ui {

BackgroundTask::BackgroundTask(QObject* parent) : QObject(parent) {}

BackgroundTask::~BackgroundTask() {
  task_.cancel();  // the worker stops at its next check; its results die with it
}

bool BackgroundTask::start(Work work) {
  if (busy_) return false;
  busy_ = true;
  task_ = async::startInBackground(
      this,
      // `self` is only dereferenced by the posted progress calls, on the GUI thread, which run only
      // while this object (the context) lives.
      [self = this, work = std::move(work)](async::TaskControl& control) {
        lower_this_thread_priority();  // the GUI thread keeps a core (core/thread_priority.h)
        const ProgressFn report = [self, &control](const std::string& message, double fraction) {
          control.post([self, text = QString::fromStdString(message), fraction] {
            if (self->busy_) emit self->progress(text, fraction);
          });
        };
        work(control.cancelFlag(), report);
      },
      [this] { onDone(true, false, QString()); },
      [this](const async::Failure& failure) {
        // An error after a cancel request counts as the cancel (the engine may stop by throwing
        // something else, e.g. an empty result).
        onDone(false, failure.cancelled || task_.cancelRequested(),
               failure.cancelled ? QString() : failure.message);
      });
  return true;
}

void BackgroundTask::cancel() {
  task_.cancel();
}

void BackgroundTask::onDone(bool ok, bool cancelled, const QString& error) {
  busy_ = false;
  emit finished(ok, cancelled, error);
}

}  // namespace dplab::ui
