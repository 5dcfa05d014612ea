#include "privacy/mechanisms/dyadic_discrete_gaussian.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/random.h"
#include "core/wide_vectors.h"

namespace dplab::privacy {
namespace detail {

namespace {

// Fixed-point numbers with n fractional 64-bit limbs and one integer limb, little-endian:
// value = sum_i x[i] 2^(64 (i - n)). Only the operations the exp interval needs, each rounding
// down or up as asked, so an interval [lo, hi] computed with them always contains the exact value.
using Limbs = std::vector<std::uint64_t>;

Limbs zero(int n) {
  return Limbs(static_cast<std::size_t>(std::max(n, 0)) + 1, 0);
}
Limbs one(int n) {
  Limbs x = zero(n);
  x[x.size() - 1] = 1;
  return x;
}
int fractional(const Limbs& x) {
  return static_cast<int>(x.size()) - 1;
}

// a / 2^e exactly; 0 <= 64 n - e.
Limbs dyadic(std::uint64_t a, int e, int n) {
  Limbs x = zero(n);
  const int shift = 64 * n - e;  // a 2^shift in units of 2^(-64 n)
  const auto limb = static_cast<std::size_t>(shift / 64);
  const int bit = shift % 64;
  x[limb] |= a << bit;
  if (bit != 0 && limb + 1 < x.size()) x[limb + 1] |= a >> (64 - bit);
  return x;
}

int compare(const Limbs& a, const Limbs& b) {  // same size
  for (std::size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

void add(Limbs& a, const Limbs& b) {
  unsigned carry = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Uint128 s = static_cast<Uint128>(a[i]) + b[i] + carry;
    a[i] = static_cast<std::uint64_t>(s);
    carry = static_cast<unsigned>(s >> 64);
  }
}

void sub(Limbs& a, const Limbs& b) {  // a >= b
  std::uint64_t borrow = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::uint64_t bi = b[i] + borrow;
    const bool under = bi < borrow || a[i] < bi;
    a[i] -= bi;
    borrow = under ? 1 : 0;
  }
}

void add_ulp(Limbs& a) {
  for (auto& limb : a) {
    if (++limb != 0) return;
  }
}

bool at_most_one_ulp(const Limbs& a) {
  for (std::size_t i = 1; i < a.size(); ++i) {
    if (a[i] != 0) return false;
  }
  return a[0] <= 1;
}

// x y, rounded down (up = false) or up.
Limbs mul(const Limbs& x, const Limbs& y, bool up) {
  const std::size_t size = x.size();
  const std::size_t n = size - 1;
  Limbs product(2 * size, 0);
  for (std::size_t i = 0; i < size; ++i) {
    std::uint64_t carry = 0;
    for (std::size_t j = 0; j < size; ++j) {
      const Uint128 t = static_cast<Uint128>(x[i]) * y[j] + product[i + j] + carry;
      product[i + j] = static_cast<std::uint64_t>(t);
      carry = static_cast<std::uint64_t>(t >> 64);
    }
    product[i + size] += carry;
  }
  Limbs result(product.begin() + static_cast<std::ptrdiff_t>(n),
               product.begin() + static_cast<std::ptrdiff_t>(n + size));
  if (up && std::any_of(product.begin(), product.begin() + static_cast<std::ptrdiff_t>(n),
                        [](std::uint64_t v) { return v != 0; }))
    add_ulp(result);
  return result;
}

Limbs mul_small(const Limbs& x, std::uint64_t k) {  // exact while the result is < 2^64
  Limbs result(x.size(), 0);
  std::uint64_t carry = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Uint128 t = static_cast<Uint128>(x[i]) * k + carry;
    result[i] = static_cast<std::uint64_t>(t);
    carry = static_cast<std::uint64_t>(t >> 64);
  }
  return result;
}

Limbs div_small(const Limbs& x, std::uint64_t d, bool up) {
  Limbs q(x.size(), 0);
  Uint128 remainder = 0;
  for (std::size_t i = x.size(); i-- > 0;) {
    const Uint128 current = (remainder << 64) | x[i];
    q[i] = static_cast<std::uint64_t>(current / d);
    remainder = current % d;
  }
  if (up && remainder != 0) add_ulp(q);
  return q;
}

// Keeps `keep` fractional limbs, rounding down or up.
Limbs truncate(const Limbs& x, int keep, bool up) {
  const auto drop = static_cast<std::ptrdiff_t>(fractional(x) - keep);
  Limbs result(x.begin() + drop, x.end());
  if (up && std::any_of(x.begin(), x.begin() + drop, [](std::uint64_t v) { return v != 0; }))
    add_ulp(result);
  return result;
}

struct Interval {
  Limbs lo, hi;
};

// [lo, hi] containing exp(-a / 2^e), n fractional limbs (e + 64 <= 64 n). Range reduction:
// x = a / 2^(e + j) <= 1/2, exp(-a / 2^e) = exp(-x)^(2^j). exp(-x) = sum_k (-1)^k t_k with
// t_k = x^k / k! decreasing (x / k <= 1/2), so stopping after t_K leaves a remainder of at most
// t_(K+1) <= t_K in magnitude. Each t_k is bounded below and above by rounding every operation
// down, resp. up; the squarings round the same way.
Interval exp_neg(std::uint64_t a, int e, int n) {
  if (a == 0) return {one(n), one(n)};
  const int bits = 64 - std::countl_zero(a);  // a < 2^bits
  const int j = std::max(0, bits - e + 1);    // x < 2^(bits - e - j) <= 1/2
  const Limbs x = dyadic(a, e + j, n);
  Limbs t_lo = one(n), t_hi = one(n), pos_lo = one(n), pos_hi = one(n);
  Limbs neg_lo = zero(n), neg_hi = zero(n);
  for (std::uint64_t k = 1;; ++k) {
    t_lo = div_small(mul(t_lo, x, false), k, false);
    t_hi = div_small(mul(t_hi, x, true), k, true);
    if (k % 2 == 1) {
      add(neg_lo, t_lo);
      add(neg_hi, t_hi);
    } else {
      add(pos_lo, t_lo);
      add(pos_hi, t_hi);
    }
    if (at_most_one_ulp(t_hi)) break;
  }
  Interval result{pos_lo, pos_hi};
  Limbs below = neg_hi;
  add(below, t_hi);
  if (compare(result.lo, below) >= 0) {
    sub(result.lo, below);
  } else {
    result.lo = zero(n);
  }
  add(result.hi, t_hi);
  sub(result.hi, neg_lo);  // pos_hi >= 1 > neg_lo
  for (int i = 0; i < j; ++i) {
    result.lo = mul(result.lo, result.lo, false);
    result.hi = mul(result.hi, result.hi, true);
  }
  return result;
}

}  // namespace

std::vector<std::uint64_t> exp_neg_dyadic_digits(std::uint64_t a, int e, int limbs) {
  if (limbs < 1 || e < 0 || e > 200) throw InvalidArgument("exp digits: limbs >= 1, e in [0, 200]");
  if (a == 0) return std::vector<std::uint64_t>(static_cast<std::size_t>(limbs), ~std::uint64_t{0});
  for (int n = limbs + 4;; n += 2) {
    const Interval ex = exp_neg(a, e, std::max(n, (e + 64) / 64 + 1));
    const Limbs lo = truncate(ex.lo, limbs, false), hi = truncate(ex.hi, limbs, false);
    if (lo == hi && lo.back() == 0) {
      std::vector<std::uint64_t> digits;
      for (int i = limbs; i-- > 0;) digits.push_back(lo[static_cast<std::size_t>(i)]);
      return digits;
    }
  }
}

bool exact_less(std::uint64_t prefix, std::uint64_t a, int e, std::uint64_t multiplier,
                std::uint64_t divisor, ChaCha20& rng) {
  std::vector<std::uint64_t> v{prefix};  // V's known digits, most significant word first
  for (int r = 0;; ++r) {
    if (r > 0) v.push_back(rng.next_u64());
    const int n = std::max(r + 4, (e + 64) / 64 + 1);
    const Interval ex = exp_neg(a, e, n);
    const Limbs lo =
        truncate(div_small(mul_small(ex.lo, multiplier), divisor, false), r + 1, false);
    const Limbs hi = truncate(div_small(mul_small(ex.hi, multiplier), divisor, true), r + 1, true);
    Limbs known = zero(r + 1);  // V's first 64 (r + 1) digits: V in [known, known + 1 ulp)
    for (int i = 0; i <= r; ++i)
      known[static_cast<std::size_t>(r - i)] = v[static_cast<std::size_t>(i)];
    if (compare(known, lo) < 0) return true;    // V < known + 1 ulp <= lo <= c
    if (compare(known, hi) >= 0) return false;  // V >= known >= hi >= c
  }
}

// The envelope of dyadic_discrete_gaussian.h.
struct DyadicBlock {
  std::uint64_t start = 0;       // s_h
  int bits = 0;                  // b_h: the block holds 2^b_h integers
  std::uint64_t gamma = 0;       // s_h^2: exp(-s_h^2 / 2^e) is the envelope's height
  std::uint64_t multiplier = 0;  // K 2^(b_h - b)
  std::uint64_t weight = 0;      // W_h
  std::uint64_t digits = 0;      // floor(2^64 c_h), certain
  bool one = false;              // c_h = 1 (block 0: exp(0) K / K)
};

struct DyadicGaussianTable {
  static constexpr int kBinBits = 12;
  static constexpr int kCapacityBits = 8;  // each bin holds 2^8: total mass 2^20
  static constexpr int kOffsetBits = 12;   // a proposal word's offset field
  static constexpr std::size_t kBins = std::size_t{1} << kBinBits;
  int e = 0;                     // 2 sigma^2 = 2^e
  int core_bits = 0;             // b
  std::uint64_t fast_limit = 0;  // resolve()'s 64-bit bounds for a < fast_limit (g < 2^-4)
  int gamma_shift = 0;           // 2^64 g = a << gamma_shift
  std::size_t core_count = 0;    // blocks 0 .. core_count - 1 have 2^b integers
  std::size_t fast_count = 0;  // core_count if b <= kOffsetBits (the word holds the offset), else 0
  std::size_t block_count = 0;  // categories >= block_count: redraw
  // The hot data, kept small (16 KB + 16 KB), both read at the bin's index: bin i keeps
  // category i iff the next 8 uniform bits are below threshold_i, else goes to alias_i,
  // bins[i] = (threshold_i << 12) | alias_i; and digit_pairs[i] = (c16(i) << 16) | c16(alias_i)
  // with c16(h) = floor(2^16 c_h) (0 for the redraw categories).
  std::array<std::uint32_t, kBins> bins{};
  std::array<std::uint32_t, kBins> digit_pairs{};
  std::vector<DyadicBlock> blocks;
};

namespace {

std::unique_ptr<DyadicGaussianTable> build_table(int k, int b) {
  auto table = std::make_unique<DyadicGaussianTable>();
  table->e = 2 * k + 1;
  table->core_bits = b;
  table->fast_limit = std::uint64_t{1} << (2 * k - 3);
  table->gamma_shift = 63 - 2 * k;
  auto& blocks = table->blocks;
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << (k + 3 - b)); ++i) {
    DyadicBlock block;
    block.start = i << b;
    block.bits = b;
    blocks.push_back(block);
  }
  table->core_count = blocks.size();
  for (std::uint64_t i = 0; i < 224; ++i) {  // 8 sigma .. 64 sigma in steps of sigma / 4
    DyadicBlock block;
    block.start = (std::uint64_t{1} << (k + 3)) + (i << (k - 2));
    block.bits = k - 2;
    blocks.push_back(block);
  }
  const int n = 4;
  std::vector<Interval> heights;
  long double mass = 0;  // ~ sum_h 2^(b_h - b) exp(-s_h^2 / 2^e), only to choose K
  for (auto& block : blocks) {
    block.gamma = block.start * block.start;
    heights.push_back(exp_neg(block.gamma, table->e, n));
    const Limbs& hi = heights.back().hi;
    const long double height = static_cast<long double>(hi[n]) +
                               static_cast<long double>(hi[n - 1]) * 0x1p-64L +
                               static_cast<long double>(hi[n - 2]) * 0x1p-128L;
    mass += height * static_cast<long double>(std::uint64_t{1} << (block.bits - b));
  }
  const int total_bits = DyadicGaussianTable::kBinBits + DyadicGaussianTable::kCapacityBits;
  const Uint128 total = Uint128{1} << total_bits;
  // Each weight's ceiling adds less than 1: K = (2^20 - blocks) / mass leaves room for all of them.
  auto scale = static_cast<std::uint64_t>(
      (static_cast<long double>(total) - static_cast<long double>(blocks.size())) /
      (mass * (1 + 0x1p-40L)));
  for (;;) {
    Uint128 sum = 0;
    for (std::size_t h = 0; h < blocks.size(); ++h) {
      auto& block = blocks[h];
      block.multiplier = scale << (block.bits - b);
      const Limbs upper = mul_small(heights[h].hi, block.multiplier);  // >= exp(-gamma) K'
      block.weight = upper[n] + (std::any_of(upper.begin(), upper.begin() + n,
                                             [](std::uint64_t v) { return v != 0; })
                                     ? 1
                                     : 0);
      sum += block.weight;
    }
    if (sum <= total) break;
    scale -= std::max<std::uint64_t>(1, scale >> 20);
  }
  // c_h's first 64 digits, refined until certain.
  for (std::size_t h = 0; h < blocks.size(); ++h) {
    auto& block = blocks[h];
    if (block.gamma == 0) {
      if (block.weight != block.multiplier) throw Error("discrete Gaussian table: block 0 weight");
      block.one = true;
      block.digits = ~std::uint64_t{0};  // c = 1: every V < 1
      continue;
    }
    for (int precision = n;; precision += 2) {
      const Interval ex = precision == n ? heights[h] : exp_neg(block.gamma, table->e, precision);
      const Limbs lo =
          truncate(div_small(mul_small(ex.lo, block.multiplier), block.weight, false), 1, false);
      const Limbs hi =
          truncate(div_small(mul_small(ex.hi, block.multiplier), block.weight, true), 1, false);
      if (lo == hi && lo[1] == 0) {
        block.digits = lo[0];
        break;
      }
    }
  }
  table->block_count = blocks.size();
  // Walker's alias method (Vose's construction) on integer weights: bin i keeps category i with
  // mass threshold_i and gives the rest of its 2^20 to alias_i; every category's mass over the
  // bins is its weight exactly. Category blocks.size() (and any after it) means "redraw".
  constexpr std::size_t kBins = DyadicGaussianTable::kBins;
  constexpr std::uint64_t kCapacity = std::uint64_t{1} << DyadicGaussianTable::kCapacityBits;
  if (blocks.size() >= kBins) throw Error("discrete Gaussian table: too many blocks");
  std::vector<std::uint64_t> mass_left(kBins, 0);
  Uint128 used = 0;
  for (std::size_t h = 0; h < blocks.size(); ++h) {
    mass_left[h] = blocks[h].weight;
    used += blocks[h].weight;
  }
  mass_left[blocks.size()] = static_cast<std::uint64_t>(total - used);
  std::vector<std::size_t> small, large;
  for (std::size_t i = 0; i < kBins; ++i) (mass_left[i] < kCapacity ? small : large).push_back(i);
  std::vector<std::uint64_t> threshold(kBins, kCapacity);
  std::vector<std::uint32_t> alias(kBins);
  for (std::size_t i = 0; i < kBins; ++i) alias[i] = static_cast<std::uint32_t>(i);
  while (!small.empty() && !large.empty()) {
    const std::size_t s = small.back(), l = large.back();
    small.pop_back();
    large.pop_back();
    threshold[s] = mass_left[s];
    alias[s] = static_cast<std::uint32_t>(l);
    mass_left[l] -= kCapacity - mass_left[s];
    (mass_left[l] < kCapacity ? small : large).push_back(l);
  }
  for (const std::size_t i : small) {  // exact integers: what is left is full
    if (mass_left[i] != kCapacity) throw Error("discrete Gaussian table: alias construction");
  }
  for (const std::size_t i : large) {
    if (mass_left[i] != kCapacity) throw Error("discrete Gaussian table: alias construction");
  }
  // Check: each category's mass over the bins is its weight.
  std::vector<Uint128> check(kBins, 0);
  for (std::size_t i = 0; i < kBins; ++i) {
    check[i] += threshold[i];
    check[alias[i]] += kCapacity - threshold[i];
  }
  for (std::size_t h = 0; h < blocks.size(); ++h) {
    if (check[h] != blocks[h].weight) throw Error("discrete Gaussian table: alias masses");
  }
  for (std::size_t i = 0; i < kBins; ++i) {
    // A full bin: threshold 0 (never below) and alias itself.
    const std::uint64_t t = threshold[i] == kCapacity ? 0 : threshold[i];
    const std::uint32_t to = threshold[i] == kCapacity ? static_cast<std::uint32_t>(i) : alias[i];
    table->bins[i] = static_cast<std::uint32_t>(t << DyadicGaussianTable::kBinBits) | to;
  }
  const auto c16 = [&](std::size_t h) {
    return h < blocks.size() ? static_cast<std::uint32_t>(blocks[h].digits >> 48) : 0u;
  };
  for (std::size_t i = 0; i < kBins; ++i)
    table->digit_pairs[i] = (c16(i) << 16) | c16(table->bins[i] & 0xFFF);
  table->fast_count = b <= DyadicGaussianTable::kOffsetBits ? table->core_count : 0;
  return table;
}

