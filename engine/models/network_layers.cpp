// Pooling, activation and dense layers, and the factories of the non-conv layers (see
// network_layers.h; convolutions are in conv_layers.cpp, per-example norms in ghost_norms.cpp).
#include "models/network_layers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "models/conv_kernels.h"
#include "models/ghost_norms.h"
#include "models/layer_support.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace dplab::models::detail {
namespace {

// ------------------------------------------------------------------- pooling
class PoolLayer final : public Layer {
 public:
  PoolLayer(MapShape input, bool max, Index kernel, Index stride)
      : Layer(input), max_(max), kernel_(kernel), stride_(stride) {
    const std::string name = max ? "max_pool" : "avg_pool";
    require_layer(kernel >= 1 && stride >= 1, name, "kernel and stride must be >= 1");
    require_layer(
        input.height >= kernel && input.width >= kernel, name,
        "kernel " + std::to_string(kernel) + " is larger than the input " + shape_text(input));
    require_layer(input.size() <= std::numeric_limits<std::int32_t>::max(), name,
                  "the input " + shape_text(input) + " has 2^31 values or more");
    out_ = {(input.height - kernel) / stride + 1, (input.width - kernel) / stride + 1,
            input.channels};
    for (Index ky = 0; ky < kernel; ++ky) {
      for (Index kx = 0; kx < kernel; ++kx)
        offsets_.push_back((ky * input.width + kx) * input.channels);
    }
  }
  MapShape output_shape() const override { return out_; }
  bool absorb_relu() override {
    relu_ = max_;
    return relu_;
  }
  std::string describe() const override {
    return std::string(max_ ? "max_pool " : "avg_pool ") + std::to_string(kernel_) + "/" +
           std::to_string(stride_);
  }
  void add_to_graph(ModelGraph& graph, const float*, int) const override {
    GraphOp op;
    op.kind = max_ ? GraphOpKind::kMaxPool : GraphOpKind::kAvgPool;
    op.input = graph_shape(input_);
    op.output = graph_shape(out_);
    op.kernel = kernel_;
    op.stride = stride_;
    graph.ops.push_back(op);
  }
  void reserve(Index m) override {
    if (static_cast<Index>(argmax_.size()) < m * out_.size()) {
      argmax_.resize(static_cast<std::size_t>(m * out_.size()));
    }
  }
  // Channels innermost (HWC): each window element updates a contiguous run of c outputs, so
  // the work vectorises across channels (window_max for max; add_run for average). Max: the
  // first window element initialises (ties keep the first maximum, as before; a NaN in the
  // first element propagates).
  void forward(const float*, const float* in, float* out, Index m) override {
    const Index c = input_.channels;
    const float inverse_area = 1.f / static_cast<float>(kernel_ * kernel_);
    for (Index i = 0; i < m; ++i) {
      const float* map = in + i * input_.size();
      for (Index oy = 0; oy < out_.height; ++oy) {
        for (Index ox = 0; ox < out_.width; ++ox) {
          const Index o = i * out_.size() + (oy * out_.width + ox) * c;
          float* best = out + o;
          std::int32_t* best_at = argmax_.data() + o;
          const Index first = (oy * stride_ * input_.width + ox * stride_) * c;
          if (max_ && c % 16 == 0 && ox + 1 < out_.width) {
            if (kernel_ == 2) {
              window_max_pair<2>(map + first, map + first + stride_ * c, c, best, best_at);
            } else {
              window_max_pair<0>(map + first, map + first + stride_ * c, c, best, best_at);
            }
            ++ox;
            continue;
          }
          if (max_) {
            if (kernel_ == 2) {
              window_max<2>(map + first, c, best, best_at);
            } else {
              window_max<0>(map + first, c, best, best_at);
            }
            continue;
          }
          for (Index ch = 0; ch < c; ++ch) best[ch] = map[first + ch];
          for (Index ky = 0; ky < kernel_; ++ky) {
            for (Index kx = ky == 0 ? 1 : 0; kx < kernel_; ++kx) {
              add_run(map + ((oy * stride_ + ky) * input_.width + ox * stride_ + kx) * c, c, best);
            }
          }
          for (Index ch = 0; ch < c; ++ch) best[ch] *= inverse_area;
        }
      }
    }
  }
  // window_max of two windows (two neighbouring outputs, their results c floats apart), c a
  // multiple of 16: one pass over their elements, so that the two compare-and-select chains
  // interleave (one window at a time waited on its chain: 0.24 -> 0.19 ms per lot of 250 for
  // the cnn's first max-pool).
  template <Index kKernel>
  void window_max_pair(const float* w0, const float* w1, Index c, float* best,
                       std::int32_t* best_at) const {
#if defined(__AVX512F__)
    const Index elements = kKernel > 0 ? kKernel * kKernel : kernel_ * kernel_;
    for (Index c0 = 0; c0 < c; c0 += 16) {
      __m512 b0 = _mm512_loadu_ps(w0 + c0), b1 = _mm512_loadu_ps(w1 + c0);
      __m512i a0 = _mm512_setzero_si512(), a1 = _mm512_setzero_si512();
      for (Index j = 1; j < elements; ++j) {
        const Index off = offsets_[static_cast<std::size_t>(j)];
        const __m512 v0 = _mm512_loadu_ps(w0 + off + c0), v1 = _mm512_loadu_ps(w1 + off + c0);
        const __mmask16 g0 = _mm512_cmp_ps_mask(v0, b0, _CMP_GT_OQ);
        const __mmask16 g1 = _mm512_cmp_ps_mask(v1, b1, _CMP_GT_OQ);
        const __m512i code = _mm512_set1_epi32(static_cast<std::int32_t>(j));
        b0 = _mm512_mask_mov_ps(b0, g0, v0);
        b1 = _mm512_mask_mov_ps(b1, g1, v1);
        a0 = _mm512_mask_mov_epi32(a0, g0, code);
        a1 = _mm512_mask_mov_epi32(a1, g1, code);
      }
      if (relu_) {
        b0 = _mm512_max_ps(_mm512_setzero_ps(), b0);
        b1 = _mm512_max_ps(_mm512_setzero_ps(), b1);
      }
      _mm512_storeu_ps(best + c0, b0);
      _mm512_storeu_ps(best + c + c0, b1);
      _mm512_storeu_si512(best_at + c0, a0);
      _mm512_storeu_si512(best_at + c + c0, a1);
    }
#else
    window_max<kKernel>(w0, c, best, best_at);
    window_max<kKernel>(w1, c, best + c, best_at + c);
#endif
  }
  // The maximum over the window starting at `window`, for c channels, and per channel the
  // window element j = ky k + kx that holds it (ties: the first; a NaN in the first element
  // propagates). With AVX-512, 16 channels at a time: one compare into a mask and two masked
  // moves per window element, the running maximum and its element kept in registers.
  // kKernel: the kernel when known at compile time (2: the loops unroll), else 0.
  template <Index kKernel>
  void window_max(const float* window, Index c, float* best, std::int32_t* best_at) const {
    const Index elements = kKernel > 0 ? kKernel * kKernel : kernel_ * kernel_;
    Index c0 = 0;
#if defined(__AVX512F__)
    for (; c0 + 16 <= c; c0 += 16) {
      __m512 b = _mm512_loadu_ps(window + c0);
      __m512i a = _mm512_setzero_si512();
      for (Index j = 1; j < elements; ++j) {
        const __m512 v = _mm512_loadu_ps(window + offsets_[static_cast<std::size_t>(j)] + c0);
        const __mmask16 greater = _mm512_cmp_ps_mask(v, b, _CMP_GT_OQ);
        b = _mm512_mask_mov_ps(b, greater, v);
        a = _mm512_mask_mov_epi32(a, greater, _mm512_set1_epi32(static_cast<std::int32_t>(j)));
      }
      if (relu_) b = _mm512_max_ps(_mm512_setzero_ps(), b);  // NaN stays NaN, as in relu
      _mm512_storeu_ps(best + c0, b);
      _mm512_storeu_si512(best_at + c0, a);
    }
#endif
    for (Index ch = c0; ch < c; ++ch) {
      float b = window[ch];
      std::int32_t a = 0;
      for (Index j = 1; j < elements; ++j) {
        const float v = window[offsets_[static_cast<std::size_t>(j)] + ch];
        if (v > b) {
          b = v;
          a = static_cast<std::int32_t>(j);
        }
      }
      best[ch] = relu_ && 0.f > b ? 0.f : b;
      best_at[ch] = a;
    }
  }
  void backward(const float*, const float*, const float* out, const float* out_grad, float* in_grad,
                Index m) override {
    if (in_grad == nullptr) return;
    if (max_) return max_backward(out, out_grad, in_grad, m);
    std::fill(in_grad, in_grad + m * input_.size(), 0.f);
    const Index c = input_.channels;
    const float inverse_area = 1.f / static_cast<float>(kernel_ * kernel_);
    for (Index i = 0; i < m; ++i) {
      float* map = in_grad + i * input_.size();
      for (Index oy = 0; oy < out_.height; ++oy) {
        for (Index ox = 0; ox < out_.width; ++ox) {
          const Index o = i * out_.size() + (oy * out_.width + ox) * c;
          for (Index ch = 0; ch < c; ++ch) {
            const float g = out_grad[o + ch];
            for (Index ky = 0; ky < kernel_; ++ky) {
              for (Index kx = 0; kx < kernel_; ++kx) {
                map[((oy * stride_ + ky) * input_.width + ox * stride_ + kx) * c + ch] +=
                    g * inverse_area;
              }
            }
          }
        }
      }
    }
  }

