#include "privacy/mechanisms/uniform_selection.h"

#include <algorithm>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::privacy {

UniformSelection::UniformSelection(Index dimension, Index count)
    : dimension_(dimension), count_(count) {
  require_at_least("dimension", static_cast<double>(dimension), 1);
  require_at_least("k", static_cast<double>(count), 1);
  if (count > dimension) fail_field("k", static_cast<double>(count), "must be <= the dimension p");
  taken_.assign(static_cast<std::size_t>(dimension), 0);
}

void UniformSelection::select(const SparseVectorView& gradient, Rng& rng,
                              std::vector<Index>& selected) {
  if (gradient.dimension != dimension_) {
    throw InvalidArgument("random selection: gradient dimension " +
                          std::to_string(gradient.dimension) +
                          " != p = " + std::to_string(dimension_));
  }
  selected.clear();
  for (Index j = dimension_ - count_; j < dimension_; ++j) {
    const auto t = static_cast<Index>(rng.below(static_cast<std::uint64_t>(j + 1)));
    const Index pick = taken_[static_cast<std::size_t>(t)] ? j : t;
    taken_[static_cast<std::size_t>(pick)] = 1;
    selected.push_back(pick);
  }
  for (const Index i : selected) taken_[static_cast<std::size_t>(i)] = 0;
  std::sort(selected.begin(), selected.end());
}

}  // namespace dplab::privacy
