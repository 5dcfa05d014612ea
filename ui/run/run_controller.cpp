#include "run/run_controller.h"

#include <QDir>
#include <QFileInfo>
#include <QMetaObject>

#include "run/run_data.h"
#include "store/store.h"
#include "tuning/runner.h"

namespace dplab::ui {

namespace {
constexpr int kPollMs = 120;  // ≥ 5 redraws per second, one replot per tick
}  // namespace

RunController::RunController(RunData* data, QObject* parent) : QObject(parent), data_(data) {
  qRegisterMetaType<dplab::tuning::Progress>("dplab::tuning::Progress");
  timer_.setInterval(kPollMs);
  connect(&timer_, &QTimer::timeout, this, &RunController::tick);
}

RunController::~RunController() {
  cancel();
  if (worker_.joinable()) worker_.join();
}

void RunController::setHistoryPath(const QString& path) {
  if (path == history_path_) return;
  history_path_ = path;
  store_.reset();
}

store::Store* RunController::history() {
  if (!store_ && !history_path_.isEmpty()) {
    try {
      QDir().mkpath(QFileInfo(history_path_).absolutePath());
      store_ = std::make_shared<store::Store>(history_path_.toStdString());
    } catch (const std::exception& e) {
      emit message(tr("run history: %1").arg(QString::fromStdString(e.what())), true);
      history_path_.clear();
    }
  }
  return store_.get();
}

std::shared_ptr<store::Store> RunController::sharedHistory() {
  history();
  return store_;
}

bool RunController::start(const experiment::ExperimentConfig& config,
                          std::shared_ptr<const data::TrainValidationSplit> preloaded,
                          int threads) {
  return launch(config, std::move(preloaded), threads, -1);
}

bool RunController::resumeRun(qint64 id, int threads) {
  if (running_) return false;
  store::Store* store = history();
  if (!store) {
    emit message(tr("resume: no run history is open"), true);
    return false;
  }
  experiment::ExperimentConfig config;
  try {
    // The config only (no curves): the worker loads the full run.
    config = store->load_results(id, /*with_curves=*/false).config;
  } catch (const std::exception& e) {
    emit message(tr("resume #%1: %2").arg(id).arg(QString::fromStdString(e.what())), true);
    return false;
  }
  if (config.release.mode != experiment::ReleaseMode::kExplore) {
    emit message(tr("resume #%1: a private release resumes from dplab-cli tune --resume %1")
                     .arg(id),
                 true);
    return false;
  }
  return launch(config, nullptr, threads, id);
}

bool RunController::launch(const experiment::ExperimentConfig& config,
                           std::shared_ptr<const data::TrainValidationSplit> preloaded,
                           int threads, qint64 resume_id) {
  if (running_) return false;
  if (worker_.joinable()) worker_.join();
  running_ = true;
  plan_received_ = false;
  ticks_ = 0;
  cancel_requested_ = false;
  worker_done_ = false;
  resuming_id_ = resume_id;
  {
    std::lock_guard lock(mutex_);
    final_.reset();
    worker_error_.clear();
    store_error_.clear();
    runner_ = nullptr;
    paused_ = false;
  }
  progress_ = {};
  monitor_ = std::make_shared<tuning::RunMonitor>();
  std::shared_ptr<store::Store> shared_store = sharedHistory();
  emit started();
  timer_.start();
  auto monitor = monitor_;
  // The GUI runs and shows every run (explore). A private release mode runs from
  // `dplab-cli tune --release private`; here it would be mislabelled, so the GUI says so and
  // explores.
  experiment::ExperimentConfig run_config = config;
  if (run_config.release.mode != experiment::ReleaseMode::kExplore) {
    emit message(tr("The GUI explores: every run is shown and charged. Private release modes "
                    "(only the winner released) run from dplab-cli tune --release private."),
                 false);
    run_config.release = experiment::ReleaseConfig{};
  }
  worker_ = std::thread([this, config = run_config, preloaded, threads, monitor, shared_store,
                         resume_id] {
    store::Store* store = shared_store.get();
    try {
      // Resume: the stored run as `dplab-cli tune --resume` reads it (all jobs, with curves).
      std::optional<tuning::SearchResults> earlier;
      if (resume_id >= 0) earlier = store->load_results(resume_id);
      auto data = preloaded ? preloaded : tuning::load_experiment_data(config);
      tuning::RunOptions options;
      options.threads = threads;
      options.background_priority = true;  // the GUI thread must never wait for a core
      tuning::Runner runner(config, data, options);
      if (earlier) runner.resume_from(*earlier);
      std::unique_ptr<store::StoreWriter> writer;
      if (store) {
        writer = std::make_unique<store::StoreWriter>(*store);
        if (resume_id >= 0) writer->resume(resume_id);
        runner.add_listener(writer.get());
      }
      runner.add_listener(monitor.get());
      const tuning::SearchResults plan = runner.plan();
      QMetaObject::invokeMethod(
          this, [this, plan] { onPlan(plan); }, Qt::QueuedConnection);
      {
        std::lock_guard lock(mutex_);
        runner_ = &runner;
        if (paused_) runner.pause();
      }
      if (cancel_requested_) runner.cancel();
      tuning::SearchResults results = runner.run();
      std::lock_guard lock(mutex_);
      runner_ = nullptr;
      final_ = std::move(results);
      if (writer && writer->first_error())
        store_error_ = QString::fromStdString(*writer->first_error());
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      runner_ = nullptr;
      worker_error_ = QString::fromStdString(e.what());
    }
    worker_done_ = true;
  });
  return true;
}

void RunController::cancel() {
  cancel_requested_ = true;
  std::lock_guard lock(mutex_);
  if (runner_) runner_->cancel();
}

void RunController::pause() {
  if (!running_) return;
  {
    std::lock_guard lock(mutex_);
    if (paused_) return;
    paused_ = true;
    if (runner_) runner_->pause();
  }
  emit pausedChanged(true);
}

void RunController::resume() {
  {
    std::lock_guard lock(mutex_);
    if (!paused_) return;
    paused_ = false;
    if (runner_) runner_->resume();
  }
  emit pausedChanged(false);
}

void RunController::onPlan(const tuning::SearchResults& plan) {
  plan_received_ = true;
  data_->beginLive(plan);
}

void RunController::tick() {
  ++ticks_;
  const bool done = worker_done_;  // read before draining so that nothing is missed
  if (monitor_ && plan_received_) {
    tuning::MonitorUpdate update = monitor_->take_new();
    progress_ = update.progress;
    {
      // The runner's own counters are fresher than the last point's (and know about a pause).
      std::lock_guard lock(mutex_);
      if (runner_) progress_ = runner_->progress();
    }
    for (const std::string& e : update.new_errors) emit message(QString::fromStdString(e), true);
    data_->apply(update);
    emit progressChanged(progress_);
  }
  if (done && !plan_received_) {
    std::lock_guard lock(mutex_);
    if (worker_error_.isEmpty()) return;  // the plan is still queued: finish on the next tick
  }
  if (done) onWorkerDone();
}

void RunController::onWorkerDone() {
  timer_.stop();
  if (worker_.joinable()) worker_.join();
  running_ = false;
  resuming_id_ = -1;
  bool was_paused = false;
  {
    std::lock_guard lock(mutex_);
    was_paused = paused_;
    paused_ = false;
  }
  if (was_paused) emit pausedChanged(false);
  std::optional<tuning::SearchResults> results;
  QString error, store_error;
  {
    std::lock_guard lock(mutex_);
    results = std::move(final_);
    final_.reset();
    error = worker_error_;
    store_error = store_error_;
  }
  if (!store_error.isEmpty()) emit message(tr("run history: %1").arg(store_error), true);
  if (!error.isEmpty()) {
    emit message(tr("run failed: %1").arg(error), true);
    emit finished(false, false);
    return;
  }
  const bool cancelled = cancel_requested_;
  if (results) {
    progress_.jobs_done = progress_.jobs_total > 0 ? progress_.jobs_done : 0;
    data_->setResults(*results);
  }
  emit historyChanged();
  emit finished(true, cancelled);
}

}  // namespace dplab::ui
