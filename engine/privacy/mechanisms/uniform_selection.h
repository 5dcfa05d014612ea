// Uniform random coordinate selection: k = floor(gamma p) distinct coordinates uniformly at
// random, independent of the data (Zhang, Mironov & Hejazinia, section 6, "random" baseline).
// It reads nothing private, so it costs no privacy. Floyd's algorithm (Bentley & Floyd 1987):
// for j = p-k .. p-1, draw t uniform in [0, j]; take t unless already taken, else take j —
// every k-subset has probability 1 / C(p, k). O(k) per call (marks in a size-p byte array).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "privacy/mechanisms/coordinate_selection.h"

namespace dplab::privacy {

class UniformSelection final : public CoordinateSelector {
 public:
  UniformSelection(Index dimension, Index count);
  std::string name() const override { return "random"; }
  void select(const SparseVectorView& gradient, Rng& rng, std::vector<Index>& selected) override;

 private:
  Index dimension_, count_;
  std::vector<std::uint8_t> taken_;
};

}  // namespace dplab::privacy