 private:
  // in_grad = 0, then in_grad[window element argmax_o of o] += out_grad_o for every output o,
  // in output order. With AVX-512, 16 channels of one output position at a time: its 16 lanes
  // are 16 channels, so no two lanes hit the same input, and each window element takes one
  // compare of the lanes' chosen elements and one add of the masked gradient, stored whole
  // (written as a masked add GCC 12 emits a masked store, from which the next window's load of
  // the same floats cannot forward: 42 % of this loop's samples waited there).
  // Absorbed relu: only where the output (relu of the maximum) is > 0.
  void max_backward(const float* out, const float* out_grad, float* in_grad, Index m) const {
    std::fill(in_grad, in_grad + m * input_.size(), 0.f);
    const Index c = input_.channels;
#if defined(__AVX512F__)
    const Index elements = kernel_ * kernel_;
#endif
    for (Index i = 0; i < m; ++i) {
      float* map = in_grad + i * input_.size();
      for (Index oy = 0; oy < out_.height; ++oy) {
        for (Index ox = 0; ox < out_.width; ++ox) {
          const Index o = i * out_.size() + (oy * out_.width + ox) * c;
          const float* g = out_grad + o;
          const std::int32_t* at = argmax_.data() + o;
          float* window = map + (oy * stride_ * input_.width + ox * stride_) * c;
          Index c0 = 0;
#if defined(__AVX512F__)
          for (; c0 + 16 <= c; c0 += 16) {
            __m512 grad = _mm512_loadu_ps(g + c0);
            if (relu_) {
              grad = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(_mm512_loadu_ps(out + o + c0),
                                                            _mm512_setzero_ps(), _CMP_GT_OQ),
                                         grad);
            }
            const __m512i chosen = _mm512_loadu_si512(at + c0);
            for (Index j = 0; j < elements; ++j) {
              const __mmask16 hit =
                  _mm512_cmpeq_epi32_mask(chosen, _mm512_set1_epi32(static_cast<std::int32_t>(j)));
              float* here = window + offsets_[static_cast<std::size_t>(j)] + c0;
              _mm512_storeu_ps(
                  here, _mm512_add_ps(_mm512_loadu_ps(here), _mm512_maskz_mov_ps(hit, grad)));
            }
          }
#endif
          for (Index ch = c0; ch < c; ++ch) {
            if (relu_ && !(out[o + ch] > 0.f)) continue;
            window[offsets_[static_cast<std::size_t>(at[ch])] + ch] += g[ch];
          }
        }
      }
    }
  }

