// The one timer behind `dplab-cli bench`: seconds per call of a body, the best of 3 rounds of
// about seconds/3 each (the round least disturbed by other load on the machine), after
// `warmup_calls` untimed calls that size buffers and warm caches.
#pragma once

#include <algorithm>
#include <chrono>

namespace dplab::cli {

template <typename Body>
double seconds_per_call(double seconds, Body&& body, int warmup_calls = 3) {
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < warmup_calls; ++i) body();
  double best = 1e300;
  for (int round = 0; round < 3; ++round) {
    long calls = 0;
    const auto start = Clock::now();
    double elapsed = 0;
    do {
      body();
      ++calls;
      elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < seconds / 3);
    best = std::min(best, elapsed / static_cast<double>(calls));
  }
  return best;
}

}  // namespace dplab::cli
