// Memory checks before big allocations, so that a huge size from a file or a flag becomes a
// message naming the field and the memory it would need instead of "std::bad_alloc".
#pragma once

#include <string>

namespace dplab {

// Physical memory of this machine in bytes (0 if unknown).
double physical_memory_bytes();

// Lowers the limit require_memory checks against (fuzzers run with ~2 GB); 0 restores the
// physical memory. Not thread-safe: call before any work starts.
void set_memory_limit_bytes(double bytes);

// "1.5 GB", "512 MB", "2.3 TB", "1e+21 bytes" (powers of 1000, one decimal).
std::string format_bytes(double bytes);

// Throws InvalidArgument "<what> would need <bytes> of memory; this machine has <RAM>" when
// `bytes` exceeds the physical memory (or is not finite). `what` names the field or flag, e.g.
// "model.hidden_units = 4294967297 (the weight matrix)".
void require_memory(const std::string& what, double bytes);

}  // namespace dplab