  bool max_;
  bool relu_ = false;  // absorb_relu: the relu before this max-pool is done here
  Index kernel_, stride_;
  MapShape out_;
  std::vector<Index> offsets_;  // window element j = ky k + kx: (ky w + kx) c from the window
  // Per output value: the window element j of its maximum. 32 bits, as wide as a float lane, so
  // the forward pass's compare-and-select vectorises.
  std::vector<std::int32_t> argmax_;
};

// ---------------------------------------------------------------- activations
class ActivationLayer final : public Layer {
 public:
  ActivationLayer(MapShape input, Activation kind) : Layer(input), kind_(kind) {}
  MapShape output_shape() const override { return input_; }
  bool is_relu() const override { return kind_ == Activation::kRelu; }
  std::string describe() const override {
    switch (kind_) {
      case Activation::kRelu:
        return "relu";
      case Activation::kLeakyRelu:
        return "leaky_relu";
      case Activation::kSigmoid:
        return "sigmoid";
      case Activation::kTanh:
        return "tanh";
    }
    return "?";
  }
  void add_to_graph(ModelGraph& graph, const float*, int) const override {
    GraphOp op;
    op.kind = kind_ == Activation::kRelu        ? GraphOpKind::kRelu
              : kind_ == Activation::kLeakyRelu ? GraphOpKind::kLeakyRelu
              : kind_ == Activation::kSigmoid   ? GraphOpKind::kSigmoid
                                                : GraphOpKind::kTanh;
    op.slope = kind_ == Activation::kLeakyRelu ? kLeakySlope : 0.f;
    op.input = op.output = graph_shape(input_);
    graph.ops.push_back(op);
  }
  void forward(const float*, const float* in, float* out, Index m) override {
    const Index n = m * input_.size();
    Eigen::Map<const Eigen::ArrayXf> x(in, n);
    Eigen::Map<Eigen::ArrayXf> y(out, n);
    switch (kind_) {
      case Activation::kRelu:
        y = x.max(0.f);
        break;
      case Activation::kLeakyRelu:
        y = (x > 0.f).select(x, kLeakySlope * x);
        break;
      case Activation::kSigmoid:
        y = 1.f / (1.f + (-x).exp());
        break;
      case Activation::kTanh:
        y = x.tanh();
        break;
    }
  }
  void backward(const float*, const float* in, const float* out, const float* out_grad,
                float* in_grad, Index m) override {
    if (in_grad == nullptr) return;
    const Index n = m * input_.size();
    Eigen::Map<const Eigen::ArrayXf> x(in, n), y(out, n), g(out_grad, n);
    Eigen::Map<Eigen::ArrayXf> dx(in_grad, n);
    switch (kind_) {
      case Activation::kRelu:
        dx = (x > 0.f).select(g, 0.f);
        break;  // relu'(0) = 0
      case Activation::kLeakyRelu:
        dx = (x > 0.f).select(g, kLeakySlope * g);
        break;
      case Activation::kSigmoid:
        dx = g * y * (1.f - y);
        break;
      case Activation::kTanh:
        dx = g * (1.f - y * y);  // tanh' = 1 - tanh^2
        break;
    }
  }

