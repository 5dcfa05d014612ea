#include "tuning/search_efficiency.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::tuning {

SearchEfficiency search_efficiency(const SearchResults& results, double wall_seconds, int threads) {
  if (!(wall_seconds > 0))
    throw InvalidArgument("wall_seconds = " + format_number(wall_seconds) + " must be > 0");
  if (threads < 1) throw InvalidArgument("threads = " + std::to_string(threads) + " must be >= 1");
  SearchEfficiency e;
  e.wall_seconds = wall_seconds;
  e.threads = threads;
  e.cpu_seconds = wall_seconds * threads;
  double steps = 0, evaluation = 0, jobs_wall = 0;
  for (const JobResult& job : results.jobs) {
    if (!(job.step_seconds > 0 || job.evaluation_seconds > 0)) continue;
    ++e.jobs_counted;
    steps += job.step_seconds;
    evaluation += job.evaluation_seconds;
    jobs_wall += std::max(job.wall_seconds, job.step_seconds + job.evaluation_seconds);
  }
  e.dp_step_share = steps / e.cpu_seconds;
  e.evaluation_share = evaluation / e.cpu_seconds;
  e.job_setup_share = (jobs_wall - steps - evaluation) / e.cpu_seconds;
  e.outside_jobs_share = std::max(0.0, 1 - jobs_wall / e.cpu_seconds);
  return e;
}

std::string describe(const SearchEfficiency& e) {
  char text[320];
  std::snprintf(text, sizeof text,
                "CPU time (%d thread%s x %.3g s): %.1f %% in DP steps, %.1f %% evaluating, %.1f %% "
                "job setup, %.1f %% outside the jobs (idle threads at the end, data, tables, "
                "outputs)",
                e.threads, e.threads == 1 ? "" : "s", e.wall_seconds, 100 * e.dp_step_share,
                100 * e.evaluation_share, 100 * e.job_setup_share, 100 * e.outside_jobs_share);
  return text;
}

}  // namespace dplab::tuning
