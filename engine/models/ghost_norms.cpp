// Ghost and direct per-example norms of conv-type layers (see network_layers.h, ghost_norms.h).
#include "models/ghost_norms.h"

#include <algorithm>

#include "models/layer_support.h"

namespace dplab::models::detail {

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
      const auto product_norm = [&](auto g) {  // G_i = A_i^T B_i into its storage, ||G_i||^2
        multiply(g, ai.transpose(), bi, false);
        return static_cast<double>(g.squaredNorm());
      };
      float* g = products.data() + i * a_cols * b_cols;
      norm2 = products_column_major(a_cols, b_cols) ? product_norm(ColMap(g, a_cols, b_cols))
                                                    : product_norm(MutMap(g, a_cols, b_cols));
    }
    squared[i] += static_cast<float>(norm2);
  }
}

// dw (a x b) = or += sum_i w_i G_i from the per-example products stored by add_product_norms
// (weights null: w = 1). Column-major products are summed in `sum` (a x b, column-major, no
// stride) and added to the row-major dw once.
void add_stored_products(const Matrix& products, Index a_cols, Index m, const float* weights,
                         bool accumulate, bool column_major, MutMap& dw, ColMatrix& sum) {
  const Index b_cols = dw.cols(), size = a_cols * b_cols;
  const auto weight = [&](Index i) { return weights == nullptr ? 1.f : weights[i]; };
  if (!accumulate) dw.setZero();
  if (!column_major) {
    // Chunk by chunk of dw (1 KiB, held in L1 across the m products) instead of one pass over
    // all of dw per product: the cnn's conv2 has 8,192 floats per G_i.
    constexpr Index kChunk = 256;
    Eigen::Map<Eigen::VectorXf> flat(dw.data(), size);
    for (Index j = 0; j < size; j += kChunk) {
      const Index n = std::min(kChunk, size - j);
      auto out = flat.segment(j, n);
      for (Index i = 0; i < m; ++i) {
        out += weight(i) * Eigen::Map<const Eigen::VectorXf>(products.data() + i * size + j, n);
      }
    }
    return;
  }
  ColMap total(sum.data(), a_cols, b_cols);  // sum holds exactly a x b: one contiguous run
  total.setZero();
  for (Index i = 0; i < m; ++i) {
    total += weight(i) * ConstColMap(products.data() + i * size, a_cols, b_cols);
  }
  dw += total;
}

void add_bias_norms(const float* errors, Index cols, Index positions, Index m, float* squared) {
  for (Index i = 0; i < m; ++i) {
    squared[i] +=
        ConstMap(errors + i * positions * cols, positions, cols).colwise().sum().squaredNorm();
  }
}

void add_bias_gradient(const float* errors, Index cols, Index positions, Index m,
                       const float* weights, RowMap& db) {
  for (Index i = 0; i < m; ++i) {
    const float wi = weights == nullptr ? 1.f : weights[i];
    db += wi * ConstMap(errors + i * positions * cols, positions, cols).colwise().sum();
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

}  // namespace dplab::models::detail
