#include "run/run_controller.h"

#include <QDir>
#include <QFileInfo>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/os_entropy.h"
#include "experiment/run_count_visibility.h"
#include "release/linear_scaling_release.h"
#include "run/run_data.h"
#include "store/store.h"
#include "tuning/linear_scaling_search.h"
#include "tuning/private_release_view.h"
#include "tuning/runner.h"
#include "tuning/search_warnings.h"
#include "tuning/subsampled_search.h"

namespace dplab::ui {

namespace {
constexpr int kPollMs = 120;  // ≥ 5 redraws per second, one replot per tick

// What the run just written has spent over all its attempts (a resumed run's earlier attempts
// included), as the history states it; nullopt when it is not in a history.
std::optional<store::SpentBudget> spent_in_history(store::Store* store,
                                                   const store::StoreWriter* writer) {
  if (!store || !writer || writer->experiment_id() < 0) return std::nullopt;
  try {
    return store->spent_budget(writer->experiment_id());
  } catch (const std::exception&) {
    return std::nullopt;  // the run's own cost is shown; the store error is reported apart
  }
}
}  // namespace

RunController::RunController(RunData* data, QObject* parent) : QObject(parent), data_(data) {
  qRegisterMetaType<dplab::tuning::Progress>("dplab::tuning::Progress");
  timer_.setInterval(kPollMs);
  connect(&timer_, &QTimer::timeout, this, &RunController::tick);
}

RunController::~RunController() {
  cancel();
  worker_.wait();  // the runner stops within one training step
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
    emit message(
        tr("resume #%1: a private release resumes from dplab-cli tune --resume %1").arg(id), true);
    return false;
  }
  return launch(config, nullptr, threads, id);
}

