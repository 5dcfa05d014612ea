// Layers of dplab's small convolutional networks (conv_network.h), with per-example gradient
// norms for DP clipping WITHOUT materialising per-example gradients where that is cheaper.
//
// Layout: every activation is one row per example, channels last (HWC): the value of channel c
// at (y, x) of an h x w map is at (y w + x) c_total + c. A row of P = h w positions x c channels
// is therefore also a P x c row-major matrix, and a block of m examples an (m P) x c matrix.
//
// Convolution (stride s, padding p, kernel k; Goodfellow et al. 2016 ch. 9) as im2col + GEMM:
//   U_i = unfold(x_i)  (P x D, D = k k c_in),   Z_i = U_i W + 1 b^T  (W: D x c_out)
//   backward: dW = sum_i U_i^T E_i,  db = sum_i E_i^T 1,  dX_i = fold(E_i W^T)
// Transposed convolution is the convolution's backward pass used forward (Dumoulin & Visin 2016):
//   Z_i = fold(X_i W) + 1 b^T (W: c_in x k k c_out);  backward: F_i = unfold(E_i),
//   dW = sum_i X_i^T F_i, dX_i = F_i W^T, db = sum_i E_i^T 1.
//
// Per-example squared norm of a conv-type layer's weight gradient G_i = A_i^T B_i (A_i: P x a,
// B_i: P x b; conv: A = U, B = E; transposed conv: A = X, B = F), two ways (Li et al. 2022,
// "Large language models can be strong differentially private learners", ghost clipping; Bu et
// al. 2022, "Scalable and efficient training of large CNNs with DP" — mixed ghost clipping):
//   ghost:  ||A_i^T B_i||_F^2 = sum_{p,p'} (A_i A_i^T)_{pp'} (B_i B_i^T)_{pp'}   cost ~ P^2 (a + b)
//   direct: form G_i (a x b) and take its norm                                 cost ~ P a b
// Each layer picks the cheaper (NormMethod::kAuto) unless a test forces one, counting the clipped
// sum below too (cheaper_norm_method): direct unless P^2 (a + b) < a b. The bias adds
// ||B_i^T 1||^2 (conv: E_i; transposed conv: E_i over the output positions). Dense layers use
// the rank-1 identity (||x_i||^2 + 1) ||e_i||^2 (dense_layer.h).
// The clipped sum is then ONE weighted GEMM per ghost layer on the stored A and B:
//   sum_i c_i A_i^T B_i = A^T diag(c repeated P times) B,
// and, per direct layer, sum_i c_i G_i over the G_i its norms already formed (m a b additions
// instead of a second P m a b product).
//
// On AVX-512 builds a direct-norm convolution with a multiple of 16 output channels forms U_i W,
// U_i^T E_i and fold(E_i W^T) without U: its kernels read the windows from the input map
// (implicit im2col, conv_kernels.h), so no unfolded matrix is written or packed.
//
// Internal to engine/models. Each layer owns scratch sized by reserve(m); no allocation after.
// Implementations: conv_layers.cpp (convolution, transposed convolution), ghost_norms.{h,cpp}
// (the per-example norms and clipped sums above), network_layers.cpp (pooling, activations,
// dense), layer_support.h (helpers shared by them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/random.h"
#include "core/types.h"
#include "models/model_graph.h"

