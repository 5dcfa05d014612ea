// Layer implementations (see network_layers.h for the layout, the GEMM forms and the norms).
#include "models/network_layers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "core/error.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace dplab::models::detail {
namespace {

using ConstMap = Eigen::Map<const Matrix>;
using MutMap = Eigen::Map<Matrix>;
using RowMap = Eigen::Map<Eigen::RowVectorXf>;
using ConstRowMap = Eigen::Map<const Eigen::RowVectorXf>;

std::string shape_text(MapShape s) {
  return std::to_string(s.height) + "x" + std::to_string(s.width) + "x" +
         std::to_string(s.channels);
}

void require_layer(bool ok, const std::string& layer, const std::string& message) {
  if (!ok) throw InvalidArgument(layer + ": " + message);
}

// Grows a scratch matrix to at least rows x cols (never shrinks: no per-step allocation).
void ensure(Matrix& buffer, Index rows, Index cols) {
  if (buffer.rows() < rows || buffer.cols() != cols) buffer.resize(rows, cols);
}

void fill_uniform(float* values, Index count, double limit, Rng& rng) {
  for (Index i = 0; i < count; ++i) {
    values[i] = static_cast<float>(limit * (2.0 * rng.uniform() - 1.0));
  }
}

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

// Short contiguous runs (a window row of k c floats: 8 for the cnn's first layer, 64 for its
// second) copied, added and zeroed in fixed chunks of 8 floats (one unaligned 256-bit move each
// with AVX) and a scalar tail: a dynamic-size Eigen map or memcpy spends more on its alignment
// peeling and call than on 8 floats.
using Chunk = Eigen::Matrix<float, 8, 1>;
inline void copy_run(const float* src, Index n, float* dst) {
  Index j = 0;
  for (; j + 8 <= n; j += 8) Eigen::Map<Chunk>(dst + j) = Eigen::Map<const Chunk>(src + j);
  for (; j < n; ++j) dst[j] = src[j];
}
inline void add_run(const float* src, Index n, float* dst) {
  Index j = 0;
  for (; j + 8 <= n; j += 8) Eigen::Map<Chunk>(dst + j) += Eigen::Map<const Chunk>(src + j);
  for (; j < n; ++j) dst[j] += src[j];
}
inline void zero_run(Index n, float* dst) {
  Index j = 0;
  for (; j + 8 <= n; j += 8) Eigen::Map<Chunk>(dst + j).setZero();
  for (; j < n; ++j) dst[j] = 0.f;
}

// cols (P x D, row-major) <- unfold(map): row (oy, ox) holds the k x k x c window at
// (oy s - p, ox s - p), zero outside the map; column (ky k + kx) c + ch. Copied as one run of
// k c floats per window row (KernelSpan), not one run per kernel entry: for the cnn's first
// layer (c = 1) that is 8 vectorised copies per position instead of 64 single-float memcpy calls.
void unfold(const ConvGeometry& g, const float* map, float* cols) {
  const Index c = g.big.channels;
  const Index d = g.columns();
  const Index run = g.kernel * c;
  for (Index oy = 0; oy < g.out_height; ++oy) {
    for (Index ox = 0; ox < g.out_width; ++ox) {
      float* row = cols + (oy * g.out_width + ox) * d;
      const KernelSpan span = valid_columns(g, ox);
      const Index x_first = ox * g.stride - g.padding + span.lo;
      const Index inside = (span.hi - span.lo) * c;
      for (Index ky = 0; ky < g.kernel; ++ky) {
        const Index iy = oy * g.stride - g.padding + ky;
        float* dst = row + ky * run;
        if (iy < 0 || iy >= g.big.height || inside == 0) {
          zero_run(run, dst);
          continue;
        }
        zero_run(span.lo * c, dst);
        copy_run(map + (iy * g.big.width + x_first) * c, inside, dst + span.lo * c);
        zero_run((g.kernel - span.hi) * c, dst + span.hi * c);
      }
    }
  }
}

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

// out (R x N) = or += lhs (R x K) rhs (K x N), as GEMMs on chunks small enough that Eigen packs
// them on the stack. Eigen's GEMM packs a kc x mc block of one operand and a kc x nc block of the
// other (kc <= K, mc and nc <= R or N) and takes them from the heap when one exceeds
// EIGEN_STACK_ALLOCATION_LIMIT (128 KiB): the cnn's forward GEMM over a block (3,136 x 64 x 16)
// packed 800 KiB per call, i.e. a malloc per layer per block. Chunks of at most kGemmRows rows
// and kc x max(rows, N) <= kGemmPackFloats (96 KiB) keep every pack under the limit (for
// N <= kGemmPackFloats), so the step allocates nothing (test_conv_step_allocations); the row
// chunks also keep each GEMM's operands in L2.
constexpr Index kGemmRows = 256;
constexpr Index kGemmPackFloats = 24 * 1024;
template <typename Out, typename Lhs, typename Rhs>
void multiply(Out&& out, const Lhs& lhs, const Rhs& rhs, bool accumulate) {
  const Index rows = lhs.rows(), depth = lhs.cols(), cols = rhs.cols();
  for (Index r0 = 0; r0 < rows; r0 += kGemmRows) {
    const Index r = std::min(kGemmRows, rows - r0);
    const Index kc = std::max<Index>(1, kGemmPackFloats / std::max(r, cols));
    for (Index k0 = 0; k0 < depth; k0 += kc) {
      const Index k = std::min(kc, depth - k0);
      auto target = out.middleRows(r0, r);
      const auto product = lhs.block(r0, k0, r, k) * rhs.middleRows(k0, k);
      if (accumulate || k0 > 0) {
        target.noalias() += product;
      } else {
        target.noalias() = product;
      }
    }
  }
}

// Per-example squared Frobenius norm of A_i^T B_i (A: mP x a, B: mP x b, example i = rows
// [iP, iP + P)), ghost or direct, added to squared[i]; gram_a/gram_b are scratch. The direct
// method keeps each example's G_i = A_i^T B_i in rows [i a, (i + 1) a) of `products` (m a x b):
// it has paid for them, and add_stored_products then forms sum_i w_i G_i in m a b additions
// instead of the weighted GEMM's P m a b multiply-adds (the waste issue #15 found: with every
// layer direct, as in the conv-autoencoder, the DP step did the weight-gradient product twice).
void add_product_norms(const float* a, Index a_cols, const float* b, Index b_cols, Index positions,
                       Index m, NormMethod method, Matrix& gram_a, Matrix& gram_b, Matrix& products,
                       float* squared) {
  for (Index i = 0; i < m; ++i) {
    const ConstMap ai(a + i * positions * a_cols, positions, a_cols);
    const ConstMap bi(b + i * positions * b_cols, positions, b_cols);
    double norm2 = 0;
    if (method == NormMethod::kGhost) {
      auto ga = gram_a.topLeftCorner(positions, positions);
      auto gb = gram_b.topLeftCorner(positions, positions);
      multiply(ga, ai, ai.transpose(), false);
      multiply(gb, bi, bi.transpose(), false);
      norm2 = static_cast<double>(ga.cwiseProduct(gb).sum());
    } else {
      auto g = products.middleRows(i * a_cols, a_cols);
      multiply(g, ai.transpose(), bi, false);
      norm2 = static_cast<double>(g.squaredNorm());
    }
    squared[i] += static_cast<float>(norm2);
  }
}

// dw (a x b) = or += sum_i w_i G_i from the per-example products stored by add_product_norms
// (weights null: w = 1).
void add_stored_products(const Matrix& products, Index a_cols, Index m, const float* weights,
                         bool accumulate, MutMap& dw) {
  if (!accumulate) dw.setZero();
  for (Index i = 0; i < m; ++i) {
    const float wi = weights == nullptr ? 1.f : weights[i];
    dw += wi * products.middleRows(i * a_cols, a_cols);
  }
}

// dst (mP x cols) = rows of src with block i (P rows) scaled by weights[i].
void scale_blocks(const float* src, Index cols, Index positions, Index m, const float* weights,
                  Matrix& dst) {
  for (Index i = 0; i < m; ++i) {
    const ConstMap block(src + i * positions * cols, positions, cols);
    dst.middleRows(i * positions, positions) = weights[i] * block;
  }
}

// gemm_flops of a conv-type layer whose three products (forward, input gradient, weight
// gradient A_i^T B_i with A_i: P x a, B_i: P x b) each cost 2 P a b per example.
double conv_gemm_flops(Index positions, Index a, Index b, NormMethod method, bool clipped,
                       bool input_gradient) {
  const double p = static_cast<double>(positions), pab = 2.0 * p * static_cast<double>(a * b);
  double flops = pab + (input_gradient ? pab : 0.0);
  if (!clipped) return flops + pab;    // U^T E over the block
  if (method == NormMethod::kGhost) {  // A_i A_i^T, B_i B_i^T, then A^T diag(c) B
    return flops + 2.0 * p * p * static_cast<double>(a + b) + pab;
  }
  return flops + pab + 2.0 * static_cast<double>(a * b);  // G_i, then sum_i c_i G_i
}

// ---------------------------------------------------------------- convolution
class ConvLayer final : public Layer {
 public:
  ConvLayer(MapShape input, Index channels, Index kernel, Index stride, Index padding,
            NormMethod method)
      : Layer(input), channels_(channels) {
    const std::string name = "conv";
    require_layer(channels >= 1 && kernel >= 1 && stride >= 1 && padding >= 0, name,
                  "channels, kernel, stride must be >= 1 and padding >= 0");
    require_layer(input.height + 2 * padding >= kernel && input.width + 2 * padding >= kernel, name,
                  "kernel " + std::to_string(kernel) + " is larger than the padded input " +
                      shape_text(input));
    g_ = geometry(input, kernel, stride, padding);
    method_ = method != NormMethod::kAuto
                  ? method
                  : cheaper_norm_method(g_.positions(), g_.columns(), channels_);
  }
  MapShape output_shape() const override { return {g_.out_height, g_.out_width, channels_}; }
  Index num_params() const override { return g_.columns() * channels_ + channels_; }
  NormMethod norm_method() const override { return method_; }
  Index scratch_floats_per_example() const override { return g_.positions() * g_.columns(); }
  double gemm_flops(bool clipped, bool input_gradient) const override {
    return conv_gemm_flops(g_.positions(), g_.columns(), channels_, method_, clipped,
                           input_gradient);
  }
  std::string describe() const override {
    return "conv " + std::to_string(channels_) + "x" + std::to_string(g_.kernel) + "x" +
           std::to_string(g_.kernel) + "/" + std::to_string(g_.stride) +
           (g_.padding ? " pad " + std::to_string(g_.padding) : "") +
           (method_ == NormMethod::kGhost ? " (ghost)" : " (direct)");
  }
  void initialize(float* params, Rng& rng) const override {
    fill_uniform(params, num_params(), 1.0 / std::sqrt(static_cast<double>(g_.columns())), rng);
  }
  void reserve(Index m) override {
    const Index rows = m * g_.positions();
    ensure(unfolded_, rows, g_.columns());
    ensure(unfolded_grad_, rows, g_.columns());
    ensure(scaled_, rows, channels_);
    if (method_ == NormMethod::kGhost) {
      ensure(gram_a_, g_.positions(), g_.positions());
      ensure(gram_b_, g_.positions(), g_.positions());
    } else {
      ensure(products_, m * g_.columns(), channels_);
    }
  }
  void forward(const float* params, const float* in, float* out, Index m) override {
    const Index p = g_.positions(), d = g_.columns();
    for (Index i = 0; i < m; ++i) unfold(g_, in + i * input_.size(), unfolded_.row(i * p).data());
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
    const ConstMap w(params, d, channels_);
    const ConstMap e(out_grad, m * p, channels_);
    auto du = unfolded_grad_.topRows(m * p);
    multiply(du, e, w.transpose(), false);
    std::fill(in_grad, in_grad + m * input_.size(), 0.f);
    for (Index i = 0; i < m; ++i) fold(g_, du.row(i * p).data(), in_grad + i * input_.size());
  }
  void add_squared_norms(float* squared, Index m) override {
    const Index p = g_.positions();
    add_product_norms(unfolded_.data(), g_.columns(), errors_, channels_, p, m, method_, gram_a_,
                      gram_b_, products_, squared);
    products_ready_ = method_ == NormMethod::kDirect;
    for (Index i = 0; i < m; ++i) {  // bias: ||E_i^T 1||^2
      squared[i] +=
          ConstMap(errors_ + i * p * channels_, p, channels_).colwise().sum().squaredNorm();
    }
  }
  void add_weighted_gradient(const float* weights, float* grad, bool accumulate, Index m) override {
    const Index rows = m * g_.positions(), d = g_.columns();
    MutMap dw(grad, d, channels_);
    RowMap db(grad + d * channels_, channels_);
    const float* e = errors_;
    if (weights != nullptr) {
      scale_blocks(errors_, channels_, g_.positions(), m, weights, scaled_);
      e = scaled_.data();
    }
    const ConstMap em(e, rows, channels_);
    if (!accumulate) db.setZero();
    db += em.colwise().sum();
    if (products_ready_) {  // direct norms stored every G_i: sum them, no second GEMM
      add_stored_products(products_, d, m, weights, accumulate, dw);
      return;
    }
    if (!accumulate) dw.setZero();
    multiply(dw, unfolded_.topRows(rows).transpose(), em, true);
  }

