// The materialised per-example gradients g_i of a model at its current parameters: one
// single-row gradient call per row (no clipping), each g_i in double — the reference that the
// batch paths (ghost norms, rank-1 norms, clipped sums) are checked against.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "core/types.h"
#include "models/model.h"

namespace dplab::testing {

inline std::vector<Eigen::VectorXd> per_example_gradients(models::Model& model, const Matrix& x,
                                                          const Vector& y) {
  std::vector<Eigen::VectorXd> out;
  Vector g(model.num_params()), norm(1);
  for (Index i = 0; i < x.rows(); ++i) {
    model.clipped_gradient_sum(x.middleRows(i, 1), y.segment(i, 1), models::kNoClipping, g, norm);
    out.push_back(g.cast<double>());
  }
  return out;
}

}  // namespace dplab::testing