const DyadicGaussianTable& table_for(int k, int b) {
  static std::mutex mutex;
  static std::map<std::pair<int, int>, std::unique_ptr<DyadicGaussianTable>> tables;
  const std::lock_guard lock(mutex);
  auto& slot = tables[{k, b}];
  if (!slot) slot = build_table(k, b);
  return *slot;
}

}  // namespace
}  // namespace detail

DyadicDiscreteGaussian::DyadicDiscreteGaussian(int log2_sigma, ChaCha20 rng, int core_block_bits)
    : table_(nullptr), rng_(rng) {
  if (log2_sigma < kMinLog2Sigma || log2_sigma > kMaxLog2Sigma) {
    throw InvalidArgument("log2_sigma: the dyadic discrete Gaussian takes sigma = 2^k, k in [2, " +
                          std::to_string(kMaxLog2Sigma) +
                          "], got k = " + std::to_string(log2_sigma));
  }
  const int smallest = std::max(0, log2_sigma - 8);
  const int b = core_block_bits < 0 ? smallest : core_block_bits;
  if (b < smallest || b > log2_sigma - 2) {
    throw InvalidArgument("core_block_bits: must be in [" + std::to_string(smallest) + ", " +
                          std::to_string(log2_sigma - 2) + "], got " + std::to_string(b));
  }
  table_ = &detail::table_for(log2_sigma, b);
}

