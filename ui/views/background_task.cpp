#include "views/background_task.h"

#include <QMetaObject>
#include <exception>

#include "core/error.h"
#include "core/thread_priority.h"

namespace dplab::ui {

BackgroundTask::BackgroundTask(QObject* parent) : QObject(parent) {}

BackgroundTask::~BackgroundTask() {
  // Queued calls posted by the worker to this object are dropped by Qt once it is destroyed.
  cancel_ = true;
  if (worker_.joinable()) worker_.join();
}

bool BackgroundTask::start(Work work) {
  if (worker_.joinable()) return false;
  cancel_ = false;
  worker_ = std::thread([this, work = std::move(work)] {
    lower_this_thread_priority();  // the GUI thread keeps a core (core/thread_priority.h)
    bool ok = false, cancelled = false;
    QString error;
    const ProgressFn report = [this](const std::string& message, double fraction) {
      QMetaObject::invokeMethod(
          this,
          [this, text = QString::fromStdString(message), fraction] {
            if (busy()) emit progress(text, fraction);
          },
          Qt::QueuedConnection);
    };
    try {
      work(cancel_, report);
      ok = true;
    } catch (const Cancelled&) {
      cancelled = true;
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    } catch (...) {
      error = QStringLiteral("unknown error");
    }
    if (cancel_ && !ok) cancelled = true;
    QMetaObject::invokeMethod(
        this, [this, ok, cancelled, error] { onDone(ok, cancelled, error); }, Qt::QueuedConnection);
  });
  return true;
}

void BackgroundTask::cancel() {
  cancel_ = true;
}

void BackgroundTask::onDone(bool ok, bool cancelled, const QString& error) {
  if (worker_.joinable()) worker_.join();  // posting this was the worker's last act
  emit finished(ok, cancelled, error);
}

}  // namespace dplab::ui
