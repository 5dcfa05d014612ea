// What `dplab-cli tune` says on stderr while it trains, and how it is stopped: the line that
// announces the search, the progress (a redrawn bar on a terminal, else a plain line every few
// seconds), and Ctrl-C / SIGTERM, which cancel the runner cleanly (within one optimizer step) so
// that what finished is kept.
#pragma once

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
  double wall_seconds = 0;
  bool cancelled = false;  // by Ctrl-C or SIGTERM (see tune_cancel_signal)
};

// Runs the search on a worker thread while this thread draws the progress on stderr (`tty`: a
// redrawn bar); SIGINT and SIGTERM cancel the runner while it runs. Rethrows the run's error.
// `hide_run_count`: the progress names the elapsed time only (no fraction, jobs, steps/s or ETA,
// which all reveal K).
TuneRun run_with_progress(tuning::Runner& runner, bool tty, bool hide_run_count);

// The signal that cancelled the search (SIGINT or SIGTERM), 0 if none did.
int tune_cancel_signal();

}  // namespace dplab::cli
