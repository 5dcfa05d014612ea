// Job status names, as stored in the run history.
#include "tuning/results.h"

#include <cmath>
#include <limits>

#include "core/error.h"

namespace dplab::tuning {

std::string to_string(JobStatus s) {
  switch (s) {
    case JobStatus::kPending:
      return "pending";
    case JobStatus::kRunning:
      return "running";
    case JobStatus::kFinished:
      return "finished";
    case JobStatus::kCancelled:
      return "cancelled";
    case JobStatus::kFailed:
      return "failed";
    case JobStatus::kDiverged:
      return "diverged";
  }
  return "?";
}

JobStatus parse_job_status(const std::string& text) {
  for (JobStatus s : {JobStatus::kPending, JobStatus::kRunning, JobStatus::kFinished,
                      JobStatus::kCancelled, JobStatus::kFailed, JobStatus::kDiverged}) {
    if (to_string(s) == text) return s;
  }
  throw InvalidArgument("unknown job status \"" + text + "\"");
}

bool is_scored(const JobResult& job) {
  return job.status == JobStatus::kFinished || job.status == JobStatus::kDiverged;
}

double scored_accuracy(const JobResult& job) {
  return job.status == JobStatus::kDiverged ? 0.0 : job.final_val_accuracy;
}

double scored_train_loss(const JobResult& job) {
  return job.status == JobStatus::kDiverged ? std::numeric_limits<double>::infinity()
                                            : job.final_train_loss;
}

double final_val_mse(const JobResult& job) {
  return job.curve.empty() ? std::numeric_limits<double>::quiet_NaN() : job.curve.back().val_mse;
}

double scored_val_mse(const JobResult& job) {
  return job.status == JobStatus::kDiverged ? std::numeric_limits<double>::infinity()
                                            : final_val_mse(job);
}

double scored_metric(const JobResult& job, bool regression) {
  return regression ? scored_val_mse(job) : scored_accuracy(job);
}

double selection_score(const JobResult& job, bool regression) {
  const double score = regression ? -scored_val_mse(job) : scored_accuracy(job);
  return std::isnan(score) ? -std::numeric_limits<double>::infinity() : score;
}

}  // namespace dplab::tuning