// A batch: kBatch proposals, each a 32-bit word A and a 16-bit half word B of the keystream
// (ChaCha20::next_blocks_by_word: keys_[0] and keys_[1] hold the A words of proposals 0 .. 255 and
// 256 .. 511, keys_[2][j] the B words of proposals j (low half) and 256 + j (high half)):
//   A = [bin: 12][u: 8][offset: 12]   B = [sign: 1][V: 15]
// The offset is the field's top b bits; V's 15 bits are the first binary digits of the uniform
// real of the acceptance coin. propose() decides each proposal from these 48 bits alone, in a
// loop without branches that the compiler vectorizes; resolve() finishes the few it leaves open
// (about 2^-13 of them) with further words of the stream.
namespace {

constexpr std::int32_t kRejected = std::numeric_limits<std::int32_t>::min();
constexpr std::int32_t kUndecided = kRejected + 1;

struct FastFields {
  const std::uint32_t* bins;
  const std::uint32_t* digit_pairs;
  std::uint32_t b, offset_shift;  // b, 12 - b
  std::uint32_t fast_count, block_count;
  // 2^16 g = (offset h 2^(b+1) + offset^2) 2^(16 - e) for a core block h (s_h = h 2^b): each
  // term as (t << left) >> right, one of the shifts 0.
  std::uint32_t left1, right1, left2, right2;
};

// values[j] = the value of proposal j, kRejected or kUndecided (int32: |value| < 2^26), and
// open[j] = 1 for these two verdicts, else 0 (for run_batch's test of 16 at once). The block
// by the alias method (bin, then its own category iff u < threshold: exact, the thresholds are
// integers out of 2^8), m = s_h + offset, then the coin V < p = c_h exp(-g), g = (m^2 - s_h^2) /
// 2^e, decided by integer bounds on p. With c = c16(h) = floor(2^16 c_h) (so c / 2^16 <= c_h <
// (c + 1) / 2^16 <= 1) and G = 2^16 g between gf = floor and gc = ceil (a sum of two shifted
// terms, each rounded down, resp. up):
//   p >= c_h (1 - g) >= c_h - g >= (c - gc) / 2^16 =: lo / 2^16,
//   p <= c_h (1 - g + g^2 / 2) <= (c + 1) / 2^16 (1 - drop / 2^16) <= up / 2^31,
//        drop = max(0, gf - ceil(gc^2 / 2^17)) (g - g^2/2 >= drop / 2^16), up = (c + 1) 2^15 -
//        floor((c + 1) drop / 2),
// V in [v, v + 1) / 2^15: accepted if 2 (v + 1) <= lo, rejected if 2^16 v >= up, else undecided
// (probability about 2^-13: V's cell straddles a bound, or falls between them). Blocks whose
// offset the word does not hold (the tail, or b > 12), and gc >= 2^15, have lo = 0 and up = (c +
// 1) 2^15 (p <= c_h): rejected or undecided. Everything fits 32 bits (offset h < 2^23, offset^2 <
// 2^24, gc < 2^15 where it is used, (c + 1) drop < 2^31; a lane that is not fast does not use the
// values that may wrap), so the loop runs on 32-bit lanes, without branches: the conditions are
// 0 / all-ones masks (bool variables and && stop GCC's vectorizer).
void propose(const FastFields f, const std::uint32_t* __restrict a_words,
             const std::uint32_t* __restrict b_words, std::uint32_t b_shift,
             std::int32_t* __restrict values, std::uint8_t* __restrict open) {
  const std::uint32_t* __restrict bins = f.bins;
  const std::uint32_t* __restrict digit_pairs = f.digit_pairs;
  for (std::size_t j = 0; j < 256; ++j) {
    const std::uint32_t a = a_words[j];
    const std::uint32_t bb = (b_words[j] >> b_shift) & 0xFFFF;
    const std::uint32_t bin = a >> 20;
    const std::uint32_t cell = bins[bin];
    const std::uint32_t pair = digit_pairs[bin];
    const std::uint32_t own = ((a >> 12) & 0xFF) < (cell >> 12) ? ~0u : 0u;
    const std::uint32_t category = (bin & own) | (cell & 0xFFF & ~own);
    const std::uint32_t c = ((pair >> 16) & own) | (pair & 0xFFFF & ~own);
    const std::uint32_t offset = (a & 0xFFF) >> f.offset_shift;
    const std::uint32_t t1 = (offset * category) << f.left1;
    const std::uint32_t t2 = (offset * offset) << f.left2;
    const std::uint32_t g_floor = (t1 >> f.right1) + (t2 >> f.right2);
    const std::uint32_t g_ceil =
        ((t1 + ((1u << f.right1) - 1)) >> f.right1) + ((t2 + ((1u << f.right2) - 1)) >> f.right2);
    const std::uint32_t fast =
        (category < f.fast_count ? ~0u : 0u) & (g_ceil < (1u << 15) ? ~0u : 0u);
    const std::uint32_t half_square = (g_ceil * g_ceil + ((1u << 17) - 1)) >> 17;
    const std::uint32_t drop = g_floor > half_square ? g_floor - half_square : 0;
    const std::uint32_t lo = (c > g_ceil ? c - g_ceil : 0) & fast;
    const std::uint32_t up = ((c + 1) << 15) - ((((c + 1) * drop) >> 1) & fast);
    const std::uint32_t v = bb & 0x7FFF;
    const std::uint32_t negative = bb >> 15;  // 0 or 1
    const std::uint32_t m = (category << f.b) + offset;
    // (-, 0) only where m is known (the offset from the word: fast_count blocks).
    const std::uint32_t reject =
        ((v << 16) >= up ? 1u : 0u) | (category >= f.block_count ? 1u : 0u) |
        (negative & (m == 0 ? 1u : 0u) & (category < f.fast_count ? 1u : 0u));
    // The sign in unsigned arithmetic: in a lane that is not accepted m may be any 32-bit value,
    // and negating it as an int32 could overflow.
    const auto value = static_cast<std::int32_t>(negative != 0 ? 0u - m : m);
    const std::int32_t decided = 2 * (v + 1) <= lo ? value : kUndecided;
    values[j] = reject != 0 ? kRejected : decided;
    open[j] = values[j] <= kUndecided ? 1 : 0;
  }
}

}  // namespace

