// The progress of every long dplab-cli command (train, tune, reproduce, bench, sparse-train,
// oso-protocol, audit) on stderr, one rule for all of them: work done out of the total (in
// `unit`s, or a fraction), elapsed time, rate and ETA.
// - On a terminal: one line redrawn in place ('\r'), at most 10 times a second.
// - Otherwise (a log, a pipe, Slurm): a plain line at most every progress_log_seconds(), and
//   never the same text twice in a row (sparse-train printed one line 95 times).
// - finish(): the final line (on a terminal: the line is ended with '\n').
// - Hidden mode (a private LT / PS search, whose run count is secret; tune_progress.h): the
//   elapsed time and a fixed text only: no fraction, counts, rate or ETA, which all reveal K.
// Thread-safe: the engine calls progress from worker threads.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace dplab::cli {

// Seconds between two plain progress lines in a log: $DPLAB_PROGRESS_SECONDS when it is a number
// >= 0 (0: a line at every update), else 5.
double progress_log_seconds();
inline constexpr double kDefaultProgressLogSeconds = 5;

// True when stderr is a terminal (the line is redrawn there).
bool stderr_is_terminal();

// What one progress line says, without time-dependent parts (those the line adds).
struct ProgressCount {
  double done = 0;
  double total = 0;  // <= 0: not known yet (no fraction, no ETA)
};

// "[#####.....]" of `width` characters for `fraction` in [0, 1].
std::string progress_bar(double fraction, int width = 30);

// The text of one progress line (no '\r' or '\n'): "LABEL: 42.0%, 420/1000 steps, 35 steps/s,
// elapsed 0:12, ETA 0:16[, DETAIL]"; `unit` empty: the count is a fraction in [0, 1] and only
// the percentage is shown. `rate` is units per second (<= 0: not known, no rate or ETA).
std::string progress_text(const std::string& label, const std::string& unit,
                          const ProgressCount& count, double rate, double elapsed_seconds,
                          const std::string& detail, bool bar);

class ProgressLine {
 public:
  // `label` starts every line ("train", "reproduce tab4"); `unit` names the counted work
  // ("steps", "runs"; "" for a fraction in [0, 1]).
  ProgressLine(std::string label, std::string unit, bool tty = stderr_is_terminal());
  ~ProgressLine();  // ends a redrawn line that finish() did not end
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // The hidden mode: every line reads "LABEL: TEXT, elapsed M:SS" (nothing else is printed).
  void hide_counts(std::string text);
  // The work already done when the line starts (a resumed search): the rate and ETA count
  // only the work done since (by default all of it, from 0 at construction).
  void resume_from(double done);
  // `done` of `total` units now (throttled: drawn only when a line is due).
  void update(double done, double total, const std::string& detail = {});
  // A message line (a curve point, a finished item) printed above the progress line.
  void note(const std::string& text);
  // The last line, always printed (with the last update's counts unless given here).
  void finish(const std::string& detail = {});
  void finish(double done, double total, const std::string& detail = {});

 private:
  void draw_locked(bool final_line);
  double elapsed_locked() const;

  std::string label_, unit_, hidden_text_;
  bool tty_, hidden_ = false, drawn_on_tty_ = false, finished_ = false;
  double log_seconds_;
  ProgressCount count_;
  std::string detail_, last_text_;
  double resumed_from_ = 0;  // the rate counts the work done since construction
  std::size_t drawn_width_ = 0;
  std::chrono::steady_clock::time_point started_, last_drawn_;
  bool ever_drawn_ = false;
  std::mutex mutex_;
};

}  // namespace dplab::cli
