#include "cli/progress_line.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli/duration_text.h"

namespace dplab::cli {
namespace {

constexpr auto kTerminalRedraw = std::chrono::milliseconds(100);

// "%.3g" without an exponent for the usual rates: 1234 -> "1234", 0.25 -> "0.25".
std::string rate_text(double rate) {
  char buffer[32];
  if (rate >= 100)
    std::snprintf(buffer, sizeof buffer, "%.0f", rate);
  else
    std::snprintf(buffer, sizeof buffer, "%.3g", rate);
  return buffer;
}

std::string count_text(double value) {
  char buffer[32];
  if (value == std::floor(value) && std::abs(value) < 1e15)
    std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(value));
  else
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

}  // namespace

double progress_log_seconds() {
  if (const char* text = std::getenv("DPLAB_PROGRESS_SECONDS")) {
    char* end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (end != text && *end == '\0' && std::isfinite(seconds) && seconds >= 0) return seconds;
  }
  return kDefaultProgressLogSeconds;
}

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO) != 0;
}

std::string progress_bar(double fraction, int width) {
  const double clamped = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  const auto filled = static_cast<std::size_t>(clamped * width);
  std::string bar(filled, '#');
  bar.resize(static_cast<std::size_t>(width), '.');
  return "[" + bar + "]";
}

std::string progress_text(const std::string& label, const std::string& unit,
                          const ProgressCount& count, double rate, double elapsed_seconds,
                          const std::string& detail, bool bar) {
  const bool known = count.total > 0;
  const double fraction = known ? std::clamp(count.done / count.total, 0.0, 1.0) : 0.0;
  std::string text = label + ":";
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.1f%%", 100 * fraction);
  if (bar && known) text += " " + progress_bar(fraction);
  if (known) text += std::string(" ") + percent;
  if (!unit.empty()) {
    text += (known ? ", " : " ") + count_text(count.done);
    if (known) text += "/" + count_text(count.total);
    text += " " + unit;
    if (rate > 0) text += ", " + rate_text(rate) + " " + unit + "/s";
  }
  text += std::string(known || !unit.empty() ? ", " : " ") + "elapsed " +
          format_duration(elapsed_seconds);
  if (known) {
    const double left = count.total - count.done;
    const double eta = left <= 0 ? 0.0 : rate > 0 ? left / rate : -1.0;
    text += ", ETA " + format_duration(eta);
  }
  if (!detail.empty()) text += ", " + detail;
  return text;
}

ProgressLine::ProgressLine(std::string label, std::string unit, bool tty)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      tty_(tty),
      log_seconds_(progress_log_seconds()),
      started_(std::chrono::steady_clock::now()) {}

ProgressLine::~ProgressLine() {
  std::lock_guard lock(mutex_);
  if (drawn_on_tty_) std::fputs("\n", stderr);
}

void ProgressLine::hide_counts(std::string text) {
  std::lock_guard lock(mutex_);
  hidden_ = true;
  hidden_text_ = std::move(text);
}

double ProgressLine::elapsed_locked() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

void ProgressLine::resume_from(double done) {
  std::lock_guard lock(mutex_);
  resumed_from_ = done;
}

void ProgressLine::update(double done, double total, const std::string& detail) {
  std::lock_guard lock(mutex_);
  if (finished_) return;
  count_ = {done, total};
  detail_ = detail;
  const auto now = std::chrono::steady_clock::now();
  const auto since = now - last_drawn_;
  if (ever_drawn_ && tty_ && since < kTerminalRedraw) return;
  if (!tty_ && since < std::chrono::duration<double>(ever_drawn_ ? log_seconds_ : 0)) return;
  draw_locked(false);
}

void ProgressLine::note(const std::string& text) {
  std::lock_guard lock(mutex_);
  if (drawn_on_tty_) {
    // Clear the redrawn line, print the note, and draw the progress again below it.
    std::fprintf(stderr, "\r%*s\r%s\n", static_cast<int>(drawn_width_), "", text.c_str());
    drawn_on_tty_ = false;
    last_text_.clear();
    if (!finished_) draw_locked(false);
  } else {
    std::fprintf(stderr, "%s\n", text.c_str());
  }
  std::fflush(stderr);
}

void ProgressLine::finish(const std::string& detail) {
  double done = 0, total = 0;
  {
    std::lock_guard lock(mutex_);
    done = count_.done;
    total = count_.total;
  }
  finish(done, total, detail);
}

void ProgressLine::finish(double done, double total, const std::string& detail) {
  std::lock_guard lock(mutex_);
  if (finished_) return;
  count_ = {done, total};
  if (!detail.empty()) detail_ = detail;
  draw_locked(true);
  finished_ = true;
}

void ProgressLine::draw_locked(bool final_line) {
  const double elapsed = elapsed_locked();
  std::string text;
  if (hidden_) {
    text = label_ + ": " + hidden_text_ + ", elapsed " + format_duration(elapsed);
  } else {
    const double rate = elapsed > 0 ? (count_.done - resumed_from_) / elapsed : 0;
    text = progress_text(label_, unit_, count_, rate, elapsed, detail_, tty_);
  }
  last_drawn_ = std::chrono::steady_clock::now();
  ever_drawn_ = true;
  if (tty_) {
    // Pad over the rest of a longer previous line.
    const std::size_t width = text.size();
    std::fprintf(stderr, "\r%s%*s", text.c_str(),
                 static_cast<int>(drawn_width_ > width ? drawn_width_ - width : 0), "");
    drawn_width_ = width;
    drawn_on_tty_ = !final_line;
    if (final_line) std::fputs("\n", stderr);
  } else {
    if (text == last_text_) return;  // never the same line twice in a log
    std::fprintf(stderr, "%s\n", text.c_str());
  }
  last_text_ = text;
  std::fflush(stderr);
}

}  // namespace dplab::cli
