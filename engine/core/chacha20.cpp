#include "core/chacha20.h"

#include "core/os_entropy.h"

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

std::uint64_t ChaCha20::next_u64() {
  if (position_ > 14) {
    next_block(buffer_);
    position_ = 0;
  }
  const std::uint64_t lo = buffer_[static_cast<std::size_t>(position_)];
  const std::uint64_t hi = buffer_[static_cast<std::size_t>(position_ + 1)];
  position_ += 2;
  return lo | (hi << 32);
}

void ChaCha20::fill(std::uint64_t* words, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) words[i] = next_u64();
}

}  // namespace dplab
