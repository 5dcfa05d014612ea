// Huge-page advice for large data buffers (see large_buffer.h).
#include "data/large_buffer.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dplab::data {

void advise_huge_pages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHugePage = std::uintptr_t{1} << 21;  // 2 MiB on x86-64 and arm64
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
  // Advice only: if the kernel refuses (THP off, old kernel) nothing changes but speed.
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

void resize_zero(Matrix& matrix, Index rows, Index cols) {
  resize_for_overwrite(matrix, rows, cols);
  matrix.setZero();
}

}  // namespace dplab::data
