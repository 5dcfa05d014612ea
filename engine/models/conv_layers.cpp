// Convolution and transposed convolution layers: im2col + GEMM (see network_layers.h).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "models/conv_kernels.h"
#include "models/ghost_norms.h"
#include "models/layer_support.h"
#include "models/network_layers.h"

namespace dplab::models::detail {
namespace {

// The geometry of a convolution from a `big` map (h x w x c) with kernel k, stride s and
// padding p: out = (h + 2p - k) / s + 1 positions per axis; D = k k c columns per unfolded row.
struct ConvGeometry {
  MapShape big;
  Index kernel = 1, stride = 1, padding = 0;
  Index out_height = 0, out_width = 0;
  Index positions() const { return out_height * out_width; }
  Index columns() const { return kernel * kernel * big.channels; }
};

ConvGeometry geometry(MapShape big, Index kernel, Index stride, Index padding) {
  ConvGeometry g{big, kernel, stride, padding, 0, 0};
  g.out_height = (big.height + 2 * padding - kernel) / stride + 1;
  g.out_width = (big.width + 2 * padding - kernel) / stride + 1;
  return g;
}

// The kernel columns kx of output column ox that fall inside the map: [lo, hi) (lo = hi when
// none do). Window row ky of that position is then, in HWC layout, one contiguous run of
// (hi - lo) c floats of the map, preceded by lo c and followed by (k - hi) c zeros of padding.
struct KernelSpan {
  Index lo = 0, hi = 0;
};
KernelSpan valid_columns(const ConvGeometry& g, Index ox) {
  const Index x0 = ox * g.stride - g.padding;
  const Index lo = std::clamp<Index>(-x0, 0, g.kernel);
  const Index hi = std::clamp<Index>(g.big.width - x0, lo, g.kernel);
  return {lo, hi};
}

// cols (P x D, row-major) <- unfold(map): row (oy, ox) holds the k x k x c window at
// (oy s - p, ox s - p), zero outside the map; column (ky k + kx) c + ch. A padded geometry
// unfolds a copy of the map inside a zero border of p (copied row by row; the border is zeroed
// once, when the Unfolder is made), so every window row is one contiguous run of k c floats of
// that copy and no position needs an edge case: a single 8-float move per window row for the
// cnn's first layer (c = 1, k = 8, p = 3), 8 moves for its second (c = 16, k = 4). Measured on
// the issue #30 Xeon, the edge cases (a clamped span, zero runs) cost more than the copies.
class Unfolder {
 public:
  Unfolder() = default;
  explicit Unfolder(const ConvGeometry& g) : g_(g) {
    if (g.padding == 0) return;
    padded_shape_ = {g.big.height + 2 * g.padding, g.big.width + 2 * g.padding, g.big.channels};
    padded_.assign(static_cast<std::size_t>(padded_shape_.size()), 0.f);
  }
  void operator()(const float* map, float* cols) {
    if (g_.padding == 0) return unfold_unpadded(map, g_.big.width, cols);
    const Index c = g_.big.channels, row = g_.big.width * c;
    float* interior = padded_.data() + (g_.padding * padded_shape_.width + g_.padding) * c;
    for (Index y = 0; y < g_.big.height; ++y) {
      copy_run(map + y * row, row, interior + y * padded_shape_.width * c);
    }
    unfold_unpadded(padded_.data(), padded_shape_.width, cols);
  }

 private:
  // The windows of a map `width` positions wide, all inside it (the geometry's own padding is
  // already in the map).
  void unfold_unpadded(const float* map, Index width, float* cols) const {
    const Index c = g_.big.channels, d = g_.columns(), run = g_.kernel * c;
    const Index step = g_.stride * c;
    for (Index oy = 0; oy < g_.out_height; ++oy) {
      for (Index ky = 0; ky < g_.kernel; ++ky) {
        const float* src = map + (oy * g_.stride + ky) * width * c;
        float* dst = cols + oy * g_.out_width * d + ky * run;
        if (run == 8) {  // one move per window row (3-5 % of the cnn step over copy_run's loop)
          for (Index ox = 0; ox < g_.out_width; ++ox, src += step, dst += d) {
            Eigen::Map<Chunk>{dst} = Eigen::Map<const Chunk>{src};
          }
          continue;
        }
        for (Index ox = 0; ox < g_.out_width; ++ox, src += step, dst += d) {
          copy_run(src, run, dst);
        }
      }
    }
  }

