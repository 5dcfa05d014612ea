// ChaCha20 keystream generator (Bernstein 2008; block function exactly as RFC 8439 section 2.3:
// 256-bit key, 96-bit nonce, 32-bit block counter, 20 rounds) used as the cryptographically
// strong generator of secure mode: its output cannot be predicted or replayed without the key,
// which comes from the OS (getrandom) and is never stored. Words are taken from the keystream in
// order, two little-endian 32-bit words per 64-bit value. When the 32-bit counter wraps, the
// first nonce word is incremented, so a stream never repeats a block.
// Speed (issue #44): next_u64() and fill() take their words from kLanes blocks computed at once
// by next_blocks(), the RFC's block function written over lanes (state word i of block b in
// x[i][b]) in plain loops the compiler vectorizes (SSE2 in the portable build, 512-bit with
// -march=native on an AVX-512 CPU: core/wide_vectors.h; no intrinsics). The stream is the same
// word for word as next_block()'s (tests/numerics/test_secure_noise.cpp): block b of a batch is
// the block of counter + b.
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

  static constexpr int kLanes = 16;  // blocks per batch (1 KB)
  using Batch = std::array<std::uint32_t, 16 * kLanes>;

  // The 16-word block for the current counter (RFC 8439 2.3), then counter + 1. Not buffered:
  // it does not see words that next_u64() has buffered (use one or the other on a stream).
  void next_block(std::array<std::uint32_t, 16>& out);
  // The kLanes blocks of counters counter .. counter + kLanes - 1, block after block, then
  // counter + kLanes (the same words as kLanes calls of next_block()).
  void next_blocks(Batch& out);
  // The same kLanes blocks in another fixed order: word i of block l (counter + l) at
  // out[kLanes * i + l], as the lane loop computes them (no transpose; with AVX-512 about 1.3x
  // faster than next_blocks()). For a consumer that only needs fresh keystream words, each used
  // once, in any fixed order (privacy/mechanisms/dyadic_discrete_gaussian.h). Unbuffered like
  // next_block(): it takes the next kLanes counters, never a word next_u64() has buffered or
  // returned, and next_u64() never returns its words.
  void next_blocks_by_word(Batch& out);
  // Keystream words in order, two little-endian 32-bit words per value (buffered by batches).
  std::uint64_t next_u64() {
    if (position_ >= 16 * kLanes) refill();
    const std::uint64_t lo = buffer_[static_cast<std::size_t>(position_)];
    const std::uint64_t hi = buffer_[static_cast<std::size_t>(position_ + 1)];
    position_ += 2;
    return lo | (hi << 32);
  }
  void fill(std::uint64_t* words, std::size_t count);

  // next_u64() for a hot loop: the read position lives in the Reader (a register) instead of the
  // object, and goes back to it when the Reader is destroyed or sync() is called (before anything
  // else reads the stream). The same words in the same order as next_u64().
  class Reader {
   public:
    explicit Reader(ChaCha20& stream) : stream_(stream), position_(stream.position_) {}
    ~Reader() { stream_.position_ = position_; }
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;
    std::uint64_t next() {
      if (position_ >= 16 * kLanes) {
        stream_.refill();
        position_ = 0;
      }
      const std::uint64_t lo = stream_.buffer_[static_cast<std::size_t>(position_)];
      const std::uint64_t hi = stream_.buffer_[static_cast<std::size_t>(position_ + 1)];
      position_ += 2;
      return lo | (hi << 32);
    }
    // The stream, with the position handed back; call resume() after using it.
    ChaCha20& sync() {
      stream_.position_ = position_;
      return stream_;
    }
    void resume() { position_ = stream_.position_; }

   private:
    ChaCha20& stream_;
    int position_;
  };

 private:
  void refill();

  std::array<std::uint32_t, 16> state_;
  Batch buffer_{};
  int position_ = 16 * kLanes;  // next unused word of buffer_ (16 kLanes: empty)
};

}  // namespace dplab
