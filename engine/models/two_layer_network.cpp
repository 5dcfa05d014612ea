// TLNN d -> h (ReLU) -> k: e1 = (e2 W2^T) .* relu'(z1);
// ||g_i||^2 = (||x_i||^2 + 1) ||e1_i||^2 + (||a1_i||^2 + 1) ||e2_i||^2 (see two_layer_network.h).
#include "models/two_layer_network.h"

#include <cmath>
#include <string>

#include "core/error.h"
#include "core/random.h"
#include "models/dense_layer.h"

namespace dplab::models {

namespace {

detail::OutputHead head_for(int num_classes) {
  if (num_classes < 2) {
    throw InvalidArgument("tlnn: num_classes = " + std::to_string(num_classes) +
                          " must be >= 2 (the network needs classification data)");
  }
  return num_classes == 2 ? detail::OutputHead::kSigmoidCrossEntropy
                          : detail::OutputHead::kSoftmaxCrossEntropy;
}

Index checked_hidden_units(int hidden_units) {
  if (hidden_units < 1) {
    throw InvalidArgument("tlnn: hidden_units = " + std::to_string(hidden_units) + " must be >= 1");
  }
  return hidden_units;
}

// Fills values with independent U(-limit, limit) draws.
void fill_uniform(float* values, Index count, double limit, Rng& rng) {
  for (Index i = 0; i < count; ++i) {
    values[i] = static_cast<float>(limit * (2.0 * rng.uniform() - 1.0));
  }
}

}  // namespace

TwoLayerNetwork::TwoLayerNetwork(Index input_dim, int num_classes, int hidden_units)
    : ModelBase("tlnn", input_dim, num_classes, head_for(num_classes)),
      hidden_(checked_hidden_units(hidden_units)) {
  params_ = Vector::Zero(bias2_offset() + num_outputs());
  initialize(0);
}

std::string TwoLayerNetwork::description() const {
  return name() + " " + std::to_string(input_dim()) + "-" + std::to_string(hidden_) + "-" +
         std::to_string(num_outputs());
}

void TwoLayerNetwork::describe_graph(ModelGraph& graph) const {
  add_dense_op(graph, "hidden", input_dim(), hidden_, params_.data());
  GraphOp relu;
  relu.kind = GraphOpKind::kRelu;
  relu.input = relu.output = {1, 1, hidden_};
  graph.ops.push_back(relu);
  add_dense_op(graph, "output", hidden_, num_outputs(), params_.data() + weights2_offset());
  graph.output = graph_output();
}

void TwoLayerNetwork::initialize(std::uint64_t seed) {
  Rng rng(seed);
  params_.setZero();  // biases 0
  // He-uniform for the ReLU layer: Var(W1) = 2 / fan_in = limit^2 / 3.
  fill_uniform(params_.data(), input_dim() * hidden_,
               std::sqrt(6.0 / static_cast<double>(input_dim())), rng);
  // Glorot-uniform for the output layer: Var(W2) = 2 / (fan_in + fan_out) = limit^2 / 3.
  fill_uniform(params_.data() + weights2_offset(), hidden_ * num_outputs(),
               std::sqrt(6.0 / static_cast<double>(hidden_ + num_outputs())), rng);
}

std::unique_ptr<Model> TwoLayerNetwork::clone() const {
  return std::make_unique<TwoLayerNetwork>(*this);
}

void TwoLayerNetwork::reserve_rows(Index rows) {
  detail::ensure_rows(activations_, rows, hidden_);
  detail::ensure_rows(hidden_error_, rows, hidden_);
  detail::ensure_rows(logits_, rows, num_outputs());
  detail::ensure_size(hidden_error_norms_, rows);
  detail::ensure_size(activation_norms_, rows);
  detail::ensure_size(column_square_, rows);
}

float* TwoLayerNetwork::forward(const MatrixView& x) {
  // Layer 1 is W1 then b1 at the start of params_, layer 2 is W2 then b2 from weights2_offset().
  auto a1 = detail::dense_forward(x, params_.data(), hidden_, activations_);  // z1 = x W1 + b1
  a1 = a1.cwiseMax(0.f);                                                      // a1 = relu(z1)
  return detail::dense_forward(a1, params_.data() + weights2_offset(), num_outputs(), logits_)
      .data();  // z2 = a1 W2 + b2
}

double TwoLayerNetwork::block_gradient(const MatrixView& x, const float* y, const Clipping& clip,
                                       bool need_norms, float* norms, float* grad,
                                       bool accumulate) {
  const Index m = x.rows();
  const Index k = num_outputs();
  float* z2 = forward(x);
  const double loss = head_loss_and_error(z2, m, y);
  auto e2 = logits_.topRows(m);
  auto a1 = activations_.topRows(m);
  auto e1 = hidden_error_.topRows(m);
  const Eigen::Map<const Matrix> weights2(params_.data() + weights2_offset(), hidden_, k);
  e1.noalias() = e2 * weights2.transpose();  // e1 = (e2 W2^T) .* relu'(z1)
  e1.array() *= (a1.array() > 0.f).cast<float>();
  const float* factors = nullptr;
  if (need_norms) {
    // ||g_i||^2 = (||x_i||^2 + 1) ||e1_i||^2 + (||a1_i||^2 + 1) ||e2_i||^2
    Eigen::Map<Vector> squared(squared_norms_.data(), m);
    detail::row_squared_norms(x, squared.data());
    detail::two_layer_squared_norms(e1, a1, e2, hidden_error_norms_.data(),
                                    activation_norms_.data(), column_square_.data(),
                                    squared.data());
    if (detail::clip_factors(squared.data(), m, clip, norms, factors_.data())) {
      factors = factors_.data();
    }
  }
  if (explicit_factors_ != nullptr) factors = explicit_factors_;  // weighted_gradient_sum
  detail::add_dense_gradient(x, e1, factors, scaled_input_, grad, grad + bias1_offset(),
                             accumulate);
  detail::add_dense_gradient(a1, e2, factors, scaled_hidden_, grad + weights2_offset(),
                             grad + bias2_offset(), accumulate);
  return loss;
}

}  // namespace dplab::models
