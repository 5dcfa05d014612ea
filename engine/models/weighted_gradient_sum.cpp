// Model::weighted_gradient_sum's default: sum_i w_i g_i, one clipped_gradient_sum per row with
// clip = kNoClipping (so each call returns exactly g_i). Correct for any model; O(m) calls.
#include <string>

#include "core/error.h"
#include "models/model.h"

namespace dplab::models {

double Model::weighted_gradient_sum(const MatrixView& x, const VectorView& y,
                                    const VectorView& weights, VectorSpan gradient_sum) {
  if (weights.size() != x.rows() || gradient_sum.size() != num_params()) {
    throw InvalidArgument(name() + ": weighted_gradient_sum got " + std::to_string(weights.size()) +
                          " weights for " + std::to_string(x.rows()) + " rows and a gradient of " +
                          std::to_string(gradient_sum.size()) + " entries (model has " +
                          std::to_string(num_params()) + ")");
  }
  if (row_gradient_.size() != num_params()) row_gradient_.resize(num_params());
  if (row_norm_.size() != 1) row_norm_.resize(1);
  gradient_sum.setZero();
  double loss = 0;
  for (Index i = 0; i < x.rows(); ++i) {
    loss += clipped_gradient_sum(x.middleRows(i, 1), y.segment(i, 1), kNoClipping, row_gradient_,
                                 row_norm_);
    gradient_sum += weights[i] * row_gradient_;
  }
  return loss;
}

void Model::logits(const MatrixView&, Matrix&) {
  throw InvalidArgument(name() + ": this model does not report its logits");
}

}  // namespace dplab::models
