// Runner implementation: one oneTBB task per (candidate, repeat) job inside an arena capped at
// the requested thread count. TBB is included here only (see runner.h on Qt's `emit`).
#include "tuning/runner.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>

#include "core/error.h"
#include "core/memory_check.h"
#include "core/pause_gate.h"
#include "core/random.h"
#include "core/thread_priority.h"
#include "core/validate.h"
#include "tuning/accounting.h"
#include "tuning/data_checks.h"

namespace dplab::tuning {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

struct Runner::Impl {
  experiment::ExperimentConfig config;
  std::shared_ptr<const data::TrainValidationSplit> data;
  RunOptions options;
  std::vector<experiment::Candidate> candidates;
  RunMechanism mechanism;
  std::vector<RunListener*> listeners;
  SearchResults results;
  std::vector<std::uint64_t> job_seeds;  // parallel to results.jobs (secure mode hides them)

  std::atomic<bool> cancel{false};
  PauseGate pause_gate;
  std::atomic<std::int64_t> steps_done{0};
  std::atomic<std::int64_t> steps_resumed{0};  // steps_done kept from an earlier run (resume_from)
  std::atomic<std::int64_t> jobs_done{0};
  // Incremented (release) by each task after its job slot is written, read (acquire) by run()
  // once the tasks are joined: the hand-over of results.jobs in the C++ memory model.
  std::atomic<std::size_t> tasks_returned{0};
  std::atomic<Clock::rep> started_ns{-1};  // steady clock ticks at run() start; -1 before
  std::atomic<bool> ran{false};

  std::int64_t total_jobs() const { return static_cast<std::int64_t>(results.jobs.size()); }

  Progress progress() const {
    Progress p;
    p.jobs_total = total_jobs();
    p.steps_total = p.jobs_total * config.privacy.steps;
    p.jobs_done = jobs_done.load();
    p.steps_done = steps_done.load();
    const Clock::rep start = started_ns.load();
    if (start >= 0) {
      const Clock::rep now = Clock::now().time_since_epoch().count();
      p.elapsed_seconds =
          std::max(0.0, std::chrono::duration<double>(Clock::duration(now - start)).count() -
                            pause_gate.paused_seconds());
    }
    p.paused = pause_gate.paused();
    // Throughput of this run only: steps kept from an earlier run took no time here.
    const std::int64_t steps_here = p.steps_done - steps_resumed.load();
    p.steps_per_second =
        p.elapsed_seconds > 0 ? static_cast<double>(steps_here) / p.elapsed_seconds : 0;
    p.eta_seconds = p.steps_per_second > 0
                        ? static_cast<double>(p.steps_total - p.steps_done) / p.steps_per_second
                        : std::numeric_limits<double>::quiet_NaN();
    return p;
  }

  void notify_progress() {
    if (listeners.empty()) return;
    const Progress p = progress();
    for (auto* l : listeners) l->on_progress(p);
  }

