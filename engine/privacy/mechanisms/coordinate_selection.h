// Private coordinate selection for sparse DP training (Zhang, Mironov & Hejazinia, "Wide network
// learning with differential privacy", Algorithm 3 line 7): a mechanism A(g^, gamma) that picks
// which coordinates of the clipped mean gradient g^ in R^p are noised and updated this step.
//
// Input convention: g^ is sparse — only the coordinates touched by the lot are stored
// (`SparseVectorView`, ascending distinct indices); every other coordinate is exactly 0 but still
// a candidate (a private selector must give untouched coordinates positive probability).
// Output: the selected coordinates, distinct and ascending.
//
// Implementations, one file each: exponential_top_k.h (the paper's Algorithm 4),
// sparse_vector.h (NumericSparse, the paper's Algorithm 1), uniform_selection.h (baseline).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/random.h"
#include "core/types.h"

namespace dplab::privacy {

struct SparseVectorView {
  Index dimension = 0;             // p
  std::span<const Index> indices;  // ascending, distinct, each in [0, p)
  std::span<const float> values;   // same length as indices
};

class CoordinateSelector {
 public:
  virtual ~CoordinateSelector() = default;
  virtual std::string name() const = 0;
  // Writes the selected coordinates (ascending, distinct) into `selected` (cleared first).
  virtual void select(const SparseVectorView& gradient, Rng& rng, std::vector<Index>& selected) = 0;
};

// Checks a SparseVectorView (sizes agree, indices ascending and in range); InvalidArgument.
void validate_sparse_vector(const SparseVectorView& v);

}  // namespace dplab::privacy
