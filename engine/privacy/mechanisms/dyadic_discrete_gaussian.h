// The fast exact sampler of secure mode's noise (issue #44): N_Z(0, sigma^2) for sigma = 2^k, the
// law of privacy/mechanisms/discrete_gaussian.h (Canonne, Kamath & Steinke 2020, CKS20), by
// rejection from a table-driven envelope instead of CKS20's discrete-Laplace proposal. Every
// probability it uses is either a dyadic rational, decided exactly by comparing uniform bits
// with it, or exp(-gamma) times a rational for a dyadic gamma, decided exactly by comparing the
// uniform real V with as many digits of that real as V needs (integer bounds on it decide from
// V's first 15 digits with probability about 1 - 2^-13, 64-bit bounds from V's first 64 digits
// nearly always after that; more digits come from an exact interval computation, see detail
// below). The accepted value is therefore exactly N_Z(0, sigma^2) conditioned on |x| < 64 sigma
// (2^26 for the grid's sigma = 2^20); that condition moves the law by less than exp(-2048) in
// total variation (docs/secure-noise.md, "Sampler"). The tables (about 30 ms to build at
// sigma = 2^20) are built once per process.
//
// Envelope (magnitudes m >= 0, then a fair sign; (-, 0) is redrawn so 0 is not counted twice):
//   blocks   [s_h, s_h + 2^b_h): 2^(k+3-b) core blocks of 2^b = 2^(k-8) integers up to 8 sigma,
//            then 224 tail blocks of sigma/4 up to 64 sigma;
//   weights  W_h = ceil(K 2^(b_h - b) exp(-s_h^2 / (2 sigma^2))) (integers, from an upper bound of
//            the exponential; K fixed so the sum is just below 2^20, the rest a "redraw"
//            category), drawn by Walker's alias method with integer thresholds (exact: 4096
//            bins of 2^8 each, 12 uniform bits for the bin and 8 for its threshold);
//   then     m = s_h + (b_h uniform bits), accepted with probability
//            p = c_h exp(-g),  c_h = exp(-s_h^2 / (2 sigma^2)) K 2^(b_h - b) / W_h  (<= 1),
//                              g = (m^2 - s_h^2) / (2 sigma^2),
//            i.e. p = exp(-m^2 / (2 sigma^2)) K 2^(b_h - b) / W_h: one coin, V < p;
//   so P[m] is proportional to exp(-m^2 / (2 sigma^2)): the rejection sampler is exact.
// Cost: 48 keystream bits per proposal in the common case (a 32-bit word for the bin, the
// threshold bits and a 12-bit offset field; 16 bits for the sign and V's first 15 digits), 512
// proposals at a time: ChaCha20 in its lane order (ChaCha20::next_blocks_by_word), then one
// branch-free loop on 32-bit lanes that GCC vectorizes (two table reads by the bin, the bounds
// on p), then the accepted values in order; about 99.6% of proposals are accepted.
// Thread-safety: a sampler per thread; the tables are built once per k (thread-safe) and shared.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/chacha20.h"

namespace dplab::privacy {

namespace detail {

struct DyadicGaussianTable;  // dyadic_discrete_gaussian.cpp

// floor(2^(64 limbs) exp(-a / 2^e)) as `limbs` 64-bit words, most significant first (e <= 200,
// limbs >= 1; a = 0 gives 2^(64 limbs) - 1, the largest value below 1). Exact: the digits of the
// interval computation below, refined until they are certain. For tests.
std::vector<std::uint64_t> exp_neg_dyadic_digits(std::uint64_t a, int e, int limbs);

// Is V < c for c = exp(-a / 2^e) multiplier / divisor (<= 1), where V is the uniform real whose
// first 64 binary digits are `prefix` and whose further digits are the next words of `rng`? Exact:
// digits of c from an interval computation with 64 (r + 3)-bit fixed-point numbers (Taylor series
// of exp(-x) for x <= 1/2 with floor/ceiling rounding and the alternating-series remainder, then
// squarings), one more 64-bit word of V per round until V's interval leaves c's.
bool exact_less(std::uint64_t prefix, std::uint64_t a, int e, std::uint64_t multiplier,
                std::uint64_t divisor, ChaCha20& rng);

}  // namespace detail

class DyadicDiscreteGaussian {
 public:
  static constexpr int kMinLog2Sigma = 2;
  static constexpr int kMaxLog2Sigma = 22;

  // sigma = 2^log2_sigma. core_block_bits < 0: the default k - 8 (at least 0); tests pass larger
  // blocks to exercise the exact slow path. Throws InvalidArgument naming the field.
  DyadicDiscreteGaussian(int log2_sigma, ChaCha20 rng, int core_block_bits = -1);

  std::int64_t sample();
  // out[i] = sample(), i = 0, 1, ...: the same values as that many calls of sample() (one loop
  // with the table's fields and the stream position in registers).
  void fill(std::span<std::int64_t> out);
  // The same values as 32-bit integers (every value is below 2^26 in magnitude): the same
  // sequence as fill() and sample(), for a caller that converts them to double.
  void fill(std::span<std::int32_t> out);

 private:
  static constexpr std::size_t kBatch = 512;  // proposals per batch (3 KB of keystream)
  // The accepted values of the next kBatch proposals, in order, into out[0 ..) (room for
  // kBatch); returns how many (about 99.6% of kBatch).
  template <typename T>
  std::size_t run_batch(T* out);
  template <typename T>
  void fill_values(std::span<T> out);
  std::int64_t resolve(std::uint32_t a, std::uint32_t bb, ChaCha20::Reader& words);

  const detail::DyadicGaussianTable* table_;
  ChaCha20 rng_;
  std::array<ChaCha20::Batch, 3> keys_{};      // a batch's keystream (run_batch)
  std::array<std::int32_t, kBatch> values_{};  // its proposals' values or verdicts
  std::array<std::uint8_t, kBatch> open_{};    // 1: rejected or undecided
  // Accepted values drawn but not yet returned: pending_[pending_begin_, pending_end_).
  std::array<std::int32_t, kBatch> pending_{};
  std::size_t pending_begin_ = 0, pending_end_ = 0;
};

}  // namespace dplab::privacy
