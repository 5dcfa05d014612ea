// Seeded pseudo-random numbers. Every stochastic path in dplab takes an explicit seed; streams
// for sub-tasks are derived with derive_seed so that results do not depend on thread count.
//
// Generator: xoshiro256++ (Blackman & Vigna 2019), state seeded by splitmix64. Fast (~1 ns per
// 64-bit word), 2^256-1 period, and identical on every platform (unlike std:: distributions).
#pragma once

#include <cstdint>
#include <limits>

namespace dplab {

// splitmix64 step (Steele, Lea, Flood 2014); used to seed and to hash seeds.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A seed for a sub-stream identified by (seed, a, b), e.g. (experiment seed, candidate, repeat).
constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0) {
  std::uint64_t state = seed;
  std::uint64_t h = splitmix64(state);
  state = h ^ (a * 0xD1B54A32D192ED03ULL);
  h = splitmix64(state);
  state = h ^ (b * 0x8CB92BA72F3D8DD7ULL);
  return splitmix64(state);
}

// GCC/Clang 128-bit integer; __extension__ keeps -Wpedantic quiet about it.
__extension__ using Uint128 = unsigned __int128;

class Rng {
 public:
  using result_type = std::uint64_t;
  explicit Rng(std::uint64_t seed) {
    std::uint64_t sm = seed;
    for (auto& word : s_) word = splitmix64(sm);
  }
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  result_type operator()() {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }
  // Uniform in (0, 1]: safe to take the log of.
  double uniform_open_zero() { return (static_cast<double>((*this)() >> 11) + 1.0) * 0x1.0p-53; }
  // Uniform integer in [0, n), n > 0 (Lemire's nearly divisionless method, unbiased).
  std::uint64_t below(std::uint64_t n) {
    Uint128 m = static_cast<Uint128>((*this)()) * n;
    std::uint64_t low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<Uint128>((*this)()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace dplab
