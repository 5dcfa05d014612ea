// ConvNetwork: a feed-forward network of network_layers.h layers, described by a small JSON
// text (network_description.h), with DP clipping by per-example norms that are never formed
// from materialised per-example gradients unless that is the cheaper way (mixed ghost clipping,
// network_layers.h). One clipped step on a block of m examples:
//   1. forward pass, keeping every layer's activations (and the conv layers' unfolded or padded
//      inputs);
//   2. loss head: softmax cross-entropy on the last layer (classification), or the
//      reconstruction loss (1/n_pixels) ||x_hat_i - x_i||^2 against the input itself
//      (autoencoder: the example's target is ignored);
//   3. one backward pass for the per-example output errors of every layer;
//   4. ||g_i||^2 = sum over parametrised layers (ghost / direct / rank-1), c_i = min(1, C/||g_i||);
//   5. sum_i c_i g_i: one weighted GEMM per layer on the stored operands.
// A relu directly before a max-pool is run by the pool (Layer::absorb_relu: relu(max) = max(relu),
// same gradient), which saves a pass over the map each way.
// Rows are processed in blocks of kNetworkBlockRows (bounded scratch whatever the lot size).
// Parameters, flat: the layers' blocks in order, each [W row-major, b].
//
// Thread-safety: not thread-safe (scratch buffers); clone() per job.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/model.h"
#include "models/network_layers.h"

namespace dplab::models {

// At most 4 rows per block: they keep a block's unfolded inputs and its per-example products
// in L2 (cnn conv1: 4 x 196 x 64 floats = 200 KB). Measured on the issue #30 Xeon (2 MB L2 per
// core), cnn DP steps/s with 4 / 8 / 16 rows: 143 / 139 / 124; 64 rows was ~1.5x slower than 16
// on the AMD development machine.
inline constexpr Index kNetworkBlockRows = 4;
// A network's block is smaller when one example's largest layer scratch is big: as many rows as
// keep it within this many bytes (the conv-autoencoder's 3x3 layers on 20x20..26x26 maps unfold to
// ~460 KB per example: 2 rows, not 16, which spilled every GEMM operand out of L2 and made the
// batched step slower than one example at a time — measured in issue #15).
inline constexpr Index kNetworkBlockBytes = Index{1} << 20;

enum class NetworkLoss { kSoftmaxCrossEntropy, kReconstruction };

struct NetworkSpec {
  std::string name;        // "cnn", "conv-autoencoder", or a user's name
  detail::MapShape input;  // h x w x c of one example (c h w = input_dim)
  NetworkLoss loss = NetworkLoss::kSoftmaxCrossEntropy;
  std::vector<std::unique_ptr<detail::Layer>> layers;
};

class ConvNetwork final : public Model {
 public:
  // num_classes: the data's classes (>= 2 for cross-entropy, whose last layer must have as
  // many units); the reconstruction loss needs the last layer's output size = the input's.
  ConvNetwork(NetworkSpec spec, int num_classes);
  ConvNetwork(const ConvNetwork&) = delete;

  std::string name() const override { return name_; }
  std::string description() const override;
  void initialize(std::uint64_t seed) override;
  double loss_sum(const MatrixView& x, const VectorView& y) override;
  double clipped_gradient_sum(const MatrixView& x, const VectorView& y, const Clipping& clip,
                              VectorSpan gradient_sum, VectorSpan norms) override;
  double weighted_gradient_sum(const MatrixView& x, const VectorView& y, const VectorView& weights,
                               VectorSpan gradient_sum) override;
  Evaluation evaluate(const data::Dataset& data) override;
  void logits(const MatrixView& x, Matrix& out) override;
  void describe_graph(ModelGraph& graph) const override;  // the layers' ops in order
  std::unique_ptr<Model> clone() const override;

  const std::vector<std::unique_ptr<detail::Layer>>& layers() const { return layers_; }
  const std::string& json_text() const { return json_text_; }
  // Rows per block: min(kNetworkBlockRows, kNetworkBlockBytes / the largest per-example scratch).
  Index block_rows() const { return block_rows_; }
  // GEMM floating-point operations of one example in a step (Layer::gemm_flops summed; the
  // first layer computes no input gradient): the DP step's (clipped) or the non-private one's.
  double gemm_flops_per_example(bool clipped) const;
  void set_json_text(std::string text) { json_text_ = std::move(text); }

 private:
  void check_batch(const MatrixView& x, const VectorView& y) const;
  void reserve(Index rows);
  // Forward pass of rows [start, start + m) of x; returns the last layer's output (m x out).
  float* forward(const MatrixView& x, Index start, Index m);
  // Per-example losses of the block into the output error (in place); returns their sum.
  double loss_and_error(const VectorView& y, Index start, Index m);
  void prepare_backward();  // Layer::prepare_backward of every layer
  // Where layer l reads its input: activations_[l], or [l - 1] when layer l - 1 is a relu that
  // layer l absorbed (Layer::absorb_relu).
  std::size_t input_of(std::size_t l) const { return l > 0 && absorbed_[l - 1] ? l - 1 : l; }
  void backward(Index m);
  double block_gradients(const MatrixView& x, const VectorView& y, const Clipping& clip,
                         const float* weights, float* norms, float* grad, bool accumulate,
                         Index start, Index m);

  std::string name_;
  std::string json_text_;
  detail::MapShape input_;
  NetworkLoss loss_;
  int num_classes_;
  std::vector<std::unique_ptr<detail::Layer>> layers_;
  std::vector<Index> offsets_;       // parameter offset of each layer
  std::vector<bool> absorbed_;       // layer l is a relu done by layer l + 1 (not run itself)
  std::vector<Matrix> activations_;  // [0] = input block, [l + 1] = output of layer l
  std::vector<Matrix> gradients_;    // dloss / d activations_[l]
  Vector squared_norms_, factors_, losses_;
  Matrix input_scratch_;  // evaluate: one block of pixel rows as floats
  Index reserved_ = 0;
  Index block_rows_ = kNetworkBlockRows;
};

}  // namespace dplab::models
