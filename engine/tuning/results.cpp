// Job status names, as stored in the run history.
#include "tuning/results.h"

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

}  // namespace dplab::tuning
