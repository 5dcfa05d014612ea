// Runner: trains every (candidate, repeat) job of an experiment in parallel and streams the
// learning curves to listeners (docs/architecture.md "Data flow"; main paper sections 4-5, appendix
// C).
//
// Determinism: job (c, r) is seeded with derive_seed(experiment seed, c, r) and touches only its
// own model/optimizer/oracle, so curves are bit-identical whatever the thread count or order.
// Cancellation: cancel() sets an atomic that the trainer checks before every optimizer step, so
// it takes effect within one step; jobs that had finished keep their results, jobs in flight end
// with status kCancelled (partial curve), jobs not started stay kPending.
// Pause: pause() makes every job wait before its next optimizer step (and jobs not started wait
// before starting) with its state intact in memory; resume() continues them. Nothing is lost or
// recomputed, so the results are bit-identical to an uninterrupted run (core/pause_gate.h).
// Threads: jobs run as oneTBB tasks in an arena of `threads` workers. TBB stays out of this
// header (Qt's `emit` macro breaks oneTBB headers and the UI includes engine headers).
//
// Thread-safety: run() blocks; call it from one thread (the GUI: a worker thread). cancel(),
// progress(), and every const accessor are safe from any thread while run() is in progress.
// Listener callbacks are invoked concurrently from worker threads: a listener must be thread-safe
// and quick (RunMonitor is the ready-made one for GUIs: it only appends under a short lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/dataset_catalog.h"
#include "experiment/experiment_config.h"
#include "training/trainer.h"
#include "tuning/results.h"

namespace dplab::tuning {

struct Progress {
  std::int64_t jobs_done = 0;  // finished, failed or cancelled
  std::int64_t jobs_total = 0;
  std::int64_t steps_done = 0;  // noisy-gradient queries made, over all jobs
  std::int64_t steps_total = 0;
  double elapsed_seconds = 0;
  double steps_per_second = 0;  // steps_done / elapsed
  double eta_seconds = 0;       // (steps_total - steps_done) / steps_per_second; NaN before data
  bool paused = false;          // Runner::pause(): elapsed_seconds excludes the time paused
};

// One learning-curve point of one job, as streamed.
struct PointEvent {
  int candidate = 0;
  int repeat = 0;
  training::CurvePoint point;  // iteration, train loss, val accuracy, epsilon spent so far
};

class RunListener {
 public:
  virtual ~RunListener() = default;
  // Before any job runs, on the thread that called run().
  virtual void on_start(const SearchResults& plan) { (void)plan; }
  // From worker threads.
  virtual void on_point(const PointEvent& event) { (void)event; }
  virtual void on_job_finished(const JobResult& job) { (void)job; }       // any final status
  virtual void on_progress(const Progress& progress) { (void)progress; }  // after each eval point
  // After all jobs, on the thread that called run().
  virtual void on_finished(const SearchResults& results, bool cancelled) {
    (void)results;
    (void)cancelled;
  }
};

// One job of an explicit plan: train `candidate` afresh with this seed. `repeat` is the job's
// slot: in private release modes the global run index (private_search.h).
struct PlannedJob {
  int candidate = 0;
  int repeat = 0;
  std::uint64_t seed = 0;
};

struct RunOptions {
  int threads = 0;            // worker threads; 0 = all hardware threads
  bool track_epsilon = true;  // fill CurvePoint::epsilon from the RDP accountant
  // Run the jobs at a lower scheduling priority (Linux nice +10 on the threads that run them),
  // so that an interactive thread — the GUI's — gets a core at once even when every core
  // trains. Throughput is unchanged on an otherwise idle machine.
  bool background_priority = false;
  // Empty: every (candidate, repeat) of the config (a private release mode: no job at all).
  // Otherwise exactly these jobs (the runs a private selection drew up front), trained in
  // parallel like any others.
  std::vector<PlannedJob> plan = {};
  // Secure noise (release.secure): lots and noise from OS entropy, not from the job seeds.
  bool secure = false;
  // Keep every job's trained model in its JobResult (a release writes the winner's, or the
  // candidates' asked for): jobs x parameters floats, checked against the memory budget.
  bool keep_models = true;
  // Per-job instrumentation (the audit of a tuning release, release/tuning_audit.h): called on
  // the job's thread before it trains, with the job's index in SearchResults::jobs; the job
  // trains with what it returns (training::TrainingInstrumentation; null = nothing), kept alive
  // until the job ends. Empty = no job is instrumented.
  std::function<std::shared_ptr<training::TrainingInstrumentation>(std::size_t job)> instrument =
      {};
};

class Runner {
 public:
  // Expands the candidates and validates the config against the data (throws InvalidArgument
  // naming the field: lot_size > n, a linear model on classification data, ...).
  Runner(experiment::ExperimentConfig config,
         std::shared_ptr<const data::TrainValidationSplit> data, RunOptions options = {});
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  const experiment::ExperimentConfig& config() const;
  const std::vector<experiment::Candidate>& candidates() const;
  const RunMechanism& mechanism() const;  // sigma, q, T, resolved delta
  std::int64_t total_jobs() const;
  // The run as planned, before any job ran: config, candidates, mechanism, n, n_val and every
  // job (candidate, repeat, seed) pending — what on_start() receives. Call before run().
  SearchResults plan() const;

  // Listeners are not owned and must outlive run(). Add them before run().
  void add_listener(RunListener* listener);

  // Resume (issue #11): keeps the jobs of an earlier, interrupted run of the same experiment
  // that ended (finished, failed, diverged) and runs only the others. Jobs are seeded per
  // (candidate, repeat), so the result equals an uninterrupted run. Throws InvalidArgument if
  // the earlier run's candidates, mechanism or n differ (the config or the data changed).
  // Kept jobs are not reported to listeners again. Call before run().
  void resume_from(const SearchResults& earlier);

  // Runs all jobs; returns when they are done or cancelled. Callable once.
  SearchResults run();

  void cancel();  // thread-safe, idempotent; also ends a pause
  bool cancel_requested() const;
  void pause();   // thread-safe; jobs wait before their next step
  void resume();  // thread-safe
  bool paused() const;
  Progress progress() const;
  // The worker threads run() uses: RunOptions::threads, or all hardware threads for 0.
  int threads() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The training config of one job (what the runner passes to training::train).
training::TrainingConfig job_training_config(const experiment::ExperimentConfig& config,
                                             const experiment::Candidate& candidate, int repeat);

// The catalog source of the experiment's `dataset` section (name or file, format, public feature
// bounds, synthetic options; the split seed as the generators' seed).
data::DatasetSource dataset_source(const experiment::ExperimentConfig& config);

// Loads the experiment's data set (built-in catalog or file), splits it into training and
// validation sets (seeded by split_seed) as the paper does (appendix H).
std::shared_ptr<const data::TrainValidationSplit> load_experiment_data(
    const experiment::ExperimentConfig& config);

}  // namespace dplab::tuning
