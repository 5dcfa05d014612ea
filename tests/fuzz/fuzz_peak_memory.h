// Shared by the harnesses that hold a loader to its memory budget (loader_budget, corpus): the
// peak resident memory of the process, reset before each input (/proc/self/clear_refs "5") and
// read after it (VmHWM), so an allocation the budget did not see (core/memory_check.h) shows as
// growth beyond the budget and is reported as a finding.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dplab::fuzz {

// A "Name:   123 kB" field of /proc/self/status in KiB; -1 when it cannot be read.
inline double status_kib(const char* field) {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  double value = -1;
  const std::size_t n = std::strlen(field);
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, field, n) == 0) {
      value = std::atof(line + n);
      break;
    }
  }
  std::fclose(f);
  return value;
}

inline bool reset_peak_rss() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (f == nullptr) return false;
  const bool ok = std::fputs("5", f) >= 0;
  return std::fclose(f) == 0 && ok;
}

// Measures one input: construct before the call, check() after it. Traps (a libFuzzer finding)
// when the peak grew by more than `allowed_bytes`; `what` names the harness in the message.
class PeakMemoryCheck {
 public:
  PeakMemoryCheck() : measured_(reset_peak_rss()), before_(measured_ ? status_kib("VmRSS:") : -1) {}
  void check(double allowed_bytes, double budget_bytes, const char* what) const {
    if (!measured_ || before_ < 0) return;
    const double peak = status_kib("VmHWM:");
    if (peak >= 0 && (peak - before_) * 1024.0 > allowed_bytes) {
      std::fprintf(stderr,
                   "%s: peak memory grew by %.0f MB, over the %.0f MB budget (+ ASan shadow and "
                   "slack)\n",
                   what, (peak - before_) / 1024.0, budget_bytes / 1e6);
      __builtin_trap();
    }
  }

 private:
  bool measured_;
  double before_;
};

}  // namespace dplab::fuzz
