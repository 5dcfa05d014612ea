// GaussianNoise: i.i.d. N(0, s^2) per coordinate for the Gaussian mechanism — the noise added
// to the clipped gradient sum on every step (Abadi et al. 2016, Alg. 1; main paper Alg. 2
// line 8). It is on the hot path (one normal per parameter per step), hence this design:
//
// Method: Box–Muller (Box & Muller 1958) in blocks of kBlock normals. For each pair
//   U ~ Uniform(0, 1] with 53 random bits (double),  V ~ Uniform[-1/2, 1/2) with 24 bits,
//   R = sqrt(-2 ln U),  z1 = R cos(2 pi V),  z2 = R sin(2 pi V)
// gives two independent N(0, 1). R keeps all 53 bits of U (U = 2^(e-53) (1 + x) split exactly in
// double; ln(1 + x) and R in float, see the .cpp), so the largest attainable |z| is 8.57 (a 24-bit
// float uniform would stop at 5.8 sigma and thin the DP noise's tails) and R near 0 is kept. The
// angle, sin/cos and output are float. The float arithmetic runs as Eigen array expressions (SIMD).
//
// Random bits: kLanes independent xoshiro256++ generators (Blackman & Vigna 2019, the same
// generator as dplab::Rng) stepped in lock-step so the compiler vectorises them; lane j is
// seeded by splitmix64 from derive_seed(seed, j). 3/4 of a 64-bit word per normal.
//
// Determinism: same seed and same sequence of calls => same output on the same build. The SIMD
// transcendental kernels may differ in the last ulp between instruction sets (-march), so
// bit-identical output across differently compiled binaries is not promised. A call for n
// values consumes ceil(n / kBlock) whole blocks.
//
// Secure mode (GaussianNoise::secure()): the words come from ChaCha20 (core/chacha20.h) keyed
// from getrandom. Floating-point caveat (Mironov 2012): the noise is a float Box–Muller sample,
// not an exact real Gaussian; see docs/secure-noise.md for what dplab does and does not claim.
//
// Thread-safety: one instance per thread (it owns its generator state). No heap allocation.
#pragma once

#include <cstdint>
#include <optional>

#include "core/chacha20.h"
#include "core/random.h"
#include "core/types.h"

namespace dplab::privacy {

class GaussianNoise {
 public:
  static constexpr int kLanes = 8;      // 8 x 64-bit = one AVX-512 register, two AVX2
  static constexpr Index kBlock = 256;  // normals per Box–Muller block (stack buffers: 3 KiB)
  // Random 64-bit words per block: kBlock/2 radius words + kBlock/4 angle words (2 angles each).
  static constexpr Index kWordsPerBlock = kBlock / 2 + kBlock / 4;

  explicit GaussianNoise(std::uint64_t seed);
  // Secure mode: the random words come from a ChaCha20 stream keyed by OS entropy (no seed
  // exists, nothing can be replayed); the Box–Muller map is the same.
  static GaussianNoise secure();

  // out[i] = stddev * z_i with z_i ~ N(0, 1) i.i.d.; stddev >= 0 and finite.
  void fill(double stddev, VectorSpan out);
  // out[i] += stddev * z_i (same stream as fill). stddev == 0 leaves out untouched and
  // consumes no random numbers.
  void add(double stddev, VectorSpan out);

  // The deterministic Box–Muller map used for every block: kWordsPerBlock random words ->
  // kBlock standard normals. Pair k uses words[k] for U_k = ((words[k] >> 11) + 1) 2^-53 and a
  // 24-bit field of words[kBlock/2 + k/2] for its angle; normals[k] = R_k cos, normals[kBlock/2
  // + k] = R_k sin. Public so tests can feed extreme words (e.g. 0 -> U = 2^-53, R = 8.57).
  static void transform_block(const std::uint64_t* words, float* normals);

 private:
  template <bool kAdd>
  void generate(double stddev, VectorSpan out);
  // Writes kBlock standard normals: block[0, kBlock/2) = R cos, block[kBlock/2, kBlock) = R sin.
  void next_block(float* block);

  alignas(64) std::uint64_t s0_[kLanes];
  alignas(64) std::uint64_t s1_[kLanes];
  alignas(64) std::uint64_t s2_[kLanes];
  alignas(64) std::uint64_t s3_[kLanes];
  std::optional<ChaCha20> secure_;  // set: words from ChaCha20 instead of the xoshiro lanes
};

}  // namespace dplab::privacy
