// ChaCha20 keystream generator (Bernstein 2008; block function exactly as RFC 8439 section 2.3:
// 256-bit key, 96-bit nonce, 32-bit block counter, 20 rounds) used as the cryptographically
// strong generator of secure mode: its output cannot be predicted or replayed without the key,
// which comes from the OS (getrandom) and is never stored. Words are taken from the keystream in
// order, two little-endian 32-bit words per 64-bit value. When the 32-bit counter wraps, the
// first nonce word is incremented, so a stream never repeats a block.
// Thread-safety: one instance per thread. No heap allocation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace dplab {

class ChaCha20 {
 public:
  using Key = std::array<std::uint32_t, 8>;
  using Nonce = std::array<std::uint32_t, 3>;

  ChaCha20(const Key& key, const Nonce& nonce, std::uint32_t counter = 0);
  // Key and nonce from os_random_bytes (core/os_entropy.h).
  static ChaCha20 from_os_entropy();

  // The 16-word block for the current counter (RFC 8439 2.3), then counter + 1.
  void next_block(std::array<std::uint32_t, 16>& out);
  std::uint64_t next_u64();
  void fill(std::uint64_t* words, std::size_t count);

 private:
  std::array<std::uint32_t, 16> state_;
  std::array<std::uint32_t, 16> buffer_{};
  int position_ = 16;  // next unused word of buffer_ (16: empty)
};

}  // namespace dplab
