// gather_lot: see lot_gather.h.
#include "data/lot_gather.h"

#include <cstddef>

namespace dplab::data {

void gather_lot(const Dataset& train, const std::vector<Index>& rows, Matrix& lot_features,
                Vector& lot_targets) {
  // The rows are scattered over a training matrix much larger than the caches, so each copy
  // waits on DRAM; prefetching the row kPrefetchAhead positions ahead overlaps those misses
  // (measured ~25% faster for 250 x 784 floats out of 60,000 rows).
  constexpr Index kPrefetchAhead = 2;
  constexpr Index kCacheLine = 64;
  const auto lot = static_cast<Index>(rows.size());
  const Index row_bytes = train.dim() * static_cast<Index>(sizeof(float));
  for (Index k = 0; k < lot; ++k) {
    if (k + kPrefetchAhead < lot) {
      const char* next = reinterpret_cast<const char*>(
          train.features.row(rows[static_cast<std::size_t>(k + kPrefetchAhead)]).data());
      for (Index b = 0; b < row_bytes; b += kCacheLine) __builtin_prefetch(next + b);
    }
    const Index row = rows[static_cast<std::size_t>(k)];
    lot_features.row(k) = train.features.row(row);
    lot_targets[k] = train.targets[row];
  }
}

}  // namespace dplab::data
