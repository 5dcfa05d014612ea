// Batched Box–Muller on SIMD xoshiro256++ lanes: R = sqrt(-2 ln U) (U 53-bit, split exactly in
// double, ln in float), z = R (cos 2 pi V, sin 2 pi V) (V 24-bit, float). See gaussian_noise.h.
// GCC 12's AVX-512 intrinsic headers trip -Wuninitialized inside Eigen's vectorised float sin/cos
// (GCC bug 105593, a false positive fixed in GCC 13). The warning is attributed to Eigen's
// template, so it must be silenced before Eigen is included; scoped to this file.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "privacy/mechanisms/gaussian_noise.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "core/validate.h"

namespace dplab::privacy {
namespace {

constexpr Index kPairs = GaussianNoise::kBlock / 2;
constexpr Index kRadiusWords = kPairs;     // one 53-bit uniform per pair
constexpr Index kAngleWords = kPairs / 2;  // two 24-bit angles per word
constexpr Index kWords = kRadiusWords + kAngleWords;
static_assert(kWords == GaussianNoise::kWordsPerBlock, "word budget of a block");
static_assert(kWords % GaussianNoise::kLanes == 0, "whole lane rounds per block");
static_assert(kPairs % 2 == 0, "two angles per word");

using PairArray = Eigen::Array<float, kPairs, 1>;

// kLanes 64-bit lanes as one value (GCC/Clang vector extension).
typedef std::uint64_t LaneVector
    __attribute__((vector_size(GaussianNoise::kLanes * sizeof(std::uint64_t))));

}  // namespace

GaussianNoise::GaussianNoise(std::uint64_t seed) {
  for (int lane = 0; lane < kLanes; ++lane) {
    std::uint64_t sm = derive_seed(seed, static_cast<std::uint64_t>(lane));
    s0_[lane] = splitmix64(sm);
    s1_[lane] = splitmix64(sm);
    s2_[lane] = splitmix64(sm);
    s3_[lane] = splitmix64(sm);
  }
}

GaussianNoise GaussianNoise::secure() {
  GaussianNoise noise(0);  // lanes unused
  noise.secure_.emplace(ChaCha20::from_os_entropy());
  return noise;
}

void GaussianNoise::next_block(float* block) {
  if (secure_) {
    alignas(64) std::uint64_t words[kWords];
    secure_->fill(words, kWords);
    transform_block(words, block);
    return;
  }
  // 1. Random words: one xoshiro256++ step on all kLanes lanes at once (GCC/Clang vector
  //    extension: one AVX-512 instruction per operation, two with AVX2). Plain arrays with a
  //    lane loop are scalarised by GCC 12 and cost 8x more.
  LaneVector a, b, c, d;
  std::memcpy(&a, s0_, sizeof a);
  std::memcpy(&b, s1_, sizeof b);
  std::memcpy(&c, s2_, sizeof c);
  std::memcpy(&d, s3_, sizeof d);
  alignas(64) std::uint64_t words[kWords];
  for (Index round = 0; round < kWords; round += GaussianNoise::kLanes) {
    const LaneVector sum = a + d;
    const LaneVector result = ((sum << 23) | (sum >> 41)) + a;  // rotl(s0 + s3, 23) + s0
    const LaneVector t = b << 17;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = (d << 45) | (d >> 19);  // rotl(s3, 45)
    std::memcpy(words + round, &result, sizeof result);
  }
  std::memcpy(s0_, &a, sizeof a);
  std::memcpy(s1_, &b, sizeof b);
  std::memcpy(s2_, &c, sizeof c);
  std::memcpy(s3_, &d, sizeof d);
  transform_block(words, block);
}

void GaussianNoise::transform_block(const std::uint64_t* words, float* block) {
  // 2. U = v 2^-53 with v = (w >> 11) + 1 in [1, 2^53]: 53 bits, never 0, so ln U is finite.
  //    Split exactly, in double: v = 2^e (1 + x) with 1 + x in [sqrt(1/2), sqrt(2)), so that
  //        ln U = (e - 53) ln 2 + ln(1 + x).
  //    x = m - 1 is exact (Sterbenz) and keeps its 24 leading bits when rounded to float, so U
  //    near 1 (R near 0) is not flattened as a float U would be; U = 2^-53 gives e - 53 = -53, x =
  //    0.
  PairArray x;
  PairArray exponent;  // e - 53, an integer in [-53, 0]
  for (Index k = 0; k < kPairs; ++k) {
    const double v = static_cast<double>(static_cast<std::int64_t>((words[k] >> 11) + 1));
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
    double m = std::bit_cast<double>((bits & 0x000FFFFFFFFFFFFFULL) | 0x3FF0000000000000ULL);
    std::int64_t e = static_cast<std::int64_t>(bits >> 52) - 1023;  // m in [1, 2)
    const bool high = m > 1.4142135623730951;
    m = high ? 0.5 * m : m;
    e = high ? e + 1 : e;
    x[k] = static_cast<float>(m - 1.0);
    exponent[k] = static_cast<float>(e - 53);
  }
  // 3. Angles 2 pi V with V = (b - 2^23) 2^-24 in [-1/2, 1/2), b a 24-bit field (float's
  //    mantissa width); centred so sin/cos see [-pi, pi) (least range-reduction error).
  PairArray turns;
  for (Index k = 0; k < kAngleWords; ++k) {
    const std::uint64_t w = words[kRadiusWords + k];
    turns[2 * k] = static_cast<float>(static_cast<std::int32_t>(w >> 40) - (1 << 23));
    turns[2 * k + 1] =
        static_cast<float>(static_cast<std::int32_t>((w >> 8) & 0xFFFFFF) - (1 << 23));
  }
  constexpr float kTwoPiOver2To24 = 6.283185307179586f * 0x1.0p-24f;
  const PairArray angle = kTwoPiOver2To24 * turns;
  // 4. ln(1 + x) = x - x^2 / 2 + x^3 P(x) on [sqrt(1/2) - 1, sqrt(2) - 1) with the degree-8
  //    minimax P of Cephes' logf (Moshier 1989), in float: no division, 16 lanes per AVX-512
  //    instruction. ln 2 is split as hi + lo (hi exact in 9 bits), so (e - 53) hi is exact.
  //    Then R = sqrt(-2 ln U). Measured against a long-double sqrt(-2 ln U) over 2^19 random words
  //    and the extremes: relative error <= 1.9e-7 (a few float ulp; the double log rounded to float
  //    was 0.6e-7), 4x less time per pair than Eigen's double log and sqrt.
  //    History: until 2026-11 R was Eigen's double log and sqrt rounded to float. The words drawn
  //    are the same; R differs by a few ulp, so seeded runs agree with earlier builds in law, not
  //    bit for bit (as between builds for different instruction sets; docs/performance.md "TLNN").
  const PairArray z2 = x * x;
  PairArray p = PairArray::Constant(7.0376836292e-2f);
  p = p * x - 1.1514610310e-1f;
  p = p * x + 1.1676998740e-1f;
  p = p * x - 1.2420140846e-1f;
  p = p * x + 1.4249322787e-1f;
  p = p * x - 1.6668057665e-1f;
  p = p * x + 2.0000714765e-1f;
  p = p * x - 2.4999993993e-1f;
  p = p * x + 3.3333331174e-1f;
  constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  const PairArray ln_u = (x * z2 * p - 0.5f * z2 + exponent * kLn2Lo) + x + exponent * kLn2Hi;
  const PairArray radius = (-2.f * ln_u).sqrt();
  Eigen::Map<PairArray> cos_half(block);
  Eigen::Map<PairArray> sin_half(block + kPairs);
  cos_half = radius * angle.cos();
  sin_half = radius * angle.sin();
}

template <bool kAdd>
void GaussianNoise::generate(double stddev, VectorSpan out) {
  require_non_negative("noise stddev", stddev);
  const float scale = static_cast<float>(stddev);
  const Index n = out.size();
  alignas(64) float block[kBlock];
  for (Index start = 0; start < n; start += kBlock) {
    next_block(block);
    const Index count = std::min(kBlock, n - start);
    const Eigen::Map<const Eigen::ArrayXf> z(block, count);
    if constexpr (kAdd) {
      out.segment(start, count).array() += scale * z;
    } else {
      out.segment(start, count).array() = scale * z;
    }
  }
}

void GaussianNoise::fill(double stddev, VectorSpan out) {
  generate<false>(stddev, out);
}

void GaussianNoise::add(double stddev, VectorSpan out) {
  if (stddev == 0) return;
  generate<true>(stddev, out);
}

}  // namespace dplab::privacy

#pragma GCC diagnostic pop