 private:
  Index channels_;
  ConvGeometry g_;
  NormMethod method_;
  Matrix unfolded_, unfolded_grad_, scaled_, gram_a_, gram_b_, products_;
  const float* errors_ = nullptr;
  bool products_ready_ = false;  // products_ hold this block's G_i (direct norms computed)
};

// ------------------------------------------------------- transposed convolution
class ConvTransposeLayer final : public Layer {
 public:
  ConvTransposeLayer(MapShape input, Index channels, Index kernel, Index stride, Index padding,
                     NormMethod method)
      : Layer(input), channels_(channels) {
    const std::string name = "conv_transpose";
    require_layer(channels >= 1 && kernel >= 1 && stride >= 1 && padding >= 0, name,
                  "channels, kernel, stride must be >= 1 and padding >= 0");
    const MapShape out{(input.height - 1) * stride - 2 * padding + kernel,
                       (input.width - 1) * stride - 2 * padding + kernel, channels};
    require_layer(
        out.height >= 1 && out.width >= 1, name,
        "padding " + std::to_string(padding) + " leaves no output for input " + shape_text(input));
    g_ = geometry(out, kernel, stride, padding);  // the convolution out -> in, transposed
    require_layer(g_.out_height == input.height && g_.out_width == input.width, name,
                  "inconsistent geometry for input " + shape_text(input));
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
    return "conv_transpose " + std::to_string(channels_) + "x" + std::to_string(g_.kernel) + "x" +
           std::to_string(g_.kernel) + "/" + std::to_string(g_.stride) +
           (g_.padding ? " pad " + std::to_string(g_.padding) : "") +
           (method_ == NormMethod::kGhost ? " (ghost)" : " (direct)");
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
      unfold(g_, out_grad + i * g_.big.size(), cols_.row(i * p).data());  // F_i
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
    const Index q = g_.big.positions();
    for (Index i = 0; i < m; ++i) {  // bias: sum of E_i over the output positions
      squared[i] +=
          ConstMap(errors_ + i * q * channels_, q, channels_).colwise().sum().squaredNorm();
    }
  }
  void add_weighted_gradient(const float* weights, float* grad, bool accumulate, Index m) override {
    const Index p = input_.positions(), c_in = input_.channels, d = g_.columns();
    const Index q = g_.big.positions();
    MutMap dw(grad, c_in, d);
    RowMap db(grad + c_in * d, channels_);
    if (!accumulate) db.setZero();
    for (Index i = 0; i < m; ++i) {
      const float wi = weights == nullptr ? 1.f : weights[i];
      db += wi * ConstMap(errors_ + i * q * channels_, q, channels_).colwise().sum();
    }
    if (products_ready_) {  // direct norms stored every G_i: sum them, no second GEMM
      add_stored_products(products_, c_in, m, weights, accumulate, dw);
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
  Matrix cols_, scaled_, gram_a_, gram_b_, products_;
  const float* inputs_ = nullptr;
  const float* errors_ = nullptr;
  bool products_ready_ = false;  // products_ hold this block's G_i (direct norms computed)
};

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
  }
  MapShape output_shape() const override { return out_; }
  std::string describe() const override {
    return std::string(max_ ? "max_pool " : "avg_pool ") + std::to_string(kernel_) + "/" +
           std::to_string(stride_);
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
          if (max_) {
            window_max(map, first, c, best, best_at);
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
  // The maximum and its offset over the window whose first element is at `first`, for c
  // channels, in chunks of kLanes channels held in local arrays (registers): the compare and
  // select vectorise without storing the running maximum back to memory at every element.
  void window_max(const float* map, Index first, Index c, float* best,
                  std::int32_t* best_at) const {
    constexpr Index kLanes = 16;
    for (Index c0 = 0; c0 < c; c0 += kLanes) {
      const Index lanes = std::min(kLanes, c - c0);
      if (lanes == kLanes) {
        window_max_lanes<kLanes>(map, first + c0, best + c0, best_at + c0);
        continue;
      }
      for (Index ch = c0; ch < c; ++ch) {
        float b = map[first + ch];
        std::int32_t a = static_cast<std::int32_t>(first + ch);
        for (Index ky = 0; ky < kernel_; ++ky) {
          for (Index kx = 0; kx < kernel_; ++kx) {
            const Index at = first + (ky * input_.width + kx) * input_.channels + ch;
            if (map[at] > b) {
              b = map[at];
              a = static_cast<std::int32_t>(at);
            }
          }
        }
        best[ch] = b;
        best_at[ch] = a;
      }
    }
  }
  // 16 channels at once: with AVX-512 one compare into a mask and two masked moves per window
  // element, the running maximum and its offset kept in registers; else the scalar loop.
  template <Index kLanes>
  void window_max_lanes(const float* map, Index first, float* b, std::int32_t* a) const {
#if defined(__AVX512F__)
    static_assert(kLanes == 16);
    __m512 best = _mm512_loadu_ps(map + first);
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m512i best_at = _mm512_add_epi32(_mm512_set1_epi32(static_cast<std::int32_t>(first)), lane);
    for (Index ky = 0; ky < kernel_; ++ky) {
      for (Index kx = ky == 0 ? 1 : 0; kx < kernel_; ++kx) {
        const Index at = first + (ky * input_.width + kx) * input_.channels;
        const __m512 v = _mm512_loadu_ps(map + at);
        const __mmask16 greater = _mm512_cmp_ps_mask(v, best, _CMP_GT_OQ);
        best = _mm512_mask_mov_ps(best, greater, v);
        best_at = _mm512_mask_mov_epi32(
            best_at, greater,
            _mm512_add_epi32(_mm512_set1_epi32(static_cast<std::int32_t>(at)), lane));
      }
    }
    _mm512_storeu_ps(b, best);
    _mm512_storeu_si512(a, best_at);
#else
    for (Index ch = 0; ch < kLanes; ++ch) {
      b[ch] = map[first + ch];
      a[ch] = static_cast<std::int32_t>(first + ch);
    }
    for (Index ky = 0; ky < kernel_; ++ky) {
      for (Index kx = ky == 0 ? 1 : 0; kx < kernel_; ++kx) {
        const Index at = first + (ky * input_.width + kx) * input_.channels;
        for (Index ch = 0; ch < kLanes; ++ch) {
          if (map[at + ch] > b[ch]) {
            b[ch] = map[at + ch];
            a[ch] = static_cast<std::int32_t>(at + ch);
          }
        }
      }
    }
#endif
  }
  void backward(const float*, const float*, const float*, const float* out_grad, float* in_grad,
                Index m) override {
    if (in_grad == nullptr) return;
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
            if (max_) {
              map[argmax_[static_cast<std::size_t>(o + ch)]] += g;
              continue;
            }
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
  bool max_;
  Index kernel_, stride_;
  MapShape out_;
  // Per output value: the input offset (within its example) of the maximum. 32 bits, as wide
  // as a float lane, so the forward pass's compare-and-select vectorises (the constructor
  // requires an example's map to have fewer than 2^31 values).
  std::vector<std::int32_t> argmax_;
};

// ---------------------------------------------------------------- activations
class ActivationLayer final : public Layer {
 public:
  ActivationLayer(MapShape input, Activation kind) : Layer(input), kind_(kind) {}
  MapShape output_shape() const override { return input_; }
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
  }
  MapShape output_shape() const override { return {1, 1, units_}; }
  Index num_params() const override { return input_.size() * units_ + units_; }
  std::string describe() const override { return "dense " + std::to_string(units_); }
  double gemm_flops(bool /*clipped*/, bool input_gradient) const override {
    // Forward, input gradient, weight gradient X^T diag(c) E; the rank-1 norms are O(d + u).
    const double product = 2.0 * static_cast<double>(input_.size() * units_);
    return (input_gradient ? 3.0 : 2.0) * product;
  }
  void initialize(float* params, Rng& rng) const override {
    fill_uniform(params, num_params(), 1.0 / std::sqrt(static_cast<double>(input_.size())), rng);
  }
  void reserve(Index m) override { ensure(scaled_, m, units_); }
  void forward(const float* params, const float* in, float* out, Index m) override {
    const Index d = input_.size();
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
    multiply(dw, ConstMap(inputs_, m, d).transpose(), em, true);
    db += em.colwise().sum();
  }

 private:
  Index units_;
  Matrix scaled_;
  const float* inputs_ = nullptr;
  const float* errors_ = nullptr;
};

}  // namespace

NormMethod cheaper_norm_method(Index positions, Index a, Index b) {
  // Whole cost of a layer's norms AND its clipped sum, per example (multiply-adds):
  //   ghost:  P^2 (a + b) for the two Gram matrices, then P a b in the weighted GEMM;
  //   direct: P a b for G_i, then a b to add c_i G_i (add_stored_products).
  // Ghost is cheaper iff P^2 (a + b) < a b: only for few positions and wide operands. (Counting
  // the norms alone, as before, picked ghost for the cnn's conv2 and paid a second P a b GEMM
  // for the sum: measured ~15% of the cnn's DP step, issue #30.)
  const double ghost =
      static_cast<double>(positions) * static_cast<double>(positions) * static_cast<double>(a + b);
  const double direct = static_cast<double>(a) * static_cast<double>(b);
  return ghost < direct ? NormMethod::kGhost : NormMethod::kDirect;
}

std::unique_ptr<Layer> make_conv(MapShape input, Index channels, Index kernel, Index stride,
                                 Index padding, NormMethod method) {
  return std::make_unique<ConvLayer>(input, channels, kernel, stride, padding, method);
}
std::unique_ptr<Layer> make_conv_transpose(MapShape input, Index channels, Index kernel,
                                           Index stride, Index padding, NormMethod method) {
  return std::make_unique<ConvTransposeLayer>(input, channels, kernel, stride, padding, method);
}
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
