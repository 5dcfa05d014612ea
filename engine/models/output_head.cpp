// Output heads (see output_head.h for the loss and error formulas).
#include "models/output_head.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::models::detail {

namespace {

using ArrayMap = Eigen::Map<Eigen::ArrayXf>;
using ConstArrayMap = Eigen::Map<const Eigen::ArrayXf>;

}  // namespace

Index head_outputs(OutputHead head, int num_classes) {
  return head == OutputHead::kSoftmaxCrossEntropy ? Index{num_classes} : Index{1};
}

void check_targets(OutputHead head, int num_classes, const VectorView& y, std::string_view model) {
  if (head == OutputHead::kSquaredError) {
    for (Index i = 0; i < y.size(); ++i) {
      if (!std::isfinite(y[i])) {
        throw InvalidArgument(std::string(model) + ": target " + format_number(y[i]) +
                              " at batch row " + std::to_string(i) + " is not a finite number");
      }
    }
    return;
  }
  for (Index i = 0; i < y.size(); ++i) {
    const float label = y[i];
    // The negated form also rejects NaN.
    if (!(label >= 0 && label < static_cast<float>(num_classes) && label == std::floor(label))) {
      throw InvalidArgument(std::string(model) + ": target " + format_number(label) +
                            " at batch row " + std::to_string(i) +
                            " is not a class index; expected an integer in 0.." +
                            std::to_string(num_classes - 1));
    }
  }
}

double loss_and_error(OutputHead head, float* z, Index m, Index outputs, const float* y,
                      float* scratch) {
  if (m == 0) return 0.0;
  switch (head) {
    case OutputHead::kSquaredError: {
      double loss = 0;
      for (Index i = 0; i < m; ++i) {
        const float residual = z[i] - y[i];  // e = z - y
        z[i] = residual;
        loss += 0.5 * static_cast<double>(residual) * static_cast<double>(residual);
      }
      return loss;
    }
    case OutputHead::kSigmoidCrossEntropy: {
      ArrayMap logit(z, m);
      ConstArrayMap target(y, m);
      ArrayMap t(scratch, m);
      t = (-logit.abs()).exp();  // t = exp(-|z|) in (0, 1]: never overflows
      // loss_i = max(z, 0) - y z + log1p(exp(-|z|))
      const double loss = (logit.max(0.f) - target * logit + t.log1p()).cast<double>().sum();
      // sigmoid(z) = 1 / (1 + t) for z >= 0, t / (1 + t) for z < 0
      logit = (logit >= 0.f).select((1.f + t).inverse(), t / (1.f + t)) - target;
      return loss;
    }
    case OutputHead::kSoftmaxCrossEntropy: {
      // Shift each row by its maximum (log-sum-exp), remembering the shifted true-class logit.
      for (Index i = 0; i < m; ++i) {
        float* row = z + i * outputs;
        float top = row[0];
        for (Index j = 1; j < outputs; ++j) top = std::max(top, row[j]);
        for (Index j = 0; j < outputs; ++j) row[j] -= top;
        scratch[i] = row[static_cast<Index>(y[i])];  // z_y - max z <= 0
      }
      ArrayMap block(z, m * outputs);
      block = block.exp();  // one vectorised pass over the contiguous block
      double loss = 0;
      for (Index i = 0; i < m; ++i) {
        float* row = z + i * outputs;
        float total = 0;  // >= 1: the maximum contributes exp(0)
        for (Index j = 0; j < outputs; ++j) total += row[j];
        loss += static_cast<double>(std::log(total) - scratch[i]);
        const float inverse = 1.f / total;
        for (Index j = 0; j < outputs; ++j) row[j] *= inverse;  // softmax
        row[static_cast<Index>(y[i])] -= 1.f;                   // - onehot(y)
      }
      return loss;
    }
  }
  return 0.0;
}

Index count_correct(OutputHead head, const float* z, Index m, Index outputs, const float* y) {
  Index correct = 0;
  if (head == OutputHead::kSigmoidCrossEntropy) {
    for (Index i = 0; i < m; ++i) {
      const float predicted = z[i] > 0.f ? 1.f : 0.f;  // sigmoid(z) > 0.5 <=> z > 0
      correct += predicted == y[i] ? 1 : 0;
    }
  } else if (head == OutputHead::kSoftmaxCrossEntropy) {
    for (Index i = 0; i < m; ++i) {
      const float* row = z + i * outputs;
      Index best = 0;
      for (Index j = 1; j < outputs; ++j) {
        if (row[j] > row[best]) best = j;  // strict: first index wins ties
      }
      correct += static_cast<float>(best) == y[i] ? 1 : 0;
    }
  }
  return correct;
}

double squared_error_sum(const float* z, Index m, const float* y) {
  double total = 0;
  for (Index i = 0; i < m; ++i) {
    const double residual = static_cast<double>(z[i]) - static_cast<double>(y[i]);
    total += residual * residual;
  }
  return total;
}

}  // namespace dplab::models::detail