bool RunController::launch(const experiment::ExperimentConfig& config,
                           std::shared_ptr<const data::TrainValidationSplit> preloaded, int threads,
                           qint64 resume_id) {
  if (running_) return false;
  worker_.wait();  // the previous worker has already finished
  running_ = true;
  hides_run_count_ = experiment::hides_run_count(config.release);
  released_ = false;
  plan_received_ = false;
  ticks_ = 0;
  cancel_requested_ = false;
  worker_done_ = false;
  resuming_id_ = resume_id;
  {
    std::lock_guard lock(mutex_);
    final_.reset();
    final_release_.reset();
    final_spent_.reset();
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
  // The worker reports through these members; `run` below is the whole of its work.
  // tick() notices worker_done_ and collects what the worker left in the guarded members.
  worker_ = async::startInBackground(
      this,
      [this, config, preloaded, threads, monitor, shared_store,
       resume_id](async::TaskControl& control) {
        try {
          run(config, preloaded, threads, monitor, shared_store.get(), resume_id, control);
        } catch (const std::exception& e) {
          std::lock_guard lock(mutex_);
          runner_ = nullptr;
          worker_error_ = QString::fromStdString(e.what());
        }
        worker_done_ = true;
      },
      [] {}, [](const async::Failure&) {});
  return true;
}

// On the worker thread: everything that may take time (loading, drawing, training, selecting).
void RunController::run(experiment::ExperimentConfig config,
                        std::shared_ptr<const data::TrainValidationSplit> preloaded, int threads,
                        std::shared_ptr<tuning::RunMonitor> monitor, store::Store* store,
                        qint64 resume_id, async::TaskControl& control) {
  const bool private_release = config.release.mode == experiment::ReleaseMode::kPrivate;
  if (config.release.secure) config.seed = os_random_u64();  // never shown nor stored
  auto data = preloaded ? preloaded : tuning::load_experiment_data(config);
  tuning::RunOptions options;
  options.threads = threads;
  options.background_priority = true;  // the GUI thread must never wait for a core
  options.secure = config.release.secure;
  // The models a release hands over: a private search's winner (explore's report writes none).
  options.keep_models = private_release;
  if (config.release.subsampled || config.release.linear_scaling) {
    // The phased modes, by the engine code of `dplab-cli tune`: private-subsampled
    // (tuning::run_subsampled_search) and private-linear-scaling
    // (tuning::run_linear_scaling_search). Their earlier phases are curator-only (their runs,
    // and for the subsample K, |X1| and the winner, are never handed to RunData nor stored); the
    // view sees the final run only, from its plan on. No final run (K = 0, a cancelled phase):
    // final_release_ says "nothing released" and no plan is ever sent.
    // The history keeps the final run with the full n; with the complement its training size
    // would be |X2| = n - |X1|, which epsilon does not cover (as `tune --db` refuses it).
    const bool subsampled = config.release.subsampled;
    const bool record =
        store && (!subsampled || config.release.final_data == privacy::FinalRunData::kFullData);
    control.post([this, subsampled] {
      emit message(subsampled
                       ? tr("private on a subsample: the search on the tuning subset runs "
                            "first; its runs are not shown (only the final run is released)")
                       : tr("linear scaling: two trial rounds over the grid run first; their "
                            "runs are not shown (the final run and the fit are released)"),
                   false);
    });
    if (store && !record) {
      control.post([this] {
        emit message(tr("private on a subsample, final run on the complement: not recorded "
                        "in the run history (its stored training size would reveal |X1|)"),
                     false);
      });
    }
    std::unique_ptr<store::StoreWriter> writer;
    struct ClearRunner {
      RunController* controller;
      ~ClearRunner() {
        std::lock_guard lock(controller->mutex_);
        controller->runner_ = nullptr;
      }
    } clear_runner{this};
    auto on_runner = [&](tuning::Runner* runner, bool final_phase) {
      if (runner && final_phase) {
        if (record) {
          writer = std::make_unique<store::StoreWriter>(*store);
          runner->add_listener(writer.get());
        }
        runner->add_listener(monitor.get());
        tuning::SearchResults plan = runner->plan();
        plan.training_size = data->train.size();  // n, never |X2|
        control.post([this, plan] { onPlan(plan); });
      }
      std::lock_guard lock(mutex_);
      runner_ = runner;
      if (!runner) return;
      if (paused_) runner->pause();
      if (cancel_requested_) runner->cancel();
    };
    bool has_final = false;
    tuning::SearchResults final_results;
    tuning::PrivatePlan final_plan;
    std::string released_facts;  // private-linear-scaling: its fit (released)
    std::string first_warning;   // of any phase's run: curator only, shown without a count
    if (subsampled) {
      tuning::SubsampledRunHooks hooks;
      hooks.on_runner = on_runner;
      tuning::SubsampledRun run = tuning::run_subsampled_search(config, data, options, hooks);
      first_warning = run.first_warning;
      has_final = run.has_final;
      final_results = std::move(run.final_results);
      final_plan = std::move(run.final_plan);
    } else {
      tuning::LinearScalingRunHooks hooks;
      hooks.on_runner = [&](tuning::Runner* runner, int phase) { on_runner(runner, phase == 2); };
      tuning::LinearScalingRun run =
          tuning::run_linear_scaling_search(config, data, options, hooks);
      first_warning = run.first_warning;
      has_final = run.has_final;
      final_results = std::move(run.final_results);
      final_plan = std::move(run.final_plan);
      if (has_final && !run.cancelled) {
        released_facts = release::linear_scaling_released_facts(run.fit).dump();
        const QString fit = QString::fromStdString(release::linear_scaling_fit_text(run.fit));
        control.post([this, fit] { emit message(fit, false); });
      }
    }
    tuning::PrivateRelease release;  // released = 0: nothing released
    if (has_final) {
      release = tuning::select_private_winners(final_results, final_plan,
                                               tuning::score_noise_seed(final_results.config.seed));
      release.released_facts = released_facts;
      if (writer && writer->experiment_id() >= 0) {
        try {
          store->save_summary(writer->experiment_id(), "private_release",
                              tuning::private_release_json(release).dump());
        } catch (const std::exception& e) {
          std::lock_guard lock(mutex_);
          store_error_ = QString::fromStdString(e.what());
        }
      }
    }
    const std::optional<store::SpentBudget> spent = spent_in_history(store, writer.get());
    std::lock_guard lock(mutex_);
    final_warnings_.clear();
    if (!first_warning.empty()) final_warnings_ = {tuning::private_warning_line(first_warning)};
    if (has_final) final_ = std::move(final_results);
    final_release_ = std::move(release);
    final_spent_ = spent;
    if (writer && writer->first_error())
      store_error_ = QString::fromStdString(*writer->first_error());
    return;
  }
  tuning::PrivatePlan private_plan;
  if (private_release) {
    if (data->train.is_regression()) {
      throw InvalidArgument(
          "release.mode private needs a classification data set: the regression score (final "
          "training loss) is computed on the private training set and is not covered by epsilon");
    }
    // The stopping time and the candidate draws do not depend on the data: drawn up front.
    private_plan = tuning::draw_private_plan(
        config, static_cast<int>(experiment::expand_candidates(config).size()), config.seed);
    options.plan = private_plan.jobs;
  }
  tuning::Runner runner(config, data, options);
  // Resume: the stored run as `dplab-cli tune --resume` reads it (all jobs, with curves); only the
  // missing jobs run.
  if (resume_id >= 0 && store) runner.resume_from(store->load_results(resume_id));
  std::unique_ptr<store::StoreWriter> writer;
  if (store) {
    writer = std::make_unique<store::StoreWriter>(*store);
    if (resume_id >= 0) writer->resume(resume_id);
    runner.add_listener(writer.get());
  }
  runner.add_listener(monitor.get());
  // The jobs to be trained (for a private release: the drawn runs), from the engine.
  tuning::SearchResults plan = runner.plan();
  if (config.release.secure) {  // the OS seed and the job seeds stay on this thread
    plan.config.seed = 0;
    for (tuning::JobResult& job : plan.jobs) job.seed = 0;
  }
  control.post([this, plan] { onPlan(plan); });
  {
    std::lock_guard lock(mutex_);
    runner_ = &runner;
    if (paused_) runner.pause();
  }
  // Cleared before the runner is destroyed, on every way out (cancel() may run at any time).
  struct ClearRunner {
    RunController* controller;
    ~ClearRunner() {
      std::lock_guard lock(controller->mutex_);
      controller->runner_ = nullptr;
    }
  } clear_runner{this};
  if (cancel_requested_) runner.cancel();
  tuning::SearchResults results = runner.run();
  std::optional<tuning::PrivateRelease> release;
  if (private_release) {
    // The same selection as `dplab-cli tune --release private` (a cancelled replicate is
    // incomplete and releases nothing).
    release = tuning::select_private_winners(results, private_plan,
                                             tuning::score_noise_seed(config.seed));
    if (writer && writer->experiment_id() >= 0) {
      try {
        store->save_summary(writer->experiment_id(), "private_release",
                            tuning::private_release_json(*release).dump());
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex_);
        store_error_ = QString::fromStdString(e.what());
      }
    }
  }
  if (config.release.secure) results.config.seed = 0;
  const std::optional<store::SpentBudget> spent = spent_in_history(store, writer.get());
  std::lock_guard lock(mutex_);
  final_warnings_ = tuning::search_warning_lines(results);
  final_ = std::move(results);
  final_release_ = std::move(release);
  final_spent_ = spent;
  if (writer && writer->first_error())
    store_error_ = QString::fromStdString(*writer->first_error());
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

void RunController::togglePause() {
  if (paused_) {
    resume();
  } else {
    pause();
  }
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
    // The plan is still queued: finish on the next tick (a private-subsampled search that
    // released nothing never sends one: its release is already there, with no results).
    if (worker_error_.isEmpty() && !(final_release_ && !final_)) return;
  }
  if (done) onWorkerDone();
}

