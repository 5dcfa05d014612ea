// The one timer behind `dplab-cli bench`: seconds per call of a body, the best of several rounds
// (the round least disturbed by other load on the machine), after `warmup_calls` untimed calls
// that size buffers and warm caches.
// A ratio of two timings (a step against its ceiling) is only as good as the machine's speed was
// alike for both. This VM, like many, moves between speed states seconds apart, so bodies whose
// timings are divided are timed together: their rounds alternate (A B C A B C ...), each of about
// seconds / (rounds x bodies), and each body keeps its best round.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <span>
#include <vector>

namespace dplab::cli {

inline std::vector<double> interleaved_seconds_per_call(
    double seconds, std::span<const std::function<void()>> bodies, int rounds,
    int warmup_calls = 3) {
  using Clock = std::chrono::steady_clock;
  for (const auto& body : bodies)
    for (int i = 0; i < warmup_calls; ++i) body();
  std::vector<double> best(bodies.size(), 1e300);
  const double round_seconds = seconds / static_cast<double>(rounds * bodies.size());
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      long calls = 0;
      const auto start = Clock::now();
      double elapsed = 0;
      do {
        bodies[b]();
        ++calls;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      } while (elapsed < round_seconds);
      best[b] = std::min(best[b], elapsed / static_cast<double>(calls));
    }
  }
  return best;
}

// One body alone: the best of 3 rounds of about seconds/3 each.
template <typename Body>
double seconds_per_call(double seconds, Body&& body, int warmup_calls = 3) {
  const std::array<std::function<void()>, 1> one{std::function<void()>(body)};
  return interleaved_seconds_per_call(seconds, one, 3, warmup_calls).front();
}

}  // namespace dplab::cli
