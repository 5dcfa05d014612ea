// Exact top-k coordinate selection: the k coordinates of g^ with the largest |g^_j| (ties to the
// lower index). NOT private — it reads g^ exactly. It is the sparse-DP diagnosis's upper bound
// (issue #48): Algorithm 3 of Zhang, Mironov & Hejazinia with this selection and no noise is the
// best any private selection and noise can do at the same gamma, learning rate and T, so when it
// does not learn, no mechanism at those settings can. Untouched coordinates (exactly 0) are never
// taken: with no noise a zero coordinate would not move. O(nnz log k) per call, no allocation
// after the first calls.
#pragma once

#include <string>
#include <vector>

#include "privacy/mechanisms/coordinate_selection.h"

namespace dplab::privacy {

class ExactTopK final : public CoordinateSelector {
 public:
  ExactTopK(Index dimension, Index count);
  std::string name() const override { return "oracle"; }
  void select(const SparseVectorView& gradient, Rng& rng, std::vector<Index>& selected) override;

 private:
  Index dimension_, count_;
  std::vector<std::size_t> order_;  // positions into the gradient's lists (scratch)
};

}  // namespace dplab::privacy
