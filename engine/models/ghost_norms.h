// Per-example gradient norms of conv-type layers, ghost or direct, and the clipped sums they
// feed (the formulas are in network_layers.h). Internal to engine/models.
#pragma once

#include "core/types.h"
#include "models/layer_support.h"
#include "models/network_layers.h"

namespace dplab::models::detail {

// G_i (a x b) is stored column-major when a >= b, row-major otherwise: Eigen computes a
// row-major product as its column-major transpose, and its kernel fills 48 x 4 tiles of the
// column-major result's rows, so the longer side must be the rows. For the cnn's conv1 (a = 64
// unfolded columns, b = 16 channels) row-major storage ran the 16-row edge kernel only (75 vs
// 107 GFLOP/s measured on the issue #30 Xeon).
inline bool products_column_major(Index a_cols, Index b_cols) {
  return a_cols >= b_cols;
}

// Per-example squared Frobenius norm of A_i^T B_i (A: mP x a, B: mP x b, example i = rows
// [iP, iP + P)), ghost or direct, added to squared[i]; gram_a/gram_b are scratch. The direct
// method keeps each example's G_i = A_i^T B_i as floats [i a b, (i + 1) a b) of `products`
// (m a b floats, in the order products_column_major gives):
// it has paid for them, and add_stored_products then forms sum_i w_i G_i in m a b additions
// instead of the weighted GEMM's P m a b multiply-adds (the waste issue #15 found: with every
// layer direct, as in the conv-autoencoder, the DP step did the weight-gradient product twice).
void add_product_norms(const float* a, Index a_cols, const float* b, Index b_cols, Index positions,
                       Index m, NormMethod method, Matrix& gram_a, Matrix& gram_b, Matrix& products,
                       float* squared);

// dw (a x b) = or += sum_i w_i G_i from the per-example products G_i stored as floats
// [i a b, (i + 1) a b) of `products`, column-major (add_product_norms when
// products_column_major) or row-major (implicit_product, conv_kernels.h); weights null: w = 1.
// `sum` is scratch of exactly a x b (column-major products only).
void add_stored_products(const Matrix& products, Index a_cols, Index m, const float* weights,
                         bool accumulate, bool column_major, MutMap& dw, ColMatrix& sum);

// The bias of a conv-type layer whose errors E (mP x cols) hold example i in rows [iP, iP + P):
// its per-example gradient is E_i^T 1. add_bias_norms: squared[i] += ||E_i^T 1||^2;
// add_bias_gradient: db += sum_i w_i E_i^T 1 (weights null: w = 1).
void add_bias_norms(const float* errors, Index cols, Index positions, Index m, float* squared);
void add_bias_gradient(const float* errors, Index cols, Index positions, Index m,
                       const float* weights, RowMap& db);

// dst (mP x cols) = rows of src with block i (P rows) scaled by weights[i].
void scale_blocks(const float* src, Index cols, Index positions, Index m, const float* weights,
                  Matrix& dst);

// gemm_flops of a conv-type layer whose three products (forward, input gradient, weight
// gradient A_i^T B_i with A_i: P x a, B_i: P x b) each cost 2 P a b per example.
double conv_gemm_flops(Index positions, Index a, Index b, NormMethod method, bool clipped,
                       bool input_gradient);

}  // namespace dplab::models::detail
