// Randomness from the operating system (Linux getrandom(2)): for secure mode, where nothing may
// be replayable from a written seed. Blocks only until the kernel's pool is initialised at boot.
// Throws dplab::Error if the kernel refuses (never silently falls back to a seeded generator).
#pragma once

#include <cstddef>
#include <cstdint>

namespace dplab {

void os_random_bytes(void* buffer, std::size_t size);
std::uint64_t os_random_u64();

}  // namespace dplab