// The proposal (a, bb) that propose() left undecided, decided exactly: its own further words
// from `words` (the offset of a tail block; V's next 49 digits, then exact_less's).
std::int64_t DyadicDiscreteGaussian::resolve(std::uint32_t a, std::uint32_t bb,
                                             ChaCha20::Reader& words) {
  const auto& t = *table_;
  const std::uint32_t bin = a >> 20;
  const std::uint32_t cell = t.bins[bin];
  const std::size_t category = ((a >> 12) & 0xFF) < (cell >> 12) ? bin : (cell & 0xFFF);
  if (category >= t.block_count) return kRejected;  // propose() rejects these
  const auto& block = t.blocks[category];
  std::uint64_t offset;
  if (category < t.fast_count) {
    offset = (a & 0xFFF) >> (detail::DyadicGaussianTable::kOffsetBits - t.core_bits);
  } else {
    offset = block.bits > 0 ? words.next() >> (64 - block.bits) : 0;
  }
  const std::uint64_t m = block.start + offset;
  const bool negative = (bb >> 15) != 0;
  if (negative && m == 0) return kRejected;
  // V's first 64 digits: the 15 of bb, then 49 of a fresh word.
  const std::uint64_t v = (std::uint64_t{bb & 0x7FFF} << 49) | (words.next() >> 15);
  const std::uint64_t gap = offset * (2 * block.start + offset);  // m^2 - s_h^2
  const auto value = static_cast<std::int64_t>(m);
  if (gap < t.fast_limit) {
    // The bounds of propose() with 64 digits: g64 = 2^64 g exactly (< 2^60), digits =
    // floor(2^64 c_h); lo = floor(digits (2^64 - g64) / 2^64) <= 2^64 c_h (1 - g) and
    // up = ceil((digits + 1) (2^64 - drop) / 2^64) >= 2^64 c_h (1 - g + g^2 / 2), drop = g64 -
    // ceil(g64^2 / 2^65) (>= 0 for g64 >= 1; g64 = 0: drop = 0).
    const std::uint64_t g64 = gap << t.gamma_shift;
    const std::uint64_t lo =
        block.digits - static_cast<std::uint64_t>(
                           (static_cast<Uint128>(block.digits) * g64 + ~std::uint64_t{0}) >> 64);
    const Uint128 square = static_cast<Uint128>(g64) * g64;
    const std::uint64_t half_square = static_cast<std::uint64_t>(square >> 65) +
                                      ((square & ((Uint128{1} << 65) - 1)) != 0 ? 1 : 0);
    const std::uint64_t drop = g64 > half_square ? g64 - half_square : 0;
    const Uint128 next = static_cast<Uint128>(block.digits) + 1;
    const Uint128 up = next - ((next * drop) >> 64);
    if (static_cast<Uint128>(v) + 1 <= lo) return negative ? -value : value;
    if (v >= up) return kRejected;
  }
  // V < exp(-m^2 / 2^e) K 2^(b_h - b) / W_h = c_h exp(-g), exactly.
  const bool less = detail::exact_less(v, m * m, t.e, block.multiplier, block.weight, words.sync());
  words.resume();
  return less ? (negative ? -value : value) : kRejected;
}