void RunController::onWorkerDone() {
  timer_.stop();
  worker_.wait();  // worker_done_ was its last act
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
  std::optional<tuning::PrivateRelease> release;
  std::optional<store::SpentBudget> spent;
  QString error, store_error;
  std::vector<std::string> warnings;
  {
    std::lock_guard lock(mutex_);
    warnings = std::move(final_warnings_);
    final_warnings_.clear();
    results = std::move(final_);
    final_.reset();
    release = std::move(final_release_);
    final_release_.reset();
    spent = std::move(final_spent_);
    final_spent_.reset();
    error = worker_error_;
    store_error = store_error_;
  }
  if (!store_error.isEmpty()) emit message(tr("run history: %1").arg(store_error), true);
  if (!error.isEmpty()) {
    emit message(tr("run failed: %1").arg(error), true);
    emit finished(false, false);
    return;
  }
  // The guards' warnings (a lot size off q n, parameters that never moved): explore names each
  // job, at most kShownWarnings of them here (all are in the jobs' results); a private release
  // has one count-free line.
  constexpr std::size_t kShownWarnings = 10;
  for (std::size_t i = 0; i < warnings.size() && i < kShownWarnings; ++i)
    emit message(QString::fromStdString(warnings[i]), true);
  if (warnings.size() > kShownWarnings) {
    emit message(tr("… and %1 more warnings of this kind in the jobs' results (dplab-cli tune "
                    "prints them all)")
                     .arg(warnings.size() - kShownWarnings),
                 true);
  }
  const bool cancelled = cancel_requested_;
  if (release && !results) {
    // K = 0 or a cancelled tuning phase: the algorithm outputs nothing (no final run).
    emit message(cancelled ? tr("Private selection on a subsample cancelled: nothing released.")
                           : tr("Private selection on a subsample released nothing (the tuning "
                                "search drew no run, so no final run was trained)."),
                 false);
  }
  released_ = results && release && release->released > 0;
  if (results) {
    progress_.jobs_done = progress_.jobs_total > 0 ? progress_.jobs_done : 0;
    data_->setResults(*results, QString(), release, spent);
    if (release) {
      if (release->released == 0) {
        emit message(cancelled ? tr("Private selection cancelled: a search whose runs did not "
                                    "all finish is not the algorithm and releases nothing.")
                               : tr("Private selection released nothing (it drew no run)."),
                     false);
      }
    }
  }
  emit historyChanged();
  emit finished(true, cancelled);
}

}  // namespace dplab::ui
