// TwoLayerNetwork, the papers' "TLNN": one hidden ReLU layer of h units (default 100).
//   z1 = x W1 + b1 (W1: d x h),  a1 = relu(z1),  z2 = a1 W2 + b2 (W2: h x k),
//   head on z2: softmax + cross-entropy (k = num_classes >= 3) or one sigmoid output + binary
//   cross-entropy (num_classes = 2, k = 1).
// Back-propagation: e2 = dloss/dz2 (output_head.h), e1 = (e2 W2^T) .* relu'(z1), relu'(0) = 0.
// Per-example gradient norm, layer-wise rank-1 summed over the two layers:
//   ||g_i||^2 = (||x_i||^2 + 1) ||e1_i||^2 + (||a1_i||^2 + 1) ||e2_i||^2,
// clipped sums X^T diag(c) E1, E1^T c, A1^T diag(c) E2, E2^T c (dense_layer.h).
//
// Parameters, flat: [W1 row-major (d x h), b1 (h), W2 row-major (h x k), b2 (k)].
// Initialisation (seeded, dplab::Rng): W1 ~ U(-sqrt(6/d), sqrt(6/d)) (He-uniform, for ReLU),
// W2 ~ U(-sqrt(6/(h+k)), sqrt(6/(h+k))) (Glorot-uniform), biases 0. The constructor
// initialises with seed 0, so a fresh network is never the all-zero saddle point.
//
// Thread-safety: not thread-safe (scratch buffers); clone() per thread.
#pragma once

#include "models/dense_layer.h"
#include "models/model_base.h"

namespace dplab::models {

class TwoLayerNetwork final : public detail::ModelBase {
 public:
  // num_classes >= 2 and hidden_units >= 1; throws InvalidArgument otherwise.
  TwoLayerNetwork(Index input_dim, int num_classes, int hidden_units = 100);

  std::string description() const override;  // "tlnn d-h-k"
  Index hidden_units() const { return hidden_; }
  void describe_graph(ModelGraph& graph) const override;  // dense, relu, dense
  void initialize(std::uint64_t seed) override;
  std::unique_ptr<Model> clone() const override;

 private:
  void reserve_rows(Index rows) override;
  float* forward(const MatrixView& x) override;
  double block_gradient(const MatrixView& x, const float* y, const Clipping& clip, bool need_norms,
                        float* norms, float* grad, bool accumulate) override;

  // Offsets of the parameter blocks in the flat vector.
  Index bias1_offset() const { return input_dim() * hidden_; }
  Index weights2_offset() const { return bias1_offset() + hidden_; }
  Index bias2_offset() const { return weights2_offset() + hidden_ * num_outputs(); }

  Index hidden_;
  // Column-major: the GEMM into a row-major m x h block is slow with AVX-512 (dense_layer.h).
  detail::ColMatrix activations_;   // a1 = relu(z1), m x h
  detail::ColMatrix hidden_error_;  // e1, m x h
  Matrix logits_;                   // z2, then e2, m x k
  Matrix scaled_input_;             // diag(c) X, only if d < h
  Matrix scaled_hidden_;            // diag(c) A1, only if h < k
  Vector hidden_error_norms_;       // ||e1_i||^2
  Vector activation_norms_;         // ||a1_i||^2
  Vector column_square_;            // one column of e1 or a1 squared
};

}  // namespace dplab::models
