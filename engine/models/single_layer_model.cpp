// SingleLayerModel: z = x W + b; ||g_i||^2 = (||x_i||^2 + 1) ||e_i||^2; clipped sum
// X^T diag(c) E and E^T c (see single_layer_model.h).
#include "models/single_layer_model.h"

#include <string>
#include <utility>

#include "models/dense_layer.h"

namespace dplab::models::detail {

SingleLayerModel::SingleLayerModel(std::string name, Index input_dim, int num_classes,
                                   OutputHead head)
    : ModelBase(std::move(name), input_dim, num_classes, head) {
  params_ = Vector::Zero(input_dim * num_outputs() + num_outputs());
}

std::string SingleLayerModel::description() const {
  return name() + " " + std::to_string(input_dim()) + "-" + std::to_string(num_outputs());
}

void SingleLayerModel::describe_graph(ModelGraph& graph) const {
  add_dense_op(graph, "dense", input_dim(), num_outputs(), params_.data());
  graph.output = graph_output();
}

void SingleLayerModel::reserve_rows(Index rows) {
  ensure_rows(logits_, rows, num_outputs());
}

float* SingleLayerModel::forward(const MatrixView& x) {
  return dense_forward(x, params_.data(), num_outputs(), logits_).data();  // z = x W + b
}

double SingleLayerModel::block_gradient(const MatrixView& x, const float* y, const Clipping& clip,
                                        bool need_norms, float* norms, float* grad,
                                        bool accumulate) {
  const Index m = x.rows();
  const Index k = num_outputs();
  float* z = forward(x);
  const double loss = head_loss_and_error(z, m, y);
  auto errors = logits_.topRows(m);  // E = dloss/dz
  const float* factors = nullptr;
  if (need_norms) {
    float* squared = squared_norms_.data();
    row_squared_norms(x, squared);
    for (Index i = 0; i < m; ++i) {
      squared[i] = (squared[i] + 1.f) * errors.row(i).squaredNorm();  // (||x||^2 + 1) ||e||^2
    }
    if (clip_factors(squared, m, clip, norms, factors_.data())) factors = factors_.data();
  }
  if (explicit_factors_ != nullptr) factors = explicit_factors_;  // weighted_gradient_sum
  add_dense_gradient(x, errors, factors, scaled_input_, grad, grad + input_dim() * k, accumulate);
  return loss;
}

}  // namespace dplab::models::detail
