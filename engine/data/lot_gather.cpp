// gather_lot: see lot_gather.h.
#include "data/lot_gather.h"

#include <cstddef>
#include <cstdint>

#include "data/feature_rows.h"

namespace dplab::data {
namespace {

// The rows are scattered over a training matrix much larger than the caches, so each copy
// waits on DRAM; prefetching the row kPrefetchAhead positions ahead overlaps those misses
// (measured ~25% faster for 250 x 784 floats out of 60,000 rows).
constexpr Index kPrefetchAhead = 2;
constexpr Index kCacheLine = 64;

void prefetch_row(const void* row, Index row_bytes) {
  const char* bytes = static_cast<const char*>(row);
  for (Index b = 0; b < row_bytes; b += kCacheLine) __builtin_prefetch(bytes + b);
}

}  // namespace

void gather_lot(const Dataset& train, const std::vector<Index>& rows, Matrix& lot_features,
                Vector& lot_targets) {
  const auto lot = static_cast<Index>(rows.size());
  const Index d = train.dim();
  if (train.stores_pixels()) {
    // Bytes in, floats out: a quarter of the DRAM traffic, the conversion is in cache.
    for (Index k = 0; k < lot; ++k) {
      if (k + kPrefetchAhead < lot) {
        prefetch_row(train.pixels.row(rows[static_cast<std::size_t>(k + kPrefetchAhead)]).data(),
                     d);
      }
      const Index row = rows[static_cast<std::size_t>(k)];
      pixels_to_features(train.pixels.row(row).data(), d, lot_features.row(k).data());
      lot_targets[k] = train.targets[row];
    }
    return;
  }
  const Index row_bytes = d * static_cast<Index>(sizeof(float));
  for (Index k = 0; k < lot; ++k) {
    if (k + kPrefetchAhead < lot) {
      prefetch_row(train.features.row(rows[static_cast<std::size_t>(k + kPrefetchAhead)]).data(),
                   row_bytes);
    }
    const Index row = rows[static_cast<std::size_t>(k)];
    lot_features.row(k) = train.features.row(row);
    lot_targets[k] = train.targets[row];
  }
}

}  // namespace dplab::data
