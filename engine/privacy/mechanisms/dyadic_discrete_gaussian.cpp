#include "privacy/mechanisms/dyadic_discrete_gaussian.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/random.h"

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
  static constexpr int kCapacityBits = 20;  // each bin holds 2^20: total mass 2^32
  int e = 0;                                // 2 sigma^2 = 2^e
  int core_bits = 0;                        // b
  std::uint64_t fast_limit = 0;             // the exp coin's bounds for a < fast_limit (g < 2^-4)
  int gamma_shift = 0;                      // 2^64 g = a << gamma_shift
  std::size_t core_count = 0;               // blocks 0 .. core_count - 1 have 2^b integers
  std::size_t block_count = 0;              // categories >= block_count: redraw
  // The hot data, kept small (16 KB + 18 KB at sigma = 2^20): bin i keeps category i iff the
  // next 20 uniform bits are below threshold_i, else goes to alias_i: (threshold << 12) | alias.
  std::array<std::uint32_t, std::size_t{1} << kBinBits> bins{};
  std::vector<std::uint64_t> digits;  // c_h's digits per block
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
  auto scale = static_cast<std::uint64_t>(
      (static_cast<long double>(total) - 4.0L * static_cast<long double>(blocks.size())) /
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
    scale -= scale >> 20;
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
  constexpr std::size_t kBins = std::size_t{1} << DyadicGaussianTable::kBinBits;
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
  for (const auto& block : blocks) table->digits.push_back(block.digits);
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

// One proposal is one 64-bit word of the stream (its fields below, from the top; the last
// 15 - b bits are not used), so the next proposal's bits never wait for a table lookup and
// successive samples overlap in the CPU. Only the rare branches (probability about 2^-7 in all)
// read further words (of which they use the top 56 or 64 bits).
//   [bin: 12][u: 20][offset: b][c: 8][e: 8][sign: 1]
struct DyadicDiscreteGaussian::Hot {
  const std::uint32_t* bins;
  const std::uint64_t* digits;
  const detail::DyadicBlock* blocks;
  int b, e, gamma_shift;
  std::size_t core_count, block_count;
  std::uint64_t fast_limit;
};

DyadicDiscreteGaussian::Hot DyadicDiscreteGaussian::hot() const {
  const auto& t = *table_;
  return {t.bins.data(), t.digits.data(), t.blocks.data(), t.core_bits, t.e,
          t.gamma_shift, t.core_count,    t.block_count,   t.fast_limit};
}

// The whole decision for one proposal word: true and `value` if it is accepted. Extra words
// (rare branches) come from `words`.
[[gnu::always_inline]] inline bool DyadicDiscreteGaussian::propose(const Hot& table,
                                                                   ChaCha20::Reader& words,
                                                                   std::uint64_t word,
                                                                   std::int64_t& value) {
  const int b = table.b;
  const auto slow_less = [&](std::uint64_t prefix, std::uint64_t a, std::uint64_t multiplier,
                             std::uint64_t divisor) {
    const bool less = detail::exact_less(prefix, a, table.e, multiplier, divisor, words.sync());
    words.resume();
    return less;
  };
  {
    // The block, by the alias method: bin, then its own category iff u < threshold (exact:
    // the thresholds are integers out of 2^20).
    const std::uint32_t cell = table.bins[word >> 52];
    const std::uint64_t u = (word >> 32) & 0xFFFFF;
    const std::size_t category = u < (cell >> 12) ? (word >> 52) : (cell & 0xFFF);
    if (category >= table.block_count) return false;  // the redraw category
    std::uint64_t start, offset;
    if (category < table.core_count) [[likely]] {
      start = static_cast<std::uint64_t>(category) << b;
      offset = b > 0 ? (word << 32) >> (64 - b) : 0;
    } else {
      const auto& tail = table.blocks[category];
      start = tail.start;
      offset = tail.bits > 0 ? words.next() >> (64 - tail.bits) : 0;
    }
    const std::uint64_t m = start + offset;
    const std::uint64_t c8 = (word >> (24 - b)) & 0xFF;  // V's first 8 digits for c_h
    const std::uint64_t e8 = (word >> (16 - b)) & 0xFF;  // V's first 8 digits for exp(-g)
    const bool negative = ((word >> (15 - b)) & 1) != 0;
    // Bernoulli(c_h): V < c_h, c_h in [digits, digits + 1) / 2^64. Decided by 8 digits unless
    // they equal the digits' first 8 (probability 2^-8 near the centre); then by 64, then (2^-64)
    // by exact_less.
    const std::uint64_t digits = table.digits[category];
    if (c8 >= (digits >> 56)) [[unlikely]] {
      if (c8 > (digits >> 56)) return false;
      const std::uint64_t v = (c8 << 56) | (words.next() >> 8);
      if (v > digits) return false;
      if (v == digits) {
        const auto& block = table.blocks[category];
        if (!block.one && !slow_less(v, start * start, block.multiplier, block.weight))
          return false;
      }
    }
    // Bernoulli(exp(-g)), g = (m^2 - s_h^2) / 2^e. For g < 2^-4 the exact bounds
    // 1 - g <= exp(-g) <= 1 - g + g^2/2 (alternating series) decide it from V's digits unless V
    // falls between them (probability g^2 / 2: about 2^-17 on average at sigma = 2^20); then,
    // and for larger g, the digits of exp(-g) decide (detail::exact_less).
    const std::uint64_t a = offset * (2 * start + offset);  // m^2 - s_h^2
    if (a >= table.fast_limit) [[unlikely]] {
      if (!slow_less((e8 << 56) | (words.next() >> 8), a, 1, 1)) return false;
    } else {
      const std::uint64_t g64 = a << table.gamma_shift;  // 2^64 g < 2^60
      const std::uint64_t lower = 0 - g64;               // 2^64 (1 - g), exact (a = 0: 0)
      if (a != 0 && e8 >= (lower >> 56)) [[unlikely]] {
        const std::uint64_t v = (e8 << 56) | (words.next() >> 8);  // V's first 64 digits
        if (v >= lower) {
          const Uint128 square = static_cast<Uint128>(g64) * g64;
          const std::uint64_t half_square = static_cast<std::uint64_t>(square >> 65) +
                                            ((square & ((Uint128{1} << 65) - 1)) != 0 ? 1 : 0);
          // v >= ceil(2^64 (1 - g + g^2 / 2)) (< 2^64): V >= 1 - g + g^2/2 >= exp(-g)
          if (v >= lower + half_square) return false;
          if (!slow_less(v, a, 1, 1)) return false;
        }
      }
    }
    if (negative && m == 0) return false;
    const auto magnitude = static_cast<std::int64_t>(m);
    value = negative ? -magnitude : magnitude;
    return true;
  }
}

std::int64_t DyadicDiscreteGaussian::sample() {
  const Hot table = hot();
  ChaCha20::Reader words(rng_);
  std::int64_t value;
  while (!propose(table, words, words.next(), value)) {
  }
  return value;
}

void DyadicDiscreteGaussian::fill(std::span<std::int64_t> out) {
  const Hot table = hot();  // locals: the stores to `out` cannot make the compiler reload them
  ChaCha20::Reader words(rng_);
  for (auto& x : out) {
    while (!propose(table, words, words.next(), x)) {
    }
  }
}

}  // namespace dplab::privacy
