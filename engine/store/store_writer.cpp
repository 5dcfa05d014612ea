// StoreWriter: the RunListener that writes a run into a Store as its jobs finish, keeping every
// finished job in memory until it is committed and retrying with back-off (see store.h).
#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "core/error.h"
#include "core/validate.h"
#include "store/run_status.h"
#include "store/store.h"

namespace dplab::store {

std::optional<std::string> StoreWriter::first_error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

std::int64_t StoreWriter::unsaved_jobs() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(pending_.size());
}

void StoreWriter::on_start(const tuning::SearchResults& plan) {
  plan_.config = plan.config;
  plan_.candidates = plan.candidates;
  plan_.mechanism = plan.mechanism;
  plan_.training_size = plan.training_size;
  plan_.is_regression = plan.is_regression;
  // A resumed run keeps the jobs that ended in earlier attempts (Runner::resume_from): this
  // attempt trains, and is charged for, only the others.
  kept_.assign(plan.jobs.size(), false);
  std::int64_t planned = 0;
  for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
    const tuning::JobStatus s = plan.jobs[i].status;
    kept_[i] = resuming_ && (s == tuning::JobStatus::kFinished || s == tuning::JobStatus::kFailed ||
                             s == tuning::JobStatus::kDiverged);
    planned += kept_[i] ? 0 : 1;
  }
  // Errors here propagate: a database that cannot take the run fails it before any job.
  if (resuming_) {
    attempt_ = store_.claim_experiment(experiment_id_, planned);
  } else {
    experiment_id_ =  // the plan with its jobs: the attempt sets out to train them all
        store_.begin_experiment(plan, merging_ ? AttemptKind::kMerge : AttemptKind::kRun);
    attempt_ = 1;
  }
}

namespace {
double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

bool StoreWriter::flush() {
  for (;;) {
    tuning::JobResult job;
    {
      std::lock_guard lock(mutex_);
      if (pending_.empty()) return true;
      job = pending_.front();
    }
    try {
      store_.record_job(experiment_id_, plan_, job, attempt_);
    } catch (const Error& e) {
      std::lock_guard lock(mutex_);
      last_error_ = e.what();
      next_retry_ = now_seconds() + backoff_;
      backoff_ = std::min(backoff_ * 2, 2.0);
      return false;
    }
    std::lock_guard lock(mutex_);
    pending_.erase(pending_.begin());
    backoff_ = 0.05;
  }
}

void StoreWriter::on_job_finished(const tuning::JobResult& job) {
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(job);
    if (now_seconds() < next_retry_) return;  // backing off after a failure
  }
  // One flusher at a time; a worker that finds it busy leaves its job queued for it.
  std::unique_lock flushing(flush_mutex_, std::try_to_lock);
  if (flushing) flush();
}

void StoreWriter::on_finished(const tuning::SearchResults& results, bool cancelled) {
  std::lock_guard flushing(flush_mutex_);
  // Retry with back-off (busy: another process holds the lock; full: space may be freed).
  const double deadline = now_seconds() + retry_seconds_;
  double wait = 0.05;
  while (!flush() && now_seconds() < deadline) {
    std::this_thread::sleep_for(
        std::chrono::duration<double>(std::min(wait, deadline - now_seconds())));
    wait = std::min(wait * 2, 2.0);
  }
  std::int64_t unsaved = 0;
  {
    std::lock_guard lock(mutex_);
    unsaved = static_cast<std::int64_t>(pending_.size());
    if (unsaved > 0) {
      error_ = std::to_string(unsaved) +
               " finished job(s) could not be stored after retrying for " +
               format_number(retry_seconds_) + " s: " + last_error_;
    }
  }
  const RunStatus status = unsaved > 0 ? RunStatus::kIncomplete
                           : cancelled ? RunStatus::kCancelled
                                       : RunStatus::kFinished;
  try {
    // This attempt's charge, the run's release columns and its status, in one transaction.
    store_.end_attempt(experiment_id_, attempt_, results, kept_, status);
  } catch (const Error& e) {
    {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = e.what();
    }
    // The status alone (a smaller write, e.g. on a full disk): the attempt stays open and is
    // charged its upper bound (every job not stored at T) until a resume ends it so.
    try {
      store_.finish_experiment(experiment_id_, status);
    } catch (const Error&) {
    }
  }
}

}  // namespace dplab::store
