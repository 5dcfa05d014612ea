#include "cli/tune_progress.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <thread>

#include "cli/duration_text.h"
#include "experiment/experiment_config.h"
#include "experiment/run_count_visibility.h"

namespace dplab::cli {
namespace {

// The runner's cancel flag, reachable from the SIGINT handler (an atomic store is signal-safe).
std::atomic<tuning::Runner*> g_runner{nullptr};
std::atomic<int> g_signal{0};

extern "C" void on_sigint(int signal) {
  g_signal.store(signal);
  if (tuning::Runner* runner = g_runner.load()) runner->cancel();
}

// `hide_run_count` (experiment::hides_run_count): a private LT / PS search, whose progress
// fraction, job counts, throughput and ETA all reveal K (steps_total = K T): elapsed time only.
void print_progress(const tuning::Progress& p, bool tty, bool final_line, bool hide_run_count) {
  char line[256];
  if (hide_run_count) {
    std::snprintf(line, sizeof line,
                  tty ? "\rtraining (private selection: the number of runs is not shown), "
                        "elapsed %s   "
                      : "progress: training (private selection: the number of runs is not "
                        "shown), elapsed %s\n",
                  format_duration(p.elapsed_seconds).c_str());
    std::fputs(line, stderr);
    if (tty && final_line) std::fputs("\n", stderr);
    std::fflush(stderr);
    return;
  }
  const double fraction = p.steps_total > 0 ? static_cast<double>(p.steps_done) / p.steps_total : 0;
  if (tty) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::snprintf(line, sizeof line, "\r[%s] %3.0f%%  jobs %lld/%lld  %.0f steps/s  ETA %s   ",
                  bar.c_str(), 100 * fraction, static_cast<long long>(p.jobs_done),
                  static_cast<long long>(p.jobs_total), p.steps_per_second,
                  format_duration(p.eta_seconds).c_str());
    std::fputs(line, stderr);
    if (final_line) std::fputs("\n", stderr);
  } else {
    std::snprintf(
        line, sizeof line, "progress: %.1f%%, jobs %lld/%lld, %.0f steps/s, elapsed %s, ETA %s\n",
        100 * fraction, static_cast<long long>(p.jobs_done), static_cast<long long>(p.jobs_total),
        p.steps_per_second, format_duration(p.elapsed_seconds).c_str(),
        format_duration(p.eta_seconds).c_str());
    std::fputs(line, stderr);
  }
  std::fflush(stderr);
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

TuneRun run_with_progress(tuning::Runner& runner, bool tty, bool hide_run_count) {
  g_runner.store(&runner);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  struct sigaction previous {};
  struct sigaction previous_term {};
  sigaction(SIGINT, &action, &previous);
  sigaction(SIGTERM, &action, &previous_term);

  TuneRun run;
  std::exception_ptr failure;
  std::atomic<bool> done{false};
  const auto started = std::chrono::steady_clock::now();
  std::thread worker([&] {
    try {
      run.results = runner.run();
    } catch (...) {
      failure = std::current_exception();
    }
    done.store(true);
  });
  // Progress: a redrawn bar on a terminal; otherwise a plain line every few seconds.
  auto last_line = std::chrono::steady_clock::now();
  while (!done.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto now = std::chrono::steady_clock::now();
    if (tty || now - last_line >= std::chrono::seconds(5)) {
      print_progress(runner.progress(), tty, false, hide_run_count);
      last_line = now;
    }
  }
  worker.join();
  sigaction(SIGINT, &previous, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
  g_runner.store(nullptr);
  if (failure) std::rethrow_exception(failure);
  print_progress(runner.progress(), tty, true, hide_run_count);
  run.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  run.cancelled = runner.cancel_requested();
  return run;
}

int tune_cancel_signal() {
  return g_signal.load();
}

}  // namespace dplab::cli
