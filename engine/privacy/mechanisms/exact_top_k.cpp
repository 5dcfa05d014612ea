#include "privacy/mechanisms/exact_top_k.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::privacy {

ExactTopK::ExactTopK(Index dimension, Index count) : dimension_(dimension), count_(count) {
  require_at_least("dimension", static_cast<double>(dimension), 1);
  require_at_least("k", static_cast<double>(count), 1);
  if (count > dimension) fail_field("k", static_cast<double>(count), "must be <= the dimension p");
}

void ExactTopK::select(const SparseVectorView& gradient, Rng& /*rng*/,
                       std::vector<Index>& selected) {
  if (gradient.dimension != dimension_) {
    throw InvalidArgument("exact top-k selection: gradient dimension " +
                          std::to_string(gradient.dimension) +
                          " != p = " + std::to_string(dimension_));
  }
  order_.clear();
  for (std::size_t n = 0; n < gradient.values.size(); ++n)
    if (gradient.values[n] != 0.0f) order_.push_back(n);
  const std::size_t keep = std::min(order_.size(), static_cast<std::size_t>(count_));
  // Larger |value| first; equal magnitudes by position (ascending index), so the pick is unique.
  const auto larger = [&](std::size_t a, std::size_t b) {
    const float x = std::fabs(gradient.values[a]), y = std::fabs(gradient.values[b]);
    return x != y ? x > y : a < b;
  };
  std::partial_sort(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(keep),
                    order_.end(), larger);
  selected.clear();
  for (std::size_t n = 0; n < keep; ++n) selected.push_back(gradient.indices[order_[n]]);
  std::sort(selected.begin(), selected.end());
}

}  // namespace dplab::privacy
