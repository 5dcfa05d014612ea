// ModelBase: block loop, checks and metrics shared by the models (see model_base.h).
#include "models/model_base.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "core/error.h"
#include "data/feature_rows.h"
#include "models/batch_checks.h"
#include "models/dense_layer.h"

namespace dplab::models::detail {

ModelBase::ModelBase(std::string name, Index input_dim, int num_classes, OutputHead head)
    : name_(std::move(name)),
      input_dim_(input_dim),
      num_classes_(num_classes),
      head_(head),
      outputs_(head_outputs(head, num_classes)) {
  if (input_dim < 1) {
    throw InvalidArgument(name_ + ": input_dim = " + std::to_string(input_dim) +
                          " must be >= 1 (the data set has no features)");
  }
}

void ModelBase::reserve(Index rows) {
  const Index block = std::min(rows, kBlockRows);
  ensure_size(squared_norms_, block);
  ensure_size(factors_, block);
  ensure_size(head_scratch_, block);
  reserve_rows(block);
}

double ModelBase::head_loss_and_error(float* z, Index m, const float* y) {
  return loss_and_error(head_, z, m, outputs_, y, head_scratch_.data());
}

double ModelBase::loss_sum(const MatrixView& x, const VectorView& y) {
  check_batch(name_, input_dim_, x, y);
  check_targets(head_, num_classes_, y, name());
  reserve(x.rows());
  double loss = 0;
  for (Index start = 0; start < x.rows(); start += kBlockRows) {
    const Index m = std::min(kBlockRows, x.rows() - start);
    float* z = forward(x.middleRows(start, m));
    loss += head_loss_and_error(z, m, y.data() + start);
  }
  return loss;
}

void ModelBase::logits(const MatrixView& x, Matrix& out) {
  check_batch(name_, input_dim_, x, Vector::Zero(x.rows()));
  reserve(x.rows());
  out.resize(x.rows(), outputs_);
  for (Index start = 0; start < x.rows(); start += kBlockRows) {
    const Index m = std::min(kBlockRows, x.rows() - start);
    const float* z = forward(x.middleRows(start, m));
    out.middleRows(start, m) = Eigen::Map<const Matrix>(z, m, outputs_);
  }
}

double ModelBase::clipped_gradient_sum(const MatrixView& x, const VectorView& y,
                                       const Clipping& clip, VectorSpan gradient_sum,
                                       VectorSpan norms) {
  check_batch(name_, input_dim_, x, y);
  check_gradient_outputs(name_, num_params(), x.rows(), clip, gradient_sum, norms);
  check_targets(head_, num_classes_, y, name());
  if (x.rows() == 0) {  // an empty Poisson lot: zero sum
    gradient_sum.setZero();
    return 0.0;
  }
  reserve(x.rows());
  // Norms are needed to clip, or when asked for; a plain unclipped sum skips them.
  const bool need_norms = clip.needs_norms() || norms.size() > 0;
  double loss = 0;
  for (Index start = 0; start < x.rows(); start += kBlockRows) {
    const Index m = std::min(kBlockRows, x.rows() - start);
    float* block_norms = norms.size() > 0 ? norms.data() + start : nullptr;
    loss += block_gradient(x.middleRows(start, m), y.data() + start, clip, need_norms, block_norms,
                           gradient_sum.data(), start > 0);
  }
  return loss;
}

double ModelBase::weighted_gradient_sum(const MatrixView& x, const VectorView& y,
                                        const VectorView& weights, VectorSpan gradient_sum) {
  check_batch(name_, input_dim_, x, y);
  if (weights.size() != x.rows()) {
    throw InvalidArgument(name_ + ": weights has " + std::to_string(weights.size()) +
                          " entries but the batch has " + std::to_string(x.rows()) + " rows");
  }
  Vector no_norms;  // empty: the weighted sum computes no norms (no allocation for size 0)
  check_gradient_outputs(name_, num_params(), x.rows(), kNoClipping, gradient_sum, no_norms);
  check_targets(head_, num_classes_, y, name());
  if (x.rows() == 0) {
    gradient_sum.setZero();
    return 0.0;
  }
  reserve(x.rows());
  double loss = 0;
  for (Index start = 0; start < x.rows(); start += kBlockRows) {
    const Index m = std::min(kBlockRows, x.rows() - start);
    explicit_factors_ = weights.data() + start;
    loss += block_gradient(x.middleRows(start, m), y.data() + start, kNoClipping, false, nullptr,
                           gradient_sum.data(), start > 0);
  }
  explicit_factors_ = nullptr;
  return loss;
}

Evaluation ModelBase::evaluate(const data::Dataset& data) {
  check_dataset(name_, input_dim_, num_classes_, data);
  check_targets(head_, num_classes_, data.targets, name());
  const Index n = data.size();
  reserve(n);
  double loss = 0;
  double squared_error = 0;
  Index correct = 0;
  for (Index start = 0; start < n; start += kBlockRows) {
    const Index m = std::min(kBlockRows, n - start);
    const float* y = data.targets.data() + start;
    // Float rows in place, or pixel rows converted block by block (4x less DRAM traffic).
    float* z = forward(data::feature_rows(data, start, m, input_scratch_));
    // Metrics first: the head overwrites the logits with its error.
    if (head_ == OutputHead::kSquaredError) {
      squared_error += squared_error_sum(z, m, y);
    } else {
      correct += count_correct(head_, z, m, outputs_, y);
    }
    loss += head_loss_and_error(z, m, y);
  }
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  Evaluation result;
  result.mean_loss = loss / static_cast<double>(n);
  const bool regression = head_ == OutputHead::kSquaredError;
  result.accuracy = regression ? kNaN : static_cast<double>(correct) / static_cast<double>(n);
  result.mse = regression ? squared_error / static_cast<double>(n) : kNaN;
  return result;
}

OutputKind ModelBase::graph_output() const {
  switch (head_) {
    case OutputHead::kSquaredError:
      return OutputKind::kIdentity;
    case OutputHead::kSigmoidCrossEntropy:
      return OutputKind::kSigmoid;
    case OutputHead::kSoftmaxCrossEntropy:
      return OutputKind::kSoftmax;
  }
  return OutputKind::kIdentity;
}

void ModelBase::add_dense_op(ModelGraph& graph, const std::string& name, Index inputs,
                             Index outputs, const float* params) {
  GraphOp op;
  op.kind = GraphOpKind::kDense;
  op.input = {1, 1, inputs};
  op.output = {1, 1, outputs};
  op.weight = add_tensor(graph, name + ".weight", {inputs, outputs}, params);
  op.bias = add_tensor(graph, name + ".bias", {outputs}, params + inputs * outputs);
  graph.ops.push_back(op);
}

}  // namespace dplab::models::detail