namespace dplab::models::detail {

struct MapShape {
  Index height = 1, width = 1, channels = 1;
  Index positions() const { return height * width; }
  Index size() const { return height * width * channels; }
};
inline GraphShape graph_shape(MapShape s) {
  return {s.height, s.width, s.channels};
}

enum class NormMethod { kAuto, kGhost, kDirect };
enum class Activation { kRelu, kLeakyRelu, kSigmoid, kTanh };
inline constexpr float kLeakySlope = 0.01f;  // PyTorch's LeakyReLU default

class Layer {
 public:
  explicit Layer(MapShape input) : input_(input) {}
  virtual ~Layer() = default;
  MapShape input_shape() const { return input_; }
  virtual MapShape output_shape() const = 0;
  virtual Index num_params() const { return 0; }
  virtual std::string describe() const = 0;
  // Appends this layer's op to graph (model_graph.h), with its tensors "layer<index>.weight" and
  // "layer<index>.bias" copied from params (this layer's block of the flat parameters).
  virtual void add_to_graph(ModelGraph& graph, const float* params, int index) const = 0;
  // PyTorch's default initialisation: weights and biases ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
  virtual void initialize(float* /*params*/, Rng& /*rng*/) const {}
  // Scratch for blocks of up to m examples.
  virtual void reserve(Index /*m*/) {}
  // in: m x input size, out: m x output size (row-major, contiguous).
  virtual void forward(const float* params, const float* in, float* out, Index m) = 0;
  // Before backward, whenever the parameters have changed (ConvNetwork: once per gradient call,
  // whose blocks all see the same parameters): what backward derives from the parameters alone
  // (ConvLayer, DenseLayer: W^T for conv_kernels.h; their backward throws Error when not
  // prepared for its `params`).
  virtual void prepare_backward(const float* /*params*/) {}
  // out_grad = dloss/dout (m x output size; the layer keeps a pointer to it for the norms and
  // the weighted gradient, so it must stay alive until then). Writes dloss/din into in_grad
  // unless in_grad is null (first layer). `in` and `out` are the forward pass's buffers.
  virtual void backward(const float* params, const float* in, const float* out,
                        const float* out_grad, float* in_grad, Index m) = 0;
  // After backward: squared[i] += ||g_i||^2 of this layer's parameters.
  virtual void add_squared_norms(float* /*squared*/, Index /*m*/) {}
  // After backward: grad (this layer's num_params) = or += sum_i w_i g_i (weights null: w = 1).
  virtual void add_weighted_gradient(const float* /*weights*/, float* /*grad*/, bool /*accumulate*/,
                                     Index /*m*/) {}
  // Floating-point operations of this layer's GEMMs for one example in one step, each GEMM
  // counted as 2 M N K (pooling, activations, unfold/fold and bias sums not counted): forward,
  // input gradient (unless input_gradient is false: the first layer), and either the plain
  // weight gradient (clipped false) or the per-example norms and the clipped sum as this layer
  // computes them (ghost: Gram matrices + weighted GEMM; direct: G_i + the scaled sum of G_i).
  virtual double gemm_flops(bool /*clipped*/, bool /*input_gradient*/) const { return 0; }
  // Which norm method a parametrised layer uses (kAuto for layers without parameters).
  virtual NormMethod norm_method() const { return NormMethod::kAuto; }
  // A relu followed by a max-pool (ConvNetwork fuses the pair, issue #49): max(relu(window)) =
  // relu(max(window)) with the same chosen element, and the gradient reaches the element only
  // where that maximum is > 0 — exactly the relu's derivative there (relu'(0) = 0; for a
  // non-positive maximum the unfused pair routes it to an element whose relu' is 0). So the
  // pool can read the relu's input and do its work: is_relu() says a layer is a relu,
  // absorb_relu() asks the next layer to take the relu over (true: it has, and from now on
  // forward writes relu(max) and backward gives the gradient with respect to the relu's input).
  virtual bool is_relu() const { return false; }
  virtual bool absorb_relu() { return false; }
  // Floats of the largest scratch matrix this layer touches per example in a block (a conv
  // layer's unfolded columns): ConvNetwork sizes its blocks so that it stays in cache.
  virtual Index scratch_floats_per_example() const { return input_.size(); }

 protected:
  MapShape input_;
};

// Layer factories (each validates its arguments; InvalidArgument names the layer and field).
std::unique_ptr<Layer> make_conv(MapShape input, Index channels, Index kernel, Index stride,
                                 Index padding, NormMethod method);
std::unique_ptr<Layer> make_conv_transpose(MapShape input, Index channels, Index kernel,
                                           Index stride, Index padding, NormMethod method);
std::unique_ptr<Layer> make_pool(MapShape input, bool max, Index kernel, Index stride);
std::unique_ptr<Layer> make_activation(MapShape input, Activation kind);
std::unique_ptr<Layer> make_dense(MapShape input, Index units);

// Which of ghost / direct is cheaper for G_i = A_i^T B_i with A_i: P x a, B_i: P x b, norms and
// clipped sum together: ghost iff P^2 (a + b) < a b.
NormMethod cheaper_norm_method(Index positions, Index a, Index b);

}  // namespace dplab::models::detail
