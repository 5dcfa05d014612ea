// Layer implementations (see network_layers.h for the layout, the GEMM forms and the norms).
#include "models/network_layers.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/error.h"

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

// cols (P x D, row-major) <- unfold(map): row (oy, ox) holds the k x k x c window at
// (oy s - p, ox s - p), zero outside the map; column (ky k + kx) c + ch.
void unfold(const ConvGeometry& g, const float* map, float* cols) {
  const Index c = g.big.channels;
  const Index d = g.columns();
  for (Index oy = 0; oy < g.out_height; ++oy) {
    for (Index ox = 0; ox < g.out_width; ++ox) {
      float* row = cols + (oy * g.out_width + ox) * d;
      for (Index ky = 0; ky < g.kernel; ++ky) {
        const Index iy = oy * g.stride - g.padding + ky;
        for (Index kx = 0; kx < g.kernel; ++kx) {
          const Index ix = ox * g.stride - g.padding + kx;
          float* dst = row + (ky * g.kernel + kx) * c;
          if (iy < 0 || iy >= g.big.height || ix < 0 || ix >= g.big.width) {
            std::fill(dst, dst + c, 0.f);
          } else {
            std::memcpy(dst, map + (iy * g.big.width + ix) * c, sizeof(float) * c);
          }
        }
      }
    }
  }
}

// map += fold(cols): the adjoint of unfold (each column entry added back to its map position).
void fold(const ConvGeometry& g, const float* cols, float* map) {
  const Index c = g.big.channels;
  const Index d = g.columns();
  for (Index oy = 0; oy < g.out_height; ++oy) {
    for (Index ox = 0; ox < g.out_width; ++ox) {
      const float* row = cols + (oy * g.out_width + ox) * d;
      for (Index ky = 0; ky < g.kernel; ++ky) {
        const Index iy = oy * g.stride - g.padding + ky;
        if (iy < 0 || iy >= g.big.height) continue;
        for (Index kx = 0; kx < g.kernel; ++kx) {
          const Index ix = ox * g.stride - g.padding + kx;
          if (ix < 0 || ix >= g.big.width) continue;
          const float* src = row + (ky * g.kernel + kx) * c;
          float* dst = map + (iy * g.big.width + ix) * c;
          for (Index ch = 0; ch < c; ++ch) dst[ch] += src[ch];
        }
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
      ga.noalias() = ai * ai.transpose();
      gb.noalias() = bi * bi.transpose();
      norm2 = static_cast<double>(ga.cwiseProduct(gb).sum());
    } else {
      auto g = products.middleRows(i * a_cols, a_cols);
      g.noalias() = ai.transpose() * bi;
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
    z.noalias() = unfolded_.topRows(m * p) * w;
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
    du.noalias() = e * w.transpose();
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
    dw.noalias() += unfolded_.topRows(rows).transpose() * em;
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
    cols.noalias() = ConstMap(in, m * p, c_in) * w;
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
    MutMap(in_grad, m * p, c_in).noalias() = cols_.topRows(m * p) * w.transpose();
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
    dw.noalias() += ConstMap(x, m * p, c_in).transpose() * cols_.topRows(m * p);
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
    out_ = {(input.height - kernel) / stride + 1, (input.width - kernel) / stride + 1,
            input.channels};
  }
  MapShape output_shape() const override { return out_; }
  std::string describe() const override {
    return std::string(max_ ? "max_pool " : "avg_pool ") + std::to_string(kernel_) + "/" +
           std::to_string(stride_);
  }
  void reserve(Index m) override {
    if (max_ && static_cast<Index>(argmax_.size()) < m * out_.size()) {
      argmax_.resize(static_cast<std::size_t>(m * out_.size()));
    }
  }
  void forward(const float*, const float* in, float* out, Index m) override {
    const Index c = input_.channels;
    const float inverse_area = 1.f / static_cast<float>(kernel_ * kernel_);
    for (Index i = 0; i < m; ++i) {
      const float* map = in + i * input_.size();
      for (Index oy = 0; oy < out_.height; ++oy) {
        for (Index ox = 0; ox < out_.width; ++ox) {
          const Index o = i * out_.size() + (oy * out_.width + ox) * c;
          for (Index ch = 0; ch < c; ++ch) {
            float best = -std::numeric_limits<float>::infinity(), sum = 0.f;
            Index best_at = 0;
            for (Index ky = 0; ky < kernel_; ++ky) {
              for (Index kx = 0; kx < kernel_; ++kx) {
                const Index at = ((oy * stride_ + ky) * input_.width + ox * stride_ + kx) * c + ch;
                const float v = map[at];
                sum += v;
                if (v > best) {
                  best = v;
                  best_at = at;
                }
              }
            }
            if (max_) {
              out[o + ch] = best;
              argmax_[static_cast<std::size_t>(o + ch)] = best_at;
            } else {
              out[o + ch] = sum * inverse_area;
            }
          }
        }
      }
    }
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
  std::vector<Index> argmax_;  // per output value: the input offset (within its example)
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
  void initialize(float* params, Rng& rng) const override {
    fill_uniform(params, num_params(), 1.0 / std::sqrt(static_cast<double>(input_.size())), rng);
  }
  void reserve(Index m) override { ensure(scaled_, m, units_); }
  void forward(const float* params, const float* in, float* out, Index m) override {
    const Index d = input_.size();
    MutMap z(out, m, units_);
    z.noalias() = ConstMap(in, m, d) * ConstMap(params, d, units_);
    z.rowwise() += ConstRowMap(params + d * units_, units_);
  }
  void backward(const float* params, const float* in, const float*, const float* out_grad,
                float* in_grad, Index m) override {
    inputs_ = in;
    errors_ = out_grad;
    if (in_grad == nullptr) return;
    const Index d = input_.size();
    MutMap(in_grad, m, d).noalias() =
        ConstMap(out_grad, m, units_) * ConstMap(params, d, units_).transpose();
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
    dw.noalias() += ConstMap(inputs_, m, d).transpose() * em;
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
  // ghost ~ P^2 (a + b) multiply-adds for the two Gram matrices; direct ~ P a b for A^T B.
  const double ghost =
      static_cast<double>(positions) * static_cast<double>(positions) * static_cast<double>(a + b);
  const double direct =
      static_cast<double>(positions) * static_cast<double>(a) * static_cast<double>(b);
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