template <typename T>
std::size_t DyadicDiscreteGaussian::run_batch(T* out) {
  const auto& t = *table_;
  for (auto& keys : keys_) rng_.next_blocks_by_word(keys);
  // 2^16 g = offset h 2^(b + 1 + 16 - e) + offset^2 2^(16 - e)
  const int shift1 = t.core_bits + 17 - t.e, shift2 = 16 - t.e;
  const auto b = static_cast<std::uint32_t>(t.core_bits);
  const FastFields fields{t.bins.data(),
                          t.digit_pairs.data(),
                          b,
                          b <= detail::DyadicGaussianTable::kOffsetBits
                              ? detail::DyadicGaussianTable::kOffsetBits - b
                              : 0,
                          static_cast<std::uint32_t>(t.fast_count),
                          static_cast<std::uint32_t>(t.block_count),
                          static_cast<std::uint32_t>(std::max(shift1, 0)),
                          static_cast<std::uint32_t>(std::max(-shift1, 0)),
                          static_cast<std::uint32_t>(std::max(shift2, 0)),
                          static_cast<std::uint32_t>(std::max(-shift2, 0))};
  propose(fields, keys_[0].data(), keys_[2].data(), 0, values_.data(), open_.data());
  propose(fields, keys_[1].data(), keys_[2].data(), 16, values_.data() + 256, open_.data() + 256);
  // The accepted values in order, 16 proposals at a time: a group without a rejected or
  // undecided one (about 94% of them) is copied in a loop the compiler vectorizes.
  ChaCha20::Reader words(rng_);
  std::size_t n = 0;
  constexpr std::size_t kGroup = 16;
  for (std::size_t g = 0; g < kBatch; g += kGroup) {
    const std::int32_t* group = values_.data() + g;
    std::uint64_t flags[2];  // open_[g .. g + 15]
    std::memcpy(flags, open_.data() + g, sizeof flags);
    if ((flags[0] | flags[1]) == 0) [[likely]] {
      for (std::size_t i = 0; i < kGroup; ++i) out[n + i] = group[i];
      n += kGroup;
      continue;
    }
    for (std::size_t j = g; j < g + kGroup; ++j) {
      std::int64_t x = values_[j];
      if (x == kUndecided) {
        const std::uint32_t a = keys_[j >> 8][j & 255];
        const std::uint32_t bb = (keys_[2][j & 255] >> (j < 256 ? 0 : 16)) & 0xFFFF;
        x = resolve(a, bb, words);
      }
      out[n] = static_cast<T>(x);  // |x| < 2^26 or kRejected (overwritten or past n)
      n += x != kRejected ? 1 : 0;
    }
  }
  return n;
}

std::int64_t DyadicDiscreteGaussian::sample() {
  while (pending_begin_ == pending_end_) {
    pending_begin_ = 0;
    pending_end_ = run_batch(pending_.data());
  }
  return pending_[pending_begin_++];
}

template <typename T>
void DyadicDiscreteGaussian::fill_values(std::span<T> out) {
  std::size_t i = 0;
  while (i < out.size()) {
    if (pending_begin_ < pending_end_) {
      const std::size_t count = std::min(out.size() - i, pending_end_ - pending_begin_);
      std::copy_n(pending_.begin() + static_cast<std::ptrdiff_t>(pending_begin_), count,
                  out.begin() + static_cast<std::ptrdiff_t>(i));
      pending_begin_ += count;
      i += count;
    } else if (out.size() - i >= kBatch) {
      i += run_batch(out.data() + i);  // straight into out: room for kBatch values
    } else {
      pending_begin_ = 0;
      pending_end_ = run_batch(pending_.data());
    }
  }
}

void DyadicDiscreteGaussian::fill(std::span<std::int64_t> out) {
  fill_values(out);
}

void DyadicDiscreteGaussian::fill(std::span<std::int32_t> out) {
  fill_values(out);
}

}  // namespace dplab::privacy