 private:
  Activation kind_;
};

// ---------------------------------------------------------------------- dense
class DenseLayer final : public Layer {
 public:
  DenseLayer(MapShape input, Index units) : Layer(input), units_(units) {
    require_layer(units >= 1, "dense", "units must be >= 1");
    // Whole 16-float lanes of units: the products run in conv_kernels.h's tiles, as a 1 x 1
    // convolution of a 1 x 1 x d map (Eigen packed all of W for every block of a few rows).
    implicit_ = implicit_conv_supported(units);
    implicit_input_ = implicit_ && implicit_input_gradient_supported(1, input.size());
    if (implicit_) implicit_conv_ = make_implicit_conv(1, 1, input.size(), units, 1, 1);
  }
  MapShape output_shape() const override { return {1, 1, units_}; }
  Index num_params() const override { return input_.size() * units_ + units_; }
  std::string describe() const override { return "dense " + std::to_string(units_); }
  void add_to_graph(ModelGraph& graph, const float* params, int index) const override {
    GraphOp op;
    op.kind = GraphOpKind::kDense;
    op.input = graph_shape(input_);
    op.output = {1, 1, units_};
    const std::string name = "layer" + std::to_string(index);
    op.weight = add_tensor(graph, name + ".weight", {input_.size(), units_}, params);
    op.bias = add_tensor(graph, name + ".bias", {units_}, params + input_.size() * units_);
    graph.ops.push_back(op);
  }
  double gemm_flops(bool /*clipped*/, bool input_gradient) const override {
    // Forward, input gradient, weight gradient X^T diag(c) E; the rank-1 norms are O(d + u).
    const double product = 2.0 * static_cast<double>(input_.size() * units_);
    return (input_gradient ? 3.0 : 2.0) * product;
  }
  void initialize(float* params, Rng& rng) const override {
    fill_uniform(params, num_params(), 1.0 / std::sqrt(static_cast<double>(input_.size())), rng);
  }
  void reserve(Index m) override { ensure(scaled_, m, units_); }
  void prepare_backward(const float* params) override {
    if (implicit_input_) {
      w_transposed_ = ConstMap(params, input_.size(), units_).transpose();
      transposed_from_ = params;
    }
  }
  void forward(const float* params, const float* in, float* out, Index m) override {
    const Index d = input_.size();
    if (implicit_) return implicit_forward(implicit_conv_, in, m, params, params + d * units_, out);
    MutMap z(out, m, units_);
    multiply(z, ConstMap(in, m, d), ConstMap(params, d, units_), false);
    z.rowwise() += ConstRowMap(params + d * units_, units_);
  }
  void backward(const float* params, const float* in, const float*, const float* out_grad,
                float* in_grad, Index m) override {
    inputs_ = in;
    errors_ = out_grad;
    if (in_grad == nullptr) return;
    const Index d = input_.size();
    if (implicit_input_) {  // each example's input is its one window: stored, not added
      if (transposed_from_ != params) throw Error("dense: backward before prepare_backward");
      return implicit_input_gradient(implicit_conv_, out_grad, m, w_transposed_.data(), true,
                                     in_grad);
    }
    MutMap dx(in_grad, m, d);
    multiply(dx, ConstMap(out_grad, m, units_), ConstMap(params, d, units_).transpose(), false);
  }
  void add_squared_norms(float* squared, Index m) override {
    const Index d = input_.size();
    const ConstMap x(inputs_, m, d), e(errors_, m, units_);
    for (Index i = 0; i < m; ++i) {  // rank 1: (||x_i||^2 + 1) ||e_i||^2
      squared[i] += (x.row(i).squaredNorm() + 1.f) * e.row(i).squaredNorm();
    }
  }
  void add_weighted_gradient(const float* weights, float* grad, bool accumulate, Index m) override {
    const Index d = input_.size();
    MutMap dw(grad, d, units_);
    RowMap db(grad + d * units_, units_);
    if (!accumulate) {
      dw.setZero();
      db.setZero();
    }
    const float* e = errors_;
    if (weights != nullptr) {
      scale_blocks(errors_, units_, 1, m, weights, scaled_);
      e = scaled_.data();
    }
    const ConstMap em(e, m, units_);
    db += em.colwise().sum();
    // X^T E has K = m (a few rows): Eigen's GEMM, whose packing is cheap here, beat the tiles
    // (0.13 vs 0.21 ms per lot of 250 for the cnn's dense 32).
    multiply(dw, ConstMap(inputs_, m, d).transpose(), em, true);
  }

 private:
  Index units_;
  bool implicit_ = false, implicit_input_ = false;  // conv_kernels.h tiles (see the constructor)
  ImplicitConv implicit_conv_;
  Matrix w_transposed_;                     // units x d, set by prepare_backward
  const float* transposed_from_ = nullptr;  // the parameters w_transposed_ was made from
  Matrix scaled_;
  const float* inputs_ = nullptr;
  const float* errors_ = nullptr;
};

}  // namespace

std::unique_ptr<Layer> make_pool(MapShape input, bool max, Index kernel, Index stride) {
  return std::make_unique<PoolLayer>(input, max, kernel, stride);
}
std::unique_ptr<Layer> make_activation(MapShape input, Activation kind) {
  return std::make_unique<ActivationLayer>(input, kind);
}
std::unique_ptr<Layer> make_dense(MapShape input, Index units) {
  return std::make_unique<DenseLayer>(input, units);
}

}  // namespace dplab::models::detail
