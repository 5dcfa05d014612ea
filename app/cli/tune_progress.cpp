#include "cli/tune_progress.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>

#include "cli/interrupt.h"
#include "cli/poll_thread.h"
#include "cli/progress_line.h"
#include "experiment/experiment_config.h"
#include "experiment/run_count_visibility.h"
#include "tuning/search_warnings.h"

namespace dplab::cli {
namespace {

// The signal that cancelled the last search (tune_cancel_signal), 0 if none did.
std::atomic<int> g_signal{0};

// `hide_run_count` (experiment::hides_run_count): a private LT / PS search, whose progress
// fraction, job counts, throughput and ETA all reveal K (steps_total = K T): elapsed time only.
constexpr const char* kHiddenRunCount =
    "training (private selection: the number of runs is not shown)";

std::string jobs_text(const tuning::Progress& p) {
  return "jobs " + std::to_string(p.jobs_done) + "/" + std::to_string(p.jobs_total);
}

}  // namespace

void print_search_header(const experiment::ExperimentConfig& config, const tuning::Runner& runner,
                         const data::TrainValidationSplit& data, bool show_curator) {
  const bool private_release = config.release.mode == experiment::ReleaseMode::kPrivate;
  if (private_release && (show_curator || !experiment::hides_run_count(config.release))) {
    // MA's runs are its candidates (public); LT's / PS's K only on request (--show-curator).
    std::fprintf(stderr,
                 "tune %s: %s, %d replicate search(es) over %zu candidates of %lld steps, n = "
                 "%lld, delta = %g; %s%lld runs drawn\n",
                 config.name.c_str(), experiment::describe_release(config.release).c_str(),
                 config.repeats, runner.candidates().size(),
                 static_cast<long long>(config.privacy.steps),
                 static_cast<long long>(data.train.size()), runner.mechanism().delta,
                 experiment::hides_run_count(config.release)
                     ? "curator only (--show-curator), not for release: "
                     : "",
                 static_cast<long long>(runner.total_jobs()));
  } else if (private_release) {
    // No run count, and the progress shows the elapsed time only (docs/privacy-model.md).
    std::fprintf(stderr,
                 "tune %s: %s, %d replicate search(es) over %zu candidates of %lld steps, n = "
                 "%lld, delta = %g; the number of runs is private (curator-only.json; "
                 "--show-curator prints it)\n",
                 config.name.c_str(), experiment::describe_release(config.release).c_str(),
                 config.repeats, runner.candidates().size(),
                 static_cast<long long>(config.privacy.steps),
                 static_cast<long long>(data.train.size()), runner.mechanism().delta);
  } else {
    std::fprintf(
        stderr,
        "tune %s: %zu candidates x %d repeats = %lld jobs of %lld steps, n = %lld, delta = %g\n",
        config.name.c_str(), runner.candidates().size(), config.repeats,
        static_cast<long long>(runner.total_jobs()), static_cast<long long>(config.privacy.steps),
        static_cast<long long>(data.train.size()), runner.mechanism().delta);
  }
}

tuning::SearchResults run_cancellable(tuning::Runner& runner, const std::function<void()>& tick) {
  const InterruptScope interrupt;
  tuning::SearchResults results;
  std::exception_ptr failure;
  {
    const PollThread poll(kPollPeriod, [&] {
      if (interrupt.interrupted()) runner.cancel();  // idempotent: the jobs stop at their next step
      if (tick) tick();
    });
    try {
      results = runner.run();
    } catch (...) {
      failure = std::current_exception();
    }
  }  // the poll thread has stopped: no tick after this
  g_signal.store(interrupt.signal());
  if (failure) std::rethrow_exception(failure);
  return results;
}

TuneRun run_with_progress(tuning::Runner& runner, bool tty, bool hide_run_count) {
  TuneRun run;
  const auto started = std::chrono::steady_clock::now();
  run.started = started;
  run.threads = runner.threads();
  // Progress (cli/progress_line.h): a redrawn bar on a terminal; otherwise a plain line every
  // few seconds. The rate counts the steps of this session (not those of a resumed search).
  ProgressLine line("progress", "steps", tty);
  if (hide_run_count) line.hide_counts(kHiddenRunCount);
  line.resume_from(static_cast<double>(runner.progress().steps_done));
  run.results = run_cancellable(runner, [&] {
    const tuning::Progress p = runner.progress();
    line.update(static_cast<double>(p.steps_done), static_cast<double>(p.steps_total),
                jobs_text(p));
  });
  const tuning::Progress last = runner.progress();
  line.finish(static_cast<double>(last.steps_done), static_cast<double>(last.steps_total),
              jobs_text(last));
  run.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  run.cancelled = runner.cancel_requested();
  return run;
}

void print_job_warnings(const tuning::SearchResults& results, const char* command) {
  for (const std::string& line : tuning::search_warning_lines(results))
    std::fprintf(stderr, "%s: %s\n", command, line.c_str());
}

void print_private_warning(const std::string& first_warning, const char* command) {
  const std::string line = tuning::private_warning_line(first_warning);
  if (!line.empty()) std::fprintf(stderr, "%s: %s\n", command, line.c_str());
}

int tune_cancel_signal() {
  return g_signal.load();
}

}  // namespace dplab::cli
