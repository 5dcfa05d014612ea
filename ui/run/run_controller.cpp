#include "run/run_controller.h"

#include <QDir>
#include <QFileInfo>
#include <QMetaObject>

#include "run/run_data.h"
#include "store/store.h"
#include "tuning/data_checks.h"
#include "tuning/runner.h"

namespace dplab::ui {

namespace {
constexpr int kPollMs = 120;  // ≥ 5 redraws per second, one replot per tick
}

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
      store_ = std::make_unique<store::Store>(history_path_.toStdString());
    } catch (const std::exception& e) {
      emit message(tr("run history: %1").arg(QString::fromStdString(e.what())), true);
      history_path_.clear();
    }
  }
  return store_.get();
}

bool RunController::start(const experiment::ExperimentConfig& config,
                          std::shared_ptr<const data::TrainValidationSplit> preloaded,
                          int threads) {
  if (running_) return false;
  if (worker_.joinable()) worker_.join();
  running_ = true;
  plan_received_ = false;
  ticks_ = 0;
  cancel_requested_ = false;
  worker_done_ = false;
  {
    std::lock_guard lock(mutex_);
    final_.reset();
    worker_error_.clear();
    store_error_.clear();
    runner_ = nullptr;
  }
  progress_ = {};
  monitor_ = std::make_shared<tuning::RunMonitor>();
  store::Store* store = history();
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
  worker_ = std::thread([this, config = run_config, preloaded, threads, monitor, store] {
    try {
      auto data = preloaded ? preloaded : tuning::load_experiment_data(config);
      tuning::RunOptions options;
      options.threads = threads;
      options.background_priority = true;  // the GUI thread must never wait for a core
      tuning::Runner runner(config, data, options);
      std::unique_ptr<store::StoreWriter> writer;
      if (store) {
        writer = std::make_unique<store::StoreWriter>(*store);
        runner.add_listener(writer.get());
      }
      runner.add_listener(monitor.get());
      tuning::SearchResults plan;
      plan.config = runner.config();
      plan.candidates = runner.candidates();
      plan.mechanism = runner.mechanism();
      plan.training_size = data->train.size();
      plan.is_regression = tuning::scored_by_loss(plan.config, *data);
      plan.jobs.resize(plan.candidates.size() *
                       static_cast<std::size_t>(std::max(1, plan.config.repeats)));
      for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
        plan.jobs[i].candidate = static_cast<int>(i) / std::max(1, plan.config.repeats);
        plan.jobs[i].repeat = static_cast<int>(i) % std::max(1, plan.config.repeats);
      }
      QMetaObject::invokeMethod(
          this, [this, plan] { onPlan(plan); }, Qt::QueuedConnection);
      {
        std::lock_guard lock(mutex_);
        runner_ = &runner;
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
