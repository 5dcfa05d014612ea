// What `dplab-cli tune` says on stderr while it trains, and how it is stopped: the line that
// announces the search, the progress (a redrawn bar on a terminal, else a plain line every few
// seconds), and Ctrl-C / SIGTERM / SIGUSR1 (cli/interrupt.h), which cancel the runner cleanly
// (within one optimizer step) so that what finished is kept.
#pragma once

#include <chrono>

#include <functional>
#include <string>

#include "tuning/results.h"
#include "tuning/runner.h"

namespace dplab::cli {

// The announcement before any job. A private LT / PS search (experiment::hides_run_count) names
// no run count: stderr ends up in Slurm and CI logs, and K is curator-only; `show_curator`
// (tune --show-curator) prints it on purpose, marked "curator only, not for release".
void print_search_header(const experiment::ExperimentConfig& config, const tuning::Runner& runner,
                         const data::TrainValidationSplit& data, bool show_curator);

struct TuneRun {
  tuning::SearchResults results;
  std::chrono::steady_clock::time_point started;  // when the jobs started
  double wall_seconds = 0;
  int threads = 0;         // the runner's worker threads (tuning::Runner::threads)
  bool cancelled = false;  // by Ctrl-C, SIGTERM or SIGUSR1 (see tune_cancel_signal)
};

// Runs the search on a worker thread while this thread, every 100 ms, cancels the runner once a
// signal came (an InterruptScope lives meanwhile: cli/interrupt.h) and calls `tick` (may be
// empty). Rethrows the run's error. tune and run-jobs both run their searches through it.
tuning::SearchResults run_cancellable(tuning::Runner& runner, const std::function<void()>& tick);

// run_cancellable drawing the progress on stderr (`tty`: a redrawn bar). Rethrows the run's error.
// `hide_run_count`: the progress names the elapsed time only (no fraction, jobs, steps/s or ETA,
// which all reveal K).
TuneRun run_with_progress(tuning::Runner& runner, bool tty, bool hide_run_count);

// The jobs' warnings (JobResult::warnings: training/training_guards.h) on stderr, each line
// "COMMAND: warning: ..." (tuning/search_warnings.h: explore names the job; a private release
// prints one count-free line marked curator only).
void print_job_warnings(const tuning::SearchResults& results, const char* command);
// A phased mode's (private-subsampled, private-linear-scaling) first warning of any phase as that
// one count-free line; nothing when `first_warning` is empty.
void print_private_warning(const std::string& first_warning, const char* command);

// The signal that cancelled the last run_cancellable (SIGINT, SIGTERM or SIGUSR1), 0 if none did.
int tune_cancel_signal();

}  // namespace dplab::cli
