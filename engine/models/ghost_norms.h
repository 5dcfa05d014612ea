// Per-example gradient norms of conv-type layers, ghost or direct, and the clipped sums they
// feed (the formulas are in network_layers.h). Internal to engine/models.
#pragma once

#include "core/types.h"
#include "models/layer_support.h"
#include "models/network_layers.h"

namespace dplab::models::detail {

// Per-example squared Frobenius norm of A_i^T B_i (A: mP x a, B: mP x b, example i = rows
// [iP, iP + P)), ghost or direct, added to squared[i]; gram_a/gram_b are scratch. The direct
// method keeps each example's G_i = A_i^T B_i in rows [i a, (i + 1) a) of `products` (m a x b):
// it has paid for them, and add_stored_products then forms sum_i w_i G_i in m a b additions
// instead of the weighted GEMM's P m a b multiply-adds (the waste issue #15 found: with every
// layer direct, as in the conv-autoencoder, the DP step did the weight-gradient product twice).
void add_product_norms(const float* a, Index a_cols, const float* b, Index b_cols, Index positions,
                       Index m, NormMethod method, Matrix& gram_a, Matrix& gram_b, Matrix& products,
                       float* squared);

// dw (a x b) = or += sum_i w_i G_i from the per-example products stored by add_product_norms
// (weights null: w = 1).
void add_stored_products(const Matrix& products, Index a_cols, Index m, const float* weights,
                         bool accumulate, MutMap& dw);

// dst (mP x cols) = rows of src with block i (P rows) scaled by weights[i].
void scale_blocks(const float* src, Index cols, Index positions, Index m, const float* weights,
                  Matrix& dst);

// gemm_flops of a conv-type layer whose three products (forward, input gradient, weight
// gradient A_i^T B_i with A_i: P x a, B_i: P x b) each cost 2 P a b per example.
double conv_gemm_flops(Index positions, Index a, Index b, NormMethod method, bool clipped,
                       bool input_gradient);

}  // namespace dplab::models::detail
