// RunController: starts the engine tuning::Runner for an experiment on a worker thread
// (async::startInBackground; the GUI thread never blocks: data loading, candidate expansion and
// training all happen there), records the run in the SQLite history (store::StoreWriter), and polls
// the engine RunMonitor on a ~120 ms GUI timer, handing what is new to RunData — one redraw per
// tick. Cancel sets the Runner's atomic flag. Pause/resume hold the jobs before their next step
// (Runner::pause, nothing is lost; the results equal an uninterrupted run). resumeRun continues an
// interrupted or cancelled run of the history through the same engine path as `dplab-cli tune
// --resume` (Store::load_results, Runner::resume_from, StoreWriter::resume): only the missing jobs
// run. Errors are reported through message(), collected by the status panel. Private release modes
// run for real with the engine code of `dplab-cli tune --release private`
// (tuning/private_search.h): the selection's draws are made up front on the worker thread, the
// drawn runs are trained afresh in parallel by the Runner, and the winners are selected there;
// RunData then shows only them. Secure noise: the experiment seed is replaced by OS entropy on
// the worker thread and never shown or stored.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "async/background_task.h"

#include "experiment/experiment_config.h"
#include "store/spent_budget.h"
#include "tuning/private_search.h"
#include "tuning/run_monitor.h"

namespace dplab::tuning {
class Runner;
}
namespace dplab::store {
class Store;
}

namespace dplab::ui {

class RunData;

class RunController : public QObject {
  Q_OBJECT
 public:
  RunController(RunData* data, QObject* parent = nullptr);
  ~RunController() override;

  // The history database (opened lazily; empty path = no history).
  void setHistoryPath(const QString& path);
  QString historyPath() const { return history_path_; }
  store::Store* history();
  // The same store, shared: a background reader keeps it alive if the path changes meanwhile.
  std::shared_ptr<store::Store> sharedHistory();

  // Starts a run; preloaded data (may be null) avoids loading the data set again.
  bool start(const experiment::ExperimentConfig& config,
             std::shared_ptr<const data::TrainValidationSplit> preloaded, int threads);
  // Runs only the missing jobs of history run `id` (interrupted or cancelled), appending to it.
  bool resumeRun(qint64 id, int threads);
  bool running() const { return running_; }
  // The run started last is a private LT / PS search, whose number of runs is private
  // (experiment::hides_run_count): no view shows its job or step counts.
  bool hidesRunCount() const { return hides_run_count_; }
  // The run that ended last was private and released at least one winner.
  bool released() const { return released_; }
  bool paused() const { return paused_; }
  qint64 resumingRun() const { return resuming_id_; }
  tuning::Progress progress() const { return progress_; }
  int pollIntervalMs() const { return timer_.interval(); }
  int ticks() const { return ticks_; }

 public slots:
  void cancel();
  void pause();
  void resume();
  void togglePause();  // pause a running run, resume a paused one (F8, the Pause button)

 signals:
  void started();
  void pausedChanged(bool paused);
  void progressChanged(const dplab::tuning::Progress& progress);
  void finished(bool ok, bool cancelled);
  void message(const QString& text, bool is_error);
  void historyChanged();

 private:
  void run(experiment::ExperimentConfig config,
           std::shared_ptr<const data::TrainValidationSplit> preloaded, int threads,
           std::shared_ptr<tuning::RunMonitor> monitor, store::Store* store, qint64 resume_id,
           async::TaskControl& control);
  void tick();
  void onPlan(const tuning::SearchResults& plan);
  void onWorkerDone();
  bool launch(const experiment::ExperimentConfig& config,
              std::shared_ptr<const data::TrainValidationSplit> preloaded, int threads,
              qint64 resume_id);

  RunData* data_;
  QTimer timer_;
  async::TaskHandle worker_;  // its work uses our members: the destructor cancels and waits
  std::shared_ptr<tuning::RunMonitor> monitor_;
  std::mutex mutex_;
  tuning::Runner* runner_ = nullptr;  // guarded by mutex_, valid while the worker runs
  std::atomic<bool> cancel_requested_{false};
  std::atomic<bool> worker_done_{false};
  std::optional<tuning::SearchResults> final_;           // guarded by mutex_
  std::optional<tuning::PrivateRelease> final_release_;  // guarded by mutex_ (private modes)
  std::optional<store::SpentBudget> final_spent_;        // guarded by mutex_ (a stored run)
  QString worker_error_;                                 // guarded by mutex_
  QString store_error_;                                  // guarded by mutex_
  // The training guards' warnings to show when the run ends (tuning/search_warnings.h: a private
  // release's one count-free line); guarded by mutex_.
  std::vector<std::string> final_warnings_;
  bool plan_received_ = false;
  bool running_ = false;
  bool hides_run_count_ = false;
  bool released_ = false;
  bool paused_ = false;  // guarded by mutex_ for the worker's read when the runner appears
  qint64 resuming_id_ = -1;
  tuning::Progress progress_;
  int ticks_ = 0;
  QString history_path_;
  std::shared_ptr<store::Store> store_;
};

}  // namespace dplab::ui
