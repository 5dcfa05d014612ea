// BackgroundTask: runs one long engine computation (a paper figure: minutes of training) off the
// GUI thread (async::startInBackground, ui/async/background_task.h), so the GUI thread never
// waits for it. The work gets a cancel flag (the
// engine checks it before every training step and throws dplab::Cancelled) and a progress
// callback (message, fraction done in [0, 1]) that may be called from the worker; progress and
// the end are delivered on the GUI thread as Qt signals. One computation at a time.
// Results: the work writes them into storage shared with the caller (a shared_ptr captured by the
// lambda, never the caller itself); the work has returned before finished() is emitted, so the
// caller may read them in its slot. Destruction cancels and returns at once: the engine stops
// within one training step on its own and nothing is delivered. The worker runs at background
// priority (nice +10), as the tuning runner's workers do.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <string>

#include "async/background_task.h"

namespace dplab::ui {

class BackgroundTask : public QObject {
  Q_OBJECT
 public:
  using ProgressFn = std::function<void(const std::string& message, double fraction_done)>;
  using Work = std::function<void(const std::atomic<bool>& cancel, const ProgressFn& progress)>;

  explicit BackgroundTask(QObject* parent = nullptr);
  ~BackgroundTask() override;

  // Starts `work` on the worker; false (and nothing started) when one is still running.
  bool start(Work work);
  void cancel();  // idempotent; finished(false, true, ...) follows
  bool busy() const { return busy_; }

 signals:
  void progress(const QString& message, double fraction_done);
  // ok: the work returned; cancelled: it ended by dplab::Cancelled; otherwise error says why.
  void finished(bool ok, bool cancelled, const QString& error);

 private:
  void onDone(bool ok, bool cancelled, const QString& error);

  async::TaskHandle task_;
  bool busy_ = false;  // from start() until finished() is emitted
};

}  // namespace dplab::ui
