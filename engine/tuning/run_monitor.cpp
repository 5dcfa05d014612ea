// RunMonitor: appends under one short lock; the GUI drains with take_new() on its timer.
#include "tuning/run_monitor.h"

namespace dplab::tuning {

MonitorUpdate RunMonitor::take_new() {
  MonitorUpdate out;
  std::lock_guard lock(mutex_);
  std::swap(out, pending_);
  out.progress = all_.progress;
  out.started = all_.started;
  out.finished = all_.finished_run;
  out.cancelled = all_.cancelled;
  return out;
}

MonitorSnapshot RunMonitor::snapshot() const {
  std::lock_guard lock(mutex_);
  return all_;
}

Progress RunMonitor::progress() const {
  std::lock_guard lock(mutex_);
  return all_.progress;
}

bool RunMonitor::finished() const {
  std::lock_guard lock(mutex_);
  return all_.finished_run;
}

void RunMonitor::on_start(const SearchResults& plan) {
  std::lock_guard lock(mutex_);
  all_.started = true;
  all_.progress.jobs_total = static_cast<std::int64_t>(plan.jobs.size());
  all_.progress.steps_total = all_.progress.jobs_total * plan.config.privacy.steps;
}

void RunMonitor::on_point(const PointEvent& event) {
  std::lock_guard lock(mutex_);
  all_.curves[{event.candidate, event.repeat}].push_back(event.point);
  pending_.new_points.push_back(event);
}

void RunMonitor::on_job_finished(const JobResult& job) {
  std::string error;
  if (job.status == JobStatus::kFailed || job.status == JobStatus::kDiverged) {
    error = "candidate " + std::to_string(job.candidate) + ", repeat " +
            std::to_string(job.repeat) + ": " + job.error;
  }
  std::lock_guard lock(mutex_);
  all_.finished.push_back(job);
  pending_.new_finished.push_back(job);
  if (!error.empty()) {
    all_.errors.push_back(error);
    pending_.new_errors.push_back(error);
  }
}

void RunMonitor::on_progress(const Progress& progress) {
  std::lock_guard lock(mutex_);
  // Progress events from different workers may arrive out of order: keep the most advanced.
  if (progress.steps_done >= all_.progress.steps_done ||
      progress.jobs_done > all_.progress.jobs_done) {
    all_.progress = progress;
  }
}

void RunMonitor::on_finished(const SearchResults& results, bool cancelled) {
  (void)results;
  std::lock_guard lock(mutex_);
  all_.finished_run = true;
  all_.cancelled = cancelled;
}

}  // namespace dplab::tuning
