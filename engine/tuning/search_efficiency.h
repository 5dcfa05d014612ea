// Where a search's CPU time went (issue #49): of the wall time W of a search on `threads` worker
// threads, the CPU time available is W x threads; of it, the jobs run in this process spent
// sum(step_seconds) in DP steps, sum(evaluation_seconds) in evaluations and the rest of their
// wall time in setup (model, oracle, guards); what no job used is "outside the jobs": threads
// idle at the end of the search (the last, longest jobs), data loading, the best-of-k tables,
// the outputs and the store. A search whose shares do not mostly go to DP steps is spending its
// compute on something else.
#pragma once

#include <cstdint>
#include <string>

#include "tuning/results.h"

namespace dplab::tuning {

struct SearchEfficiency {
  double wall_seconds = 0;
  int threads = 0;
  double cpu_seconds = 0;    // wall_seconds x threads
  double dp_step_share = 0;  // of cpu_seconds
  double evaluation_share = 0;
  double job_setup_share = 0;     // the jobs' wall time outside steps and evaluations
  double outside_jobs_share = 0;  // 1 - the others (never below 0)
  std::int64_t jobs_counted = 0;  // the jobs run in this process
};

// Over the jobs run in this process (JobResult::step_seconds or evaluation_seconds > 0). Throws
// InvalidArgument for wall_seconds <= 0 or threads < 1.
SearchEfficiency search_efficiency(const SearchResults& results, double wall_seconds, int threads);

// "CPU time (2 threads x 12.3 s): 87.1 % in DP steps, 4.0 % evaluating, 1.2 % job setup,
// 7.7 % outside the jobs (idle threads at the end, data, tables, outputs)".
std::string describe(const SearchEfficiency& efficiency);

}  // namespace dplab::tuning
