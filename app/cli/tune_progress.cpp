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

namespace dplab::cli {
namespace {

// The runner's cancel flag, reachable from the SIGINT handler (an atomic store is signal-safe).
std::atomic<tuning::Runner*> g_runner{nullptr};
std::atomic<int> g_signal{0};

extern "C" void on_sigint(int signal) {
  g_signal.store(signal);
  if (tuning::Runner* runner = g_runner.load()) runner->cancel();
}

void print_progress(const tuning::Progress& p, bool tty, bool final_line) {
  const double fraction = p.steps_total > 0 ? static_cast<double>(p.steps_done) / p.steps_total : 0;
  char line[256];
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
                         const data::TrainValidationSplit& data, bool private_release) {
  if (private_release) {
    // stderr is the curator's console: the number of runs drawn (and the progress) reveal K,
    // which no released output may contain (docs/privacy-model.md).
    std::fprintf(stderr,
                 "tune %s: %s, %d replicate search(es) over %zu candidates of %lld steps, n = "
                 "%lld, delta = %g; curator only, not for release: %lld runs drawn\n",
                 config.name.c_str(), experiment::describe_release(config.release).c_str(),
                 config.repeats, runner.candidates().size(),
                 static_cast<long long>(config.privacy.steps),
                 static_cast<long long>(data.train.size()), runner.mechanism().delta,
                 static_cast<long long>(runner.total_jobs()));
  } else {
    std::fprintf(
        stderr,
        "tune %s: %zu candidates x %d repeats = %lld jobs of %lld steps, n = %lld, delta = %g\n",
        config.name.c_str(), runner.candidates().size(), config.repeats,
        static_cast<long long>(runner.total_jobs()), static_cast<long long>(config.privacy.steps),
        static_cast<long long>(data.train.size()), runner.mechanism().delta);
  }
}

TuneRun run_with_progress(tuning::Runner& runner, bool tty) {
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
      print_progress(runner.progress(), tty, false);
      last_line = now;
    }
  }
  worker.join();
  sigaction(SIGINT, &previous, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
  g_runner.store(nullptr);
  if (failure) std::rethrow_exception(failure);
  print_progress(runner.progress(), tty, true);
  run.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  run.cancelled = runner.cancel_requested();
  return run;
}

int tune_cancel_signal() {
  return g_signal.load();
}

}  // namespace dplab::cli
