// SingleLayerModel: logits z_i = W^T x_i + b (W: d x k, b: k) under an output head; the common
// core of linear regression (k = 1, squared error) and logistic regression (k = 1 sigmoid, or
// k = num_classes softmax).
//
// Parameters, flat: [W row-major (d x k), b (k)]; for k = 1 this is [w (d), b].
// Per-example gradient: g_i = (x_i e_i^T, e_i) with e_i = dloss/dz_i (output_head.h), so
//     ||g_i||^2 = (||x_i||^2 + 1) ||e_i||^2,
// and the clipped sum is X^T diag(c) E (one GEMM) plus E^T c (dense_layer.h).
//
// Thread-safety: not thread-safe (scratch buffers); clone() per thread.
#pragma once

#include "models/model_base.h"

namespace dplab::models::detail {

class SingleLayerModel : public ModelBase {
 public:
  std::string description() const override;
  void describe_graph(ModelGraph& graph) const override;  // one dense op under the head

 protected:
  SingleLayerModel(std::string name, Index input_dim, int num_classes, OutputHead head);

 private:
  void reserve_rows(Index rows) override;
  float* forward(const MatrixView& x) override;
  double block_gradient(const MatrixView& x, const float* y, const Clipping& clip, bool need_norms,
                        float* norms, float* grad, bool accumulate) override;

  Matrix logits_;        // logits, then errors E (top m rows used)
  Matrix scaled_input_;  // diag(c) X, only when X has fewer columns than E
};

}  // namespace dplab::models::detail
