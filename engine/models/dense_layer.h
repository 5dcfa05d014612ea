// Dense-layer kernels for clipped per-example gradients without materialising them
// (docs/architecture.md "Numerics").
//
// A dense layer z_i = W^T a_i + b (W: d_in x d_out) with back-propagated error e_i = dloss/dz_i
// has the per-example gradient g_i = (a_i e_i^T, e_i): a rank-1 matrix plus the bias part, so
//     ||g_i||^2 = ||a_i||^2 ||e_i||^2 + ||e_i||^2 = (||a_i||^2 + 1) ||e_i||^2.
// For a network the per-example squared norm is the sum of this over the layers. With clip
// factors c_i (clipping.h: min(1, C / ||g_i||), or C / (||g_i|| + gamma) under automatic
// clipping) the clipped sum is one GEMM per layer:
//     sum_i c_i a_i e_i^T = A^T diag(c) E,        sum_i c_i e_i = E^T c.
// diag(c) is applied to whichever of A and E has fewer columns (fewer multiplications).
//
// Internal to engine/models. Thread-safety: pure functions on caller-owned buffers.
#pragma once

#include <cmath>

#include "core/types.h"
#include "models/clipping.h"

namespace dplab::models::detail {

// Column-major scratch for a layer's m x h activations and errors: with AVX-512, Eigen 3.4's
// GEMM X W into a *row-major* m x h destination ran 6x slower (22 vs 140 GFLOP/s) at the TLNN's
// Fashion-MNIST shape (250 x 784 x 100) on the 2-core development machine; column-major is fast.
using ColMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;

// Rows of capacity for `rows`: rounded up to a multiple of 256 so that Poisson lots of varying
// size stop reallocating after a few steps.
Index rounded_capacity(Index rows);

// Ensures buffer has `cols` columns and at least `rows` rows (capacity: rounded_capacity).
template <class Buffer>
void ensure_rows(Buffer& buffer, Index rows, Index cols) {
  if (buffer.rows() < rows || buffer.cols() != cols) buffer.resize(rounded_capacity(rows), cols);
}
void ensure_size(Vector& buffer, Index size);

// Heads of at most this many outputs take small_head_forward (a softmax over 10 classes).
inline constexpr Index kSmallHeadOutputs = 16;

// z_i = b + a_i W for row-major rows a_i (row i at a + i * lda, d inputs) and a head of
// k <= kSmallHeadOutputs outputs (W: d x k row-major at params, then b), into row-major z (m x k,
// contiguous). Eigen's GEMM into a row-major m x k destination copied ("packed") every block of
// A before its product and ran at a fraction of its column-major speed (logistic regression's
// evaluation of 12,000 validation rows cost 0.6 of a DP step per row: docs/performance.md);
// here each row of A is read once, eight rows at a time, against W widened to 16 columns (zeros
// beyond k, in a per-thread scratch of 16 d floats) so that one input's weights are one
// 16-float vector: per input, one load of W and eight broadcast multiply-adds. Each z_io is
// b_o + sum_j a_ij W_jo added in the order j = 0, 1, ..., d-1.
void small_head_forward(const float* a, Index lda, Index m, Index d, const float* params, Index k,
                        float* z);

// Forward pass of a dense layer: the top a.rows() rows of out = A W + b, where the layer's
// parameters are W (a.cols() x d_out, row-major) at params followed by b (d_out). Returns the
// rows written (a view of out).
template <class A, class Buffer>
auto dense_forward(const Eigen::MatrixBase<A>& a, const float* params, Index d_out, Buffer& out) {
  if constexpr (static_cast<bool>(A::IsRowMajor) && static_cast<bool>(Buffer::IsRowMajor) &&
                requires { a.derived().data(); }) {
    if (d_out <= kSmallHeadOutputs && a.rows() > 0 && out.cols() == d_out) {
      small_head_forward(a.derived().data(), a.derived().outerStride(), a.rows(), a.cols(), params,
                         d_out, out.data());
      return out.topRows(a.rows());
    }
  }
  const Eigen::Map<const Matrix> weights(params, a.cols(), d_out);
  const Eigen::Map<const Eigen::RowVectorXf> bias(params + a.cols() * d_out, d_out);
  auto z = out.topRows(a.rows());
  // b in every row, then the GEMM (GEMV for d_out = 1) adds A W onto it: no zero-fill pass
  // before the product and no bias pass after it.
  z = bias.replicate(a.rows(), 1);
  z.noalias() += a * weights;
  return z;
}

// From per-example squared gradient norms: writes ||g_i|| into norms_out (if not null) and the
// clip factors c_i = clip.factor(||g_i||) into factors (clipping.h; flat: c_i = 1 when
// ||g_i|| <= C or clip = kNoClipping; 0 for a diverged, non-finite norm). Returns true when some
// c_i != 1 (otherwise the sum needs no scaling).
bool clip_factors(const float* squared_norms, Index m, const Clipping& clip, float* norms_out,
                  float* factors);

// out[i] = ||a_i||^2 for the rows of a (either storage order).
template <class A>
void row_squared_norms(const Eigen::MatrixBase<A>& a, float* out) {
  Eigen::Map<Vector>(out, a.rows()).noalias() = a.rowwise().squaredNorm();
}

// out[i] = ||a_i||^2 for a column-major block a (m x h, column j at a + j * column_stride),
// summed column by column: each pass is a contiguous, vectorised sweep down one column, where a
// row-wise reduction strides across the columns one float at a time (the TLNN's per-example norm
// spent 135 us per step of L = 250, h = 100 in that). Per row the terms are added in the order
// j = 0, 1, ..., h-1 with one rounding for each square and each addition, as Eigen's row-wise
// sum adds them, so the floats are the same (test_models_api). `square` holds m floats.
void row_squared_norms_by_columns(const float* a, Index column_stride, Index m, Index h,
                                  float* square, float* out);

// Per-example squared gradient norms of a two-layer network, the rank-1 identity summed over
// the layers (two_layer_network.h): on entry squared[i] = ||x_i||^2, on exit
//     squared[i] = (||x_i||^2 + 1) ||e1_i||^2 + (||a1_i||^2 + 1) ||e2_i||^2
// for column-major e1, a1 (m x h) and row-major e2 (m x k); e1_norms, a1_norms and square are m
// floats of scratch each. The floats are those of the Eigen expression the network used before
// (test_models_api): there GCC fused the first product with the sum into one FMA when the CPU
// has FMA (-ffp-contract=fast is GCC's default), so the sum is written with std::fma then.
template <class E1, class A1, class E2>
void two_layer_squared_norms(const Eigen::MatrixBase<E1>& e1, const Eigen::MatrixBase<A1>& a1,
                             const Eigen::MatrixBase<E2>& e2, float* e1_norms, float* a1_norms,
                             float* square, float* squared) {
  const Index m = e1.rows();
  static_assert(!(E1::Flags & Eigen::RowMajorBit) && !(A1::Flags & Eigen::RowMajorBit),
                "e1 and a1 are column-major blocks");
  row_squared_norms_by_columns(e1.derived().data(), e1.derived().outerStride(), m, e1.cols(),
                               square, e1_norms);
  row_squared_norms_by_columns(a1.derived().data(), a1.derived().outerStride(), m, a1.cols(),
                               square, a1_norms);
  float* e2_norms = square;  // free again
  row_squared_norms(e2, e2_norms);
  for (Index i = 0; i < m; ++i) {
#if defined(__FP_FAST_FMAF)
    squared[i] = std::fma(squared[i] + 1.f, e1_norms[i], (a1_norms[i] + 1.f) * e2_norms[i]);
#else
    squared[i] = (squared[i] + 1.f) * e1_norms[i] + (a1_norms[i] + 1.f) * e2_norms[i];
#endif
  }
}

// e <- diag(c) e (row i of e times factors[i]), in place; e is a view (block) of a buffer.
template <class E>
void scale_rows(const Eigen::MatrixBase<E>& e_view, const float* factors) {
  E& e = const_cast<Eigen::MatrixBase<E>&>(e_view).derived();        // Eigen's idiom for views
  e = Eigen::Map<const Vector>(factors, e.rows()).asDiagonal() * e;  // coefficient-wise: safe
}

// grad_w (d_in x d_out, row-major at grad_w) = or += A^T diag(c) E, grad_b (d_out) = or += E^T c;
// factors == nullptr means c = 1. diag(c) is applied to the narrower operand: the rows of e in
// place (e is a view of a scratch buffer), or a copy of A in scaled_a.
template <class A, class E>
void add_dense_gradient(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<E>& e,
                        const float* factors, Matrix& scaled_a, float* grad_w, float* grad_b,
                        bool accumulate) {
  const Index m = a.rows();
  Eigen::Map<Matrix> weight(grad_w, a.cols(), e.cols());
  Eigen::Map<Eigen::RowVectorXf> bias(grad_b, e.cols());
  if (factors == nullptr || e.cols() <= a.cols()) {
    if (factors != nullptr) scale_rows(e, factors);  // E <- diag(c) E
    if (accumulate) {
      weight.noalias() += a.transpose() * e;
      bias.noalias() += e.colwise().sum();
    } else {
      weight.noalias() = a.transpose() * e;
      bias.noalias() = e.colwise().sum();
    }
    return;
  }
  // A is narrower: scale a copy of A instead; the bias sum is then c^T E.
  ensure_rows(scaled_a, m, a.cols());
  auto scaled = scaled_a.topRows(m);
  const Eigen::Map<const Vector> c(factors, m);
  scaled.noalias() = c.asDiagonal() * a;
  if (accumulate) {
    weight.noalias() += scaled.transpose() * e;
    bias.noalias() += c.transpose() * e;
  } else {
    weight.noalias() = scaled.transpose() * e;
    bias.noalias() = c.transpose() * e;
  }
}

}  // namespace dplab::models::detail
