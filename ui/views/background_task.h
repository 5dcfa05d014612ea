// BackgroundTask: runs one long engine computation (a paper figure: minutes of training) on a
// worker std::thread, so the GUI thread never waits for it. The work gets a cancel flag (the
// engine checks it before every training step and throws dplab::Cancelled) and a progress
// callback (message, fraction done in [0, 1]) that may be called from the worker; progress and
// the end are delivered on the GUI thread as Qt signals. One computation at a time.
// Results: the work writes them into storage owned by the caller (captured by the lambda); the
// worker is joined before finished() is emitted, so the caller may read them in its slot.
// Destruction cancels and joins (the engine stops within one training step). The worker runs at
// background priority (nice +10), as the tuning runner's workers do.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <string>
#include <thread>

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
  bool busy() const { return worker_.joinable(); }

 signals:
  void progress(const QString& message, double fraction_done);
  // ok: the work returned; cancelled: it ended by dplab::Cancelled; otherwise error says why.
  void finished(bool ok, bool cancelled, const QString& error);

 private:
  void onDone(bool ok, bool cancelled, const QString& error);

  std::thread worker_;
  std::atomic<bool> cancel_{false};
};

}  // namespace dplab::ui