  ConvGeometry g_;
  MapShape padded_shape_;
  std::vector<float> padded_;  // the map inside a zero border (padding > 0 only)
};

// map += fold(cols): the adjoint of unfold (each column entry added back to its map position),
// one run of (hi - lo) c floats per window row as in unfold.
void fold(const ConvGeometry& g, const float* cols, float* map) {
  const Index c = g.big.channels;
  const Index d = g.columns();
  const Index run = g.kernel * c;
  for (Index oy = 0; oy < g.out_height; ++oy) {
    for (Index ox = 0; ox < g.out_width; ++ox) {
      const float* row = cols + (oy * g.out_width + ox) * d;
      const KernelSpan span = valid_columns(g, ox);
      const Index x_first = ox * g.stride - g.padding + span.lo;
      const Index inside = (span.hi - span.lo) * c;
      if (inside == 0) continue;
      for (Index ky = 0; ky < g.kernel; ++ky) {
        const Index iy = oy * g.stride - g.padding + ky;
        if (iy < 0 || iy >= g.big.height) continue;
        add_run(row + ky * run + span.lo * c, inside, map + (iy * g.big.width + x_first) * c);
      }
    }
  }
}

// ---------------------------------------------------------------- convolution
// "conv 32x3x3/1 pad 1 (direct)": the layer's line in ConvNetwork::describe().
std::string describe_conv(const char* kind, Index channels, const ConvGeometry& g,
                          NormMethod method) {
  return std::string(kind) + " " + std::to_string(channels) + "x" + std::to_string(g.kernel) + "x" +
         std::to_string(g.kernel) + "/" + std::to_string(g.stride) +
         (g.padding ? " pad " + std::to_string(g.padding) : "") +
         (method == NormMethod::kGhost ? " (ghost)" : " (direct)");
}

// The arguments both convolution layers take, checked once (InvalidArgument naming the layer).
void require_conv_arguments(const std::string& name, Index channels, Index kernel, Index stride,
                            Index padding) {
  require_layer(channels >= 1 && kernel >= 1 && stride >= 1 && padding >= 0, name,
                "channels, kernel, stride must be >= 1 and padding >= 0");
}

// A conv-type layer's op: W row-major is (conv) D x c_out with D = (ky k + kx) c_in + c, i.e.
// [k, k, c_in, c_out], or (transposed) c_in x (ky k + kx) c_out + o, i.e. [c_in, k, k, c_out]
// (model_graph.h); the bias (c_out) follows it.
void add_conv_op(ModelGraph& graph, GraphOpKind kind, const Layer& layer, const ConvGeometry& g,
                 const float* params, int index, std::vector<Index> weight_shape,
                 Index weight_size) {
  GraphOp op;
  op.kind = kind;
  op.input = graph_shape(layer.input_shape());
  op.output = graph_shape(layer.output_shape());
  op.kernel = g.kernel;
  op.stride = g.stride;
  op.padding = g.padding;
  const std::string name = "layer" + std::to_string(index);
  op.weight = add_tensor(graph, name + ".weight", std::move(weight_shape), params);
  op.bias = add_tensor(graph, name + ".bias", {op.output.channels}, params + weight_size);
  graph.ops.push_back(op);
}

class ConvLayer final : public Layer {
 public:
  ConvLayer(MapShape input, Index channels, Index kernel, Index stride, Index padding,
            NormMethod method)
      : Layer(input), channels_(channels) {
    const std::string name = "conv";
    require_conv_arguments(name, channels, kernel, stride, padding);
    require_layer(input.height + 2 * padding >= kernel && input.width + 2 * padding >= kernel, name,
                  "kernel " + std::to_string(kernel) + " is larger than the padded input " +
                      shape_text(input));
    g_ = geometry(input, kernel, stride, padding);
    method_ = method != NormMethod::kAuto
                  ? method
                  : cheaper_norm_method(g_.positions(), g_.columns(), channels_);
    // Direct norms on whole 16-float lanes of output channels: the products read the (padded)
    // input map itself (conv_kernels.h), nothing is unfolded. Ghost norms need U for its Gram
    // matrices, so a ghost layer keeps the unfold + Eigen path.
    implicit_ = method_ == NormMethod::kDirect && implicit_conv_supported(channels_);
    implicit_input_ = implicit_ && implicit_input_gradient_supported(kernel, input.channels);
    if (implicit_) {
      implicit_conv_ = make_implicit_conv(input.height + 2 * padding, input.width + 2 * padding,
                                          input.channels, channels_, kernel, stride);
    } else {
      unfold_ = Unfolder(g_);
    }
  }
  MapShape output_shape() const override { return {g_.out_height, g_.out_width, channels_}; }
  Index num_params() const override { return g_.columns() * channels_ + channels_; }
  NormMethod norm_method() const override { return method_; }
  Index scratch_floats_per_example() const override {
    if (!implicit_) return g_.positions() * g_.columns();
    return std::max(
        {implicit_conv_.map_size, g_.positions() * channels_, g_.columns() * channels_});
  }
  double gemm_flops(bool clipped, bool input_gradient) const override {
    return conv_gemm_flops(g_.positions(), g_.columns(), channels_, method_, clipped,
                           input_gradient);
  }
  std::string describe() const override { return describe_conv("conv", channels_, g_, method_); }
  void prepare_backward(const float* params) override {
    if (implicit_input_) {
      w_transposed_ = ConstMap(params, g_.columns(), channels_).transpose();
      transposed_from_ = params;
    }
  }
  void add_to_graph(ModelGraph& graph, const float* params, int index) const override {
    add_conv_op(graph, GraphOpKind::kConv, *this, g_, params, index,
                {g_.kernel, g_.kernel, input_.channels, channels_}, g_.columns() * channels_);
  }
  void initialize(float* params, Rng& rng) const override {
    fill_uniform(params, num_params(), 1.0 / std::sqrt(static_cast<double>(g_.columns())), rng);
  }
  void reserve(Index m) override {
    const Index rows = m * g_.positions();
    ensure(scaled_, rows, channels_);
    if (implicit_) {
      if (g_.padding > 0 && padded_.rows() < m) padded_ = Matrix::Zero(m, implicit_conv_.map_size);
      if (g_.padding > 0 && implicit_input_) ensure(padded_grad_, m, implicit_conv_.map_size);
      if (!implicit_input_) ensure(unfolded_grad_, rows, g_.columns());
      ensure(products_, m * g_.columns(), channels_);
      return;
    }
    ensure(unfolded_, rows, g_.columns());
    ensure(unfolded_grad_, rows, g_.columns());
    if (method_ == NormMethod::kGhost) {
      ensure(gram_a_, g_.positions(), g_.positions());
      ensure(gram_b_, g_.positions(), g_.positions());
    } else {
      ensure(products_, m * g_.columns(), channels_);
      product_sum_.resize(g_.columns(), channels_);
    }
  }
  void forward(const float* params, const float* in, float* out, Index m) override {
    const Index p = g_.positions(), d = g_.columns();
    if (implicit_) {
      maps_ = in;
      if (g_.padding > 0) {  // the maps inside their zero border (zeroed when reserved)
        const Index c = input_.channels, row = input_.width * c;
        const Index offset = (g_.padding * implicit_conv_.map_width + g_.padding) * c;
        for (Index i = 0; i < m; ++i) {
          float* interior = padded_.row(i).data() + offset;
          for (Index y = 0; y < input_.height; ++y) {
            copy_run(in + i * input_.size() + y * row, row,
                     interior + y * implicit_conv_.map_width * c);
          }
        }
        maps_ = padded_.data();
      }
      implicit_forward(implicit_conv_, maps_, m, params, params + d * channels_, out);
      return;
    }
    for (Index i = 0; i < m; ++i) unfold_(in + i * input_.size(), unfolded_.row(i * p).data());
    const ConstMap w(params, d, channels_);
    const ConstRowMap b(params + d * channels_, channels_);
    MutMap z(out, m * p, channels_);
    multiply(z, unfolded_.topRows(m * p), w, false);
    z.rowwise() += b;
  }
  void backward(const float* params, const float*, const float*, const float* out_grad,
                float* in_grad, Index m) override {
    errors_ = out_grad;
    products_ready_ = false;
    if (in_grad == nullptr) return;
    const Index p = g_.positions(), d = g_.columns();
    if (implicit_input_) {
      // fold(E W^T) added window by window into the (padded) gradient maps, then cropped.
      float* maps = g_.padding > 0 ? padded_grad_.data() : in_grad;
      std::fill(maps, maps + m * implicit_conv_.map_size, 0.f);
      // A missing prepare_backward is a bug in the caller, not a user error: say so loudly.
      if (transposed_from_ != params) throw Error("conv: backward before prepare_backward");
      implicit_input_gradient(implicit_conv_, out_grad, m, w_transposed_.data(), false, maps);
      if (g_.padding > 0) crop(m, in_grad);
      return;
    }
    const ConstMap w(params, d, channels_);
    const ConstMap e(out_grad, m * p, channels_);
    auto du = unfolded_grad_.topRows(m * p);
    multiply(du, e, w.transpose(), false);
    std::fill(in_grad, in_grad + m * input_.size(), 0.f);
    for (Index i = 0; i < m; ++i) fold(g_, du.row(i * p).data(), in_grad + i * input_.size());
  }
  void add_squared_norms(float* squared, Index m) override {
    const Index p = g_.positions();
    if (implicit_) {  // G_i (D x c_out, row-major) into products_, and its squared norm
      const Index size = g_.columns() * channels_;
      for (Index i = 0; i < m; ++i) {
        squared[i] += static_cast<float>(
            implicit_product(implicit_conv_, maps_ + i * implicit_conv_.map_size,
                             errors_ + i * p * channels_, products_.data() + i * size));
      }
      products_ready_ = true;
      add_bias_norms(errors_, channels_, p, m, squared);
      return;
    }
    add_product_norms(unfolded_.data(), g_.columns(), errors_, channels_, p, m, method_, gram_a_,
                      gram_b_, products_, squared);
    products_ready_ = method_ == NormMethod::kDirect;
    add_bias_norms(errors_, channels_, p, m, squared);
  }
  void add_weighted_gradient(const float* weights, float* grad, bool accumulate, Index m) override {
    const Index rows = m * g_.positions(), d = g_.columns();
    MutMap dw(grad, d, channels_);
    RowMap db(grad + d * channels_, channels_);
    if (!accumulate) db.setZero();
    if (products_ready_) {  // direct norms stored every G_i: sum them, no second GEMM
      add_bias_gradient(errors_, channels_, g_.positions(), m, weights, db);  // E not scaled
      const bool column_major = !implicit_ && products_column_major(d, channels_);
      add_stored_products(products_, d, m, weights, accumulate, column_major, dw, product_sum_);
      return;
    }
    const float* e = errors_;
    if (weights != nullptr) {
      scale_blocks(errors_, channels_, g_.positions(), m, weights, scaled_);
      e = scaled_.data();
    }
    const ConstMap em(e, rows, channels_);
    db += em.colwise().sum();
    if (implicit_) return implicit_weight_gradient(implicit_conv_, maps_, e, m, accumulate, grad);
    if (!accumulate) dw.setZero();
    multiply(dw, unfolded_.topRows(rows).transpose(), em, true);
  }