  void run_job(std::size_t job_index) {
    JobResult& out = results.jobs[job_index];            // each task writes only its own slot
    if (out.status != JobStatus::kPending) return;       // kept from an earlier run (resume_from)
    pause_gate.wait_while_paused(&cancel);               // a paused run starts no job
    if (cancel.load(std::memory_order_relaxed)) return;  // stays kPending
    const int c = out.candidate;
    const int r = out.repeat;
    out.status = JobStatus::kRunning;
    training::TrainingConfig tc =
        job_training_config(config, candidates[static_cast<std::size_t>(c)], r);
    tc.seed = job_seeds[job_index];  // = derive_seed(seed, c, r) for the full grid; else the plan's
    tc.secure = options.secure;

    training::TrainingHooks hooks;
    hooks.cancel = &cancel;
    hooks.pause = &pause_gate;
    std::int64_t counted = 0;
    hooks.on_step = [&](std::int64_t queries) {
      steps_done.fetch_add(queries - counted, std::memory_order_relaxed);
      counted = queries;
    };
    if (options.track_epsilon) {
      const RunMechanism m = mechanism;
      // A curve's epsilon_per_run is the run's own ε so far, under the tightest conversion the
      // release's ε uses (release_cost.h), not the experiment's planning setting.
      hooks.epsilon_after = [m](std::int64_t queries) {
        return epsilon_single_run(m.noise_multiplier, m.sampling_rate, queries, m.delta,
                                  experiment::AccountingConfig{});
      };
    }
    hooks.on_point = [&](const training::CurvePoint& point) {
      const PointEvent event{c, r, point};
      for (auto* l : listeners) l->on_point(event);
      notify_progress();
    };
    try {
      const std::shared_ptr<training::TrainingInstrumentation> instrumentation =
          options.instrument ? options.instrument(job_index) : nullptr;
      hooks.instrumentation = instrumentation.get();
      training::TrainingResult trained = training::train(*data, tc, hooks);
      out.curve = std::move(trained.curve);
      out.final_val_accuracy = trained.final_validation.accuracy;
      out.final_val_loss = trained.final_validation.mean_loss;
      out.final_train_loss = trained.final_train_loss;
      out.queries = trained.queries;
      out.wall_seconds = trained.wall_seconds;
      out.step_seconds = trained.step_seconds;
      out.evaluation_seconds = trained.evaluation_seconds;
      out.warnings = std::move(trained.warnings);
      if (options.keep_models) out.model = std::move(trained.model);
      out.status = trained.cancelled  ? JobStatus::kCancelled
                   : trained.diverged ? JobStatus::kDiverged
                                      : JobStatus::kFinished;
      if (trained.diverged) out.error = "diverged: " + trained.divergence;
    } catch (const std::exception& e) {
      out.status = JobStatus::kFailed;
      out.error = e.what();
    }
    jobs_done.fetch_add(1);
    for (auto* l : listeners) l->on_job_finished(out);
    notify_progress();
  }
};

Runner::Runner(experiment::ExperimentConfig config,
               std::shared_ptr<const data::TrainValidationSplit> data, RunOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (!data) throw InvalidArgument("Runner: no data");
  validate_against_data(config, *data);
  if (options.threads < 0)
    throw InvalidArgument("threads = " + std::to_string(options.threads) + " must be >= 0");
  impl_->candidates = experiment::expand_candidates(config);
  if (impl_->candidates.empty()) throw InvalidArgument("the experiment has no candidates");
  const std::int64_t n = data->train.size();
  impl_->mechanism = run_mechanism(config, n);
  impl_->config = std::move(config);
  impl_->data = std::move(data);
  impl_->options = options;

  SearchResults& res = impl_->results;
  res.config = impl_->config;
  res.candidates = impl_->candidates;
  res.mechanism = impl_->mechanism;
  res.training_size = n;
  res.is_regression = scored_by_loss(impl_->config, *impl_->data);
  res.validation_size = impl_->data->validation.size();
  res.input = data::input_encoding(*impl_->data);
  const int repeats = impl_->config.repeats;
  // A private search trains exactly its drawn runs, also when it drew none (PS with K = 0).
  if (!impl_->options.plan.empty() ||
      impl_->config.release.mode == experiment::ReleaseMode::kPrivate) {
    for (const PlannedJob& planned : impl_->options.plan) {
      if (planned.candidate < 0 ||
          planned.candidate >= static_cast<int>(impl_->candidates.size())) {
        throw InvalidArgument("planned job: candidate " + std::to_string(planned.candidate) +
                              " out of range");
      }
      JobResult job;
      job.candidate = planned.candidate;
      job.repeat = planned.repeat;
      job.seed = planned.seed;
      res.jobs.push_back(job);
    }
  } else {
    res.jobs.resize(impl_->candidates.size() * static_cast<std::size_t>(repeats));
    for (std::size_t i = 0; i < res.jobs.size(); ++i) {
      JobResult& job = res.jobs[i];
      job.candidate = static_cast<int>(i) / repeats;
      job.repeat = static_cast<int>(i) % repeats;
      job.seed = derive_seed(impl_->config.seed, static_cast<std::uint64_t>(job.candidate),
                             static_cast<std::uint64_t>(job.repeat));
    }
  }
  if (impl_->options.keep_models) {
    const auto model = models::make_model(impl_->config.model.spec(), impl_->data->train.dim(),
                                          impl_->data->train.num_classes);
    require_memory("the trained models of " + std::to_string(res.jobs.size()) +
                       " runs (--save-models none keeps none)",
                   static_cast<double>(res.jobs.size()) * static_cast<double>(model->num_params()) *
                       (sizeof(float) + sizeof(float)));  // the model and its graph's copy
  }
  // Secure mode: the seeds stay inside the runner; results (and so every export) carry 0.
  for (JobResult& job : res.jobs) {
    impl_->job_seeds.push_back(job.seed);
    if (impl_->options.secure) job.seed = 0;
  }
}

Runner::~Runner() = default;

const experiment::ExperimentConfig& Runner::config() const {
  return impl_->config;
}
const std::vector<experiment::Candidate>& Runner::candidates() const {
  return impl_->candidates;
}
const RunMechanism& Runner::mechanism() const {
  return impl_->mechanism;
}
std::int64_t Runner::total_jobs() const {
  return impl_->total_jobs();
}
SearchResults Runner::plan() const {
  return impl_->results;
}
void Runner::add_listener(RunListener* listener) {
  if (listener) impl_->listeners.push_back(listener);
}
void Runner::resume_from(const SearchResults& earlier) {
  SearchResults& res = impl_->results;
  auto differ = [](const std::string& what) {
    throw InvalidArgument("cannot resume: the stored run's " + what +
                          " differs from this experiment's (was the config or the data changed?)");
  };
  if (earlier.candidates.size() != res.candidates.size()) differ("candidate count");
  for (std::size_t c = 0; c < res.candidates.size(); ++c) {
    if (earlier.candidates[c].label() != res.candidates[c].label())
      differ("candidate " + std::to_string(c));
  }
  const RunMechanism& a = earlier.mechanism;
  const RunMechanism& b = res.mechanism;
  if (a.noise_multiplier != b.noise_multiplier || a.sampling_rate != b.sampling_rate ||
      a.steps != b.steps || a.delta != b.delta) {
    differ("privacy mechanism (sigma, q, T, delta)");
  }
  if (earlier.training_size != res.training_size) differ("training-set size");
  if (earlier.jobs.size() != res.jobs.size()) differ("job count");
  for (std::size_t i = 0; i < res.jobs.size(); ++i) {
    const JobResult& old = earlier.jobs[i];
    if (old.status != JobStatus::kFinished && old.status != JobStatus::kFailed &&
        old.status != JobStatus::kDiverged) {
      continue;
    }
    if (old.seed != res.jobs[i].seed) differ("seed of job " + std::to_string(i));
    res.jobs[i] = old;
    impl_->jobs_done.fetch_add(1);
    impl_->steps_done.fetch_add(old.queries);
    impl_->steps_resumed.fetch_add(old.queries);
  }
}

void Runner::cancel() {
  impl_->cancel.store(true);
  impl_->pause_gate.release_waiters();
}
void Runner::pause() {
  impl_->pause_gate.pause();
}
void Runner::resume() {
  impl_->pause_gate.resume();
}
bool Runner::paused() const {
  return impl_->pause_gate.paused();
}
bool Runner::cancel_requested() const {
  return impl_->cancel.load();
}
int Runner::threads() const {
  return impl_->options.threads > 0 ? impl_->options.threads
                                    : tbb::this_task_arena::max_concurrency();
}

Progress Runner::progress() const {
  return impl_->progress();
}

SearchResults Runner::run() {
  if (impl_->ran.exchange(true)) throw InvalidArgument("Runner::run() may be called only once");
  Impl& im = *impl_;
  im.started_ns.store(Clock::now().time_since_epoch().count());
  for (auto* l : im.listeners) l->on_start(im.results);

  tbb::task_arena arena(threads());
  const std::size_t jobs = im.results.jobs.size();
  arena.execute([&] {
    // Grain 1 with the simple partitioner: each job is its own task (jobs are long).
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, jobs, 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          if (im.options.background_priority) lower_this_thread_priority();
          for (std::size_t i = range.begin(); i != range.end(); ++i) im.run_job(i);
          im.tasks_returned.fetch_add(1, std::memory_order_release);
        },
        tbb::simple_partitioner());
  });
  // oneTBB's join already orders the workers' writes before this point, but inside a library
  // that ThreadSanitizer cannot see (scripts/tsan.supp): this acquire states the same order where
  // it can be checked (it reported every job slot as a race before).
  (void)im.tasks_returned.load(std::memory_order_acquire);

  const bool cancelled = im.cancel.load();
  for (auto* l : im.listeners) l->on_finished(im.results, cancelled);
  return im.results;
}

}  // namespace dplab::tuning
