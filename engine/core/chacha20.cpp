#include "core/chacha20.h"

#include "core/os_entropy.h"
#include "core/wide_vectors.h"

namespace dplab {
namespace {

constexpr std::uint32_t rotl(std::uint32_t x, int k) {
  return (x << k) | (x >> (32 - k));
}

// RFC 8439 2.1: the quarter round on state words a, b, c, d.
inline void quarter_round(std::array<std::uint32_t, 16>& s, int a, int b, int c, int d) {
  s[a] += s[b];
  s[d] ^= s[a];
  s[d] = rotl(s[d], 16);
  s[c] += s[d];
  s[b] ^= s[c];
  s[b] = rotl(s[b], 12);
  s[a] += s[b];
  s[d] ^= s[a];
  s[d] = rotl(s[d], 8);
  s[c] += s[d];
  s[b] ^= s[c];
  s[b] = rotl(s[b], 7);
}

}  // namespace

ChaCha20::ChaCha20(const Key& key, const Nonce& nonce, std::uint32_t counter) {
  // "expand 32-byte k", key, counter, nonce (RFC 8439 2.3).
  state_ = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u, key[0], key[1],
            key[2],      key[3],      key[4],      key[5],      key[6], key[7],
            counter,     nonce[0],    nonce[1],    nonce[2]};
}

ChaCha20 ChaCha20::from_os_entropy() {
  Key key;
  Nonce nonce;
  os_random_bytes(key.data(), sizeof key);
  os_random_bytes(nonce.data(), sizeof nonce);
  return ChaCha20(key, nonce, 0);
}

void ChaCha20::next_block(std::array<std::uint32_t, 16>& out) {
  out = state_;
  for (int i = 0; i < 10; ++i) {  // 20 rounds: 10 x (column round + diagonal round)
    quarter_round(out, 0, 4, 8, 12);
    quarter_round(out, 1, 5, 9, 13);
    quarter_round(out, 2, 6, 10, 14);
    quarter_round(out, 3, 7, 11, 15);
    quarter_round(out, 0, 5, 10, 15);
    quarter_round(out, 1, 6, 11, 12);
    quarter_round(out, 2, 7, 8, 13);
    quarter_round(out, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) out[i] += state_[i];
  if (++state_[12] == 0) ++state_[13];  // counter wrapped: move to a fresh nonce
}

// kLanes blocks at once (issue #44): the lane loop's body is the whole block function on 16
// scalars, with no dependence between lanes, so the compiler vectorizes the loop over the lanes
// (each scalar becomes a vector of kLanes words: SSE2 in the portable build, one AVX-512 register
// with -march=native on an AVX-512 CPU (core/wide_vectors.h); rotations become shifts and an or,
// or a rotate instruction). No intrinsics.
namespace {

constexpr int kL = ChaCha20::kLanes;

#define DPLAB_QR(a, b, c, d) \
  a += b;                    \
  d = rotl(d ^ a, 16);       \
  c += d;                    \
  b = rotl(b ^ c, 12);       \
  a += b;                    \
  d = rotl(d ^ a, 8);        \
  c += d;                    \
  b = rotl(b ^ c, 7)

// The kLanes blocks of counters counter .. counter + kLanes - 1 into out: block l's word i at
// out[16 l + i] (by_word = false, the stream's order) or at out[kLanes i + l] (by_word = true, as
// the lane loop leaves them: no transpose). Then the counter moves on by kLanes.
template <bool kByWord>
DPLAB_WIDE_VECTORS void compute_blocks(std::array<std::uint32_t, 16>& state, std::uint32_t* out) {
  // Block l has the 64-bit counter (state[13] : state[12]) + l: when the 32-bit block counter
  // wraps, the first nonce word moves on, as in next_block().
  const std::uint64_t counter = (static_cast<std::uint64_t>(state[13]) << 32) | state[12];
  alignas(64) std::uint32_t low[kL], high[kL], x[16][kL];
  for (int l = 0; l < kL; ++l) {
    const std::uint64_t c = counter + static_cast<std::uint64_t>(l);
    low[l] = static_cast<std::uint32_t>(c);
    high[l] = static_cast<std::uint32_t>(c >> 32);
  }
  const std::array<std::uint32_t, 16> s = state;
  std::uint32_t* const by_word = kByWord ? out : &x[0][0];
  for (int l = 0; l < kL; ++l) {
    std::uint32_t x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4], x5 = s[5], x6 = s[6],
                  x7 = s[7], x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11], x12 = low[l],
                  x13 = high[l], x14 = s[14], x15 = s[15];
#pragma GCC unroll 10
    for (int r = 0; r < 10; ++r) {  // 20 rounds: 10 x (column round + diagonal round)
      DPLAB_QR(x0, x4, x8, x12);
      DPLAB_QR(x1, x5, x9, x13);
      DPLAB_QR(x2, x6, x10, x14);
      DPLAB_QR(x3, x7, x11, x15);
      DPLAB_QR(x0, x5, x10, x15);
      DPLAB_QR(x1, x6, x11, x12);
      DPLAB_QR(x2, x7, x8, x13);
      DPLAB_QR(x3, x4, x9, x14);
    }
    by_word[0 * kL + l] = x0 + s[0];
    by_word[1 * kL + l] = x1 + s[1];
    by_word[2 * kL + l] = x2 + s[2];
    by_word[3 * kL + l] = x3 + s[3];
    by_word[4 * kL + l] = x4 + s[4];
    by_word[5 * kL + l] = x5 + s[5];
    by_word[6 * kL + l] = x6 + s[6];
    by_word[7 * kL + l] = x7 + s[7];
    by_word[8 * kL + l] = x8 + s[8];
    by_word[9 * kL + l] = x9 + s[9];
    by_word[10 * kL + l] = x10 + s[10];
    by_word[11 * kL + l] = x11 + s[11];
    by_word[12 * kL + l] = x12 + low[l];
    by_word[13 * kL + l] = x13 + high[l];
    by_word[14 * kL + l] = x14 + s[14];
    by_word[15 * kL + l] = x15 + s[15];
  }
  if constexpr (!kByWord) {
    for (int l = 0; l < kL; ++l)
      for (int i = 0; i < 16; ++i) out[16 * l + i] = x[i][l];
  }
  const std::uint64_t next = counter + static_cast<std::uint64_t>(kL);
  state[12] = static_cast<std::uint32_t>(next);
  state[13] = static_cast<std::uint32_t>(next >> 32);
}

}  // namespace

void ChaCha20::next_blocks(Batch& out) {
  compute_blocks<false>(state_, out.data());
}

void ChaCha20::next_blocks_by_word(Batch& out) {
  compute_blocks<true>(state_, out.data());
}

#undef DPLAB_QR

void ChaCha20::refill() {
  next_blocks(buffer_);
  position_ = 0;
}

void ChaCha20::fill(std::uint64_t* words, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) words[i] = next_u64();
}

}  // namespace dplab