 private:
  // The padded layer's input gradient: the interior of each padded gradient map into in_grad.
  void crop(Index m, float* in_grad) const {
    const Index c = input_.channels, row = input_.width * c;
    const Index offset = (g_.padding * implicit_conv_.map_width + g_.padding) * c;
    for (Index i = 0; i < m; ++i) {
      const float* interior = padded_grad_.row(i).data() + offset;
      for (Index y = 0; y < input_.height; ++y) {
        copy_run(interior + y * implicit_conv_.map_width * c, row,
                 in_grad + i * input_.size() + y * row);
      }
    }
  }

  Index channels_;
  ConvGeometry g_;
  NormMethod method_;
  Unfolder unfold_;
  Matrix unfolded_, unfolded_grad_, scaled_, gram_a_, gram_b_, products_;
  ColMatrix product_sum_;
  const float* errors_ = nullptr;
  bool products_ready_ = false;  // products_ hold this block's G_i (direct norms computed)
  // Implicit im2col (conv_kernels.h): forward and products read the maps, no unfolded_;
  // implicit_input_: the input gradient too (else unfolded_grad_ + fold).
  bool implicit_ = false, implicit_input_ = false;
  ImplicitConv implicit_conv_;
  Matrix padded_, padded_grad_;  // padding > 0: m maps inside a zero border (padded_'s stays 0)
  Matrix w_transposed_;          // c_out x D, set by prepare_backward
  const float* transposed_from_ = nullptr;  // the parameters w_transposed_ was made from
  const float* maps_ = nullptr;  // the maps of this block's forward (padded_ or the input)
};

// ------------------------------------------------------- transposed convolution
class ConvTransposeLayer final : public Layer {
 public:
  ConvTransposeLayer(MapShape input, Index channels, Index kernel, Index stride, Index padding,
                     NormMethod method)
      : Layer(input), channels_(channels) {
    const std::string name = "conv_transpose";
    require_conv_arguments(name, channels, kernel, stride, padding);
    const MapShape out{(input.height - 1) * stride - 2 * padding + kernel,
                       (input.width - 1) * stride - 2 * padding + kernel, channels};
    require_layer(
        out.height >= 1 && out.width >= 1, name,
        "padding " + std::to_string(padding) + " leaves no output for input " + shape_text(input));
    g_ = geometry(out, kernel, stride, padding);  // the convolution out -> in, transposed
    require_layer(g_.out_height == input.height && g_.out_width == input.width, name,
                  "inconsistent geometry for input " + shape_text(input));
    unfold_ = Unfolder(g_);
    method_ = method != NormMethod::kAuto
                  ? method
                  : cheaper_norm_method(input.positions(), input.channels, g_.columns());
  }
  MapShape output_shape() const override { return g_.big; }
  Index num_params() const override { return input_.channels * g_.columns() + channels_; }
  NormMethod norm_method() const override { return method_; }
  Index scratch_floats_per_example() const override { return input_.positions() * g_.columns(); }
  double gemm_flops(bool clipped, bool input_gradient) const override {
    return conv_gemm_flops(input_.positions(), input_.channels, g_.columns(), method_, clipped,
                           input_gradient);
  }
  std::string describe() const override {
    return describe_conv("conv_transpose", channels_, g_, method_);
  }
  void add_to_graph(ModelGraph& graph, const float* params, int index) const override {
    add_conv_op(graph, GraphOpKind::kConvTranspose, *this, g_, params, index,
                {input_.channels, g_.kernel, g_.kernel, channels_}, input_.channels * g_.columns());
  }
  void initialize(float* params, Rng& rng) const override {
    // PyTorch's ConvTranspose2d fan_in is computed from weight dim 1 (= c_out) x k x k.
    fill_uniform(params, num_params(), 1.0 / std::sqrt(static_cast<double>(g_.columns())), rng);
  }
  void reserve(Index m) override {
    const Index rows = m * input_.positions();
    ensure(cols_, rows, g_.columns());
    ensure(scaled_, rows, input_.channels);
    if (method_ == NormMethod::kGhost) {
      ensure(gram_a_, input_.positions(), input_.positions());
      ensure(gram_b_, input_.positions(), input_.positions());
    } else {
      ensure(products_, m * input_.channels, g_.columns());
      product_sum_.resize(input_.channels, g_.columns());
    }
  }
  void forward(const float* params, const float* in, float* out, Index m) override {
    const Index p = input_.positions(), c_in = input_.channels, d = g_.columns();
    const ConstMap w(params, c_in, d);
    const ConstRowMap b(params + c_in * d, channels_);
    auto cols = cols_.topRows(m * p);
    multiply(cols, ConstMap(in, m * p, c_in), w, false);
    const Index out_size = g_.big.size();
    std::fill(out, out + m * out_size, 0.f);
    for (Index i = 0; i < m; ++i) fold(g_, cols.row(i * p).data(), out + i * out_size);
    MutMap(out, m * g_.big.positions(), channels_).rowwise() += b;
  }
  void backward(const float* params, const float* in, const float*, const float* out_grad,
                float* in_grad, Index m) override {
    inputs_ = in;
    errors_ = out_grad;
    products_ready_ = false;
    const Index p = input_.positions(), c_in = input_.channels, d = g_.columns();
    for (Index i = 0; i < m; ++i) {
      unfold_(out_grad + i * g_.big.size(), cols_.row(i * p).data());  // F_i
    }
    if (in_grad == nullptr) return;
    const ConstMap w(params, c_in, d);
    MutMap dx(in_grad, m * p, c_in);
    multiply(dx, cols_.topRows(m * p), w.transpose(), false);
  }
  void add_squared_norms(float* squared, Index m) override {
    add_product_norms(inputs_, input_.channels, cols_.data(), g_.columns(), input_.positions(), m,
                      method_, gram_a_, gram_b_, products_, squared);
    products_ready_ = method_ == NormMethod::kDirect;
    add_bias_norms(errors_, channels_, g_.big.positions(), m, squared);
  }
  void add_weighted_gradient(const float* weights, float* grad, bool accumulate, Index m) override {
    const Index p = input_.positions(), c_in = input_.channels, d = g_.columns();
    MutMap dw(grad, c_in, d);
    RowMap db(grad + c_in * d, channels_);
    if (!accumulate) db.setZero();
    add_bias_gradient(errors_, channels_, g_.big.positions(), m, weights, db);
    if (products_ready_) {  // direct norms stored every G_i: sum them, no second GEMM
      add_stored_products(products_, c_in, m, weights, accumulate, products_column_major(c_in, d),
                          dw, product_sum_);
      return;
    }
    if (!accumulate) dw.setZero();
    const float* x = inputs_;
    if (weights != nullptr) {
      scale_blocks(inputs_, c_in, p, m, weights, scaled_);
      x = scaled_.data();
    }
    multiply(dw, ConstMap(x, m * p, c_in).transpose(), cols_.topRows(m * p), true);
  }

 private:
  Index channels_;
  ConvGeometry g_;
  NormMethod method_;
  Unfolder unfold_;
  Matrix cols_, scaled_, gram_a_, gram_b_, products_;
  ColMatrix product_sum_;
  const float* inputs_ = nullptr;
  const float* errors_ = nullptr;
  bool products_ready_ = false;  // products_ hold this block's G_i (direct norms computed)
};

}  // namespace

std::unique_ptr<Layer> make_conv(MapShape input, Index channels, Index kernel, Index stride,
                                 Index padding, NormMethod method) {
  return std::make_unique<ConvLayer>(input, channels, kernel, stride, padding, method);
}
std::unique_ptr<Layer> make_conv_transpose(MapShape input, Index channels, Index kernel,
                                           Index stride, Index padding, NormMethod method) {
  return std::make_unique<ConvTransposeLayer>(input, channels, kernel, stride, padding, method);
}

}  // namespace dplab::models::detail
