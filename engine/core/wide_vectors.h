// DPLAB_WIDE_VECTORS before a function: let GCC's auto-vectorizer use the widest vectors the
// target has. With -march=native on an AVX-512 CPU GCC prefers 256-bit vectors
// (-mprefer-vector-width=256, chosen against the clock slow-down of heavy 512-bit code in mixed
// programs); for a few short, purely integer lane loops (ChaCha20's 16 blocks, the dyadic
// sampler's proposals) 512-bit registers are 1.4-1.8x faster (issue #44). It enables no
// instruction set: in the portable build (-DDPLAB_NATIVE=OFF, SSE2) it changes nothing. Clang has
// no such target attribute and ignores the hint (empty macro).
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#define DPLAB_WIDE_VECTORS __attribute__((target("prefer-vector-width=512")))
#else
#define DPLAB_WIDE_VECTORS
#endif
