// Output heads: the per-example loss on a row of logits z and its error e = dloss/dz, computed
// in place over a block of rows. Float arithmetic per example, sums of losses in double.
//
//   squared error (1 output):  loss = 1/2 (z - y)^2,                          e = z - y
//   sigmoid + binary CE (1):   loss = softplus(z) - y z
//                                   = max(z, 0) - y z + log1p(exp(-|z|)),      e = sigmoid(z) - y
//   softmax + CE (k outputs):  loss = logsumexp(z) - z_y
//                                   = log(sum_j exp(z_j - max z)) - (z_y - max z),
//                                                                             e = softmax(z) -
//                                                                             onehot(y)
// Both cross-entropy forms are written so that no exp overflows for any finite z.
//
// Internal to engine/models (not part of the Model interface). Thread-safety: pure functions.
#pragma once

#include <string_view>

#include "core/types.h"

namespace dplab::models::detail {

enum class OutputHead { kSquaredError, kSigmoidCrossEntropy, kSoftmaxCrossEntropy };

// Columns of the logit matrix for a head: 1, except softmax (num_classes).
Index head_outputs(OutputHead head, int num_classes);

// Throws InvalidArgument (naming `model` and the offending row) unless every y is a class index
// 0..num_classes-1 (classification heads). Regression targets are only checked to be finite.
void check_targets(OutputHead head, int num_classes, const VectorView& y, std::string_view model);

// z: m x outputs, contiguous row-major (a topRows block of a scratch buffer). Overwrites z with
// the error e = dloss/dz and returns the sum of the m per-example losses. `scratch` must hold at
// least m floats. Targets must have been checked.
double loss_and_error(OutputHead head, float* z, Index m, Index outputs, const float* y,
                      float* scratch);

// Number of rows whose prediction equals the class label: argmax of the logits (first index on
// ties) for softmax, z > 0 (sigmoid > 0.5) for the binary head. Not defined for squared error.
Index count_correct(OutputHead head, const float* z, Index m, Index outputs, const float* y);

// Sum over rows of (z - y)^2 in double (squared-error head, one output).
double squared_error_sum(const float* z, Index m, const float* y);

}  // namespace dplab::models::detail
