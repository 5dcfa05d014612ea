// The machine's own single-thread GEMM peak as `dplab-cli bench` states it: C = A B on 512 x 512
// floats through Eigen's kernels, the same kernels every model's step uses.
#pragma once

#include "core/types.h"

namespace dplab::cli {

class SquareSgemm {
 public:
  static constexpr Index kSize = 512;
  static constexpr double kFlops = 2.0 * kSize * kSize * kSize;

  SquareSgemm()
      : a_(Matrix::Random(kSize, kSize)), b_(Matrix::Random(kSize, kSize)), c_(kSize, kSize) {}
  void multiply() { c_.noalias() = a_ * b_; }

 private:
  Matrix a_, b_, c_;
};

}  // namespace dplab::cli
