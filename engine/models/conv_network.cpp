// ConvNetwork (see conv_network.h): block loop, loss heads, clipping by per-example norms.
#include "models/conv_network.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"
#include "core/random.h"
#include "data/feature_rows.h"
#include "models/dense_layer.h"
#include "models/network_description.h"
#include "models/output_head.h"

namespace dplab::models {

ConvNetwork::ConvNetwork(NetworkSpec spec, int num_classes)
    : name_(std::move(spec.name)),
      input_(spec.input),
      loss_(spec.loss),
      num_classes_(num_classes),
      layers_(std::move(spec.layers)) {
  if (layers_.empty()) throw InvalidArgument(name_ + ": the network has no layers");
  const detail::MapShape out = layers_.back()->output_shape();
  if (loss_ == NetworkLoss::kSoftmaxCrossEntropy) {
    if (num_classes < 2) {
      throw InvalidArgument(name_ +
                            ": cross-entropy needs a classification data set (num_classes "
                            ">= 2), got num_classes = " +
                            std::to_string(num_classes));
    }
    if (out.size() != num_classes) {
      throw InvalidArgument(name_ + ": the last layer has " + std::to_string(out.size()) +
                            " outputs but the data set has " + std::to_string(num_classes) +
                            " classes");
    }
  } else if (out.size() != input_.size()) {
    throw InvalidArgument(name_ + ": a reconstruction network must output its input's size " +
                          std::to_string(input_.size()) + ", the last layer gives " +
                          std::to_string(out.size()));
  }
  Index total = 0, scratch = 1;
  for (const auto& layer : layers_) {
    offsets_.push_back(total);
    total += layer->num_params();
    scratch = std::max(scratch, layer->scratch_floats_per_example());
  }
  block_rows_ = std::clamp<Index>(
      kNetworkBlockBytes / (scratch * static_cast<Index>(sizeof(float))), 1, kNetworkBlockRows);
  // A relu whose next layer takes it over (a max-pool, Layer::absorb_relu) is skipped: that layer
  // reads the relu's input and gives the gradient with respect to it.
  absorbed_.assign(layers_.size(), false);
  for (std::size_t l = 0; l + 1 < layers_.size(); ++l) {
    absorbed_[l] = layers_[l]->is_relu() && layers_[l + 1]->absorb_relu();
  }
  params_ = Vector::Zero(total);
  activations_.resize(layers_.size() + 1);
  gradients_.resize(layers_.size() + 1);
  initialize(0);
}

std::string ConvNetwork::description() const {
  std::string text = name_ + " " + std::to_string(input_.height) + "x" +
                     std::to_string(input_.width) + "x" + std::to_string(input_.channels);
  for (const auto& layer : layers_) text += " > " + layer->describe();
  return text + " (" + std::to_string(num_params()) + " parameters)";
}

void ConvNetwork::initialize(std::uint64_t seed) {
  Rng rng(seed);
  for (std::size_t l = 0; l < layers_.size(); ++l)
    layers_[l]->initialize(params_.data() + offsets_[l], rng);
}

double ConvNetwork::gemm_flops_per_example(bool clipped) const {
  double flops = 0;
  for (std::size_t l = 0; l < layers_.size(); ++l) flops += layers_[l]->gemm_flops(clipped, l > 0);
  return flops;
}

std::unique_ptr<Model> ConvNetwork::clone() const {
  auto copy = make_network(json_text_, input_.size(), num_classes_);
  copy->params() = params_;
  return copy;
}

void ConvNetwork::check_batch(const MatrixView& x, const VectorView& y) const {
  if (x.cols() != input_.size()) {
    throw InvalidArgument(name_ + ": x has " + std::to_string(x.cols()) +
                          " features but the network's input is " + std::to_string(input_.size()));
  }
  if (y.size() != x.rows()) {
    throw InvalidArgument(name_ + ": y has " + std::to_string(y.size()) + " entries but x has " +
                          std::to_string(x.rows()) + " rows");
  }
  if (loss_ == NetworkLoss::kSoftmaxCrossEntropy) {
    detail::check_targets(detail::OutputHead::kSoftmaxCrossEntropy, num_classes_, y, name_);
  }
}

void ConvNetwork::reserve(Index rows) {
  const Index m = std::min(rows, block_rows_);
  if (m <= reserved_) return;
  reserved_ = m;
  activations_[0].resize(m, input_.size());
  gradients_[0].resize(0, 0);  // the input needs no gradient
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    layers_[l]->reserve(m);
    const Index size = layers_[l]->output_shape().size();
    activations_[l + 1].resize(m, size);
    gradients_[l + 1].resize(m, size);
  }
  squared_norms_.resize(m);
  factors_.resize(m);
  losses_.resize(m);
}

float* ConvNetwork::forward(const MatrixView& x, Index start, Index m) {
  activations_[0].topRows(m) = x.middleRows(start, m);
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    if (absorbed_[l]) continue;
    layers_[l]->forward(params_.data() + offsets_[l], activations_[input_of(l)].data(),
                        activations_[l + 1].data(), m);
  }
  return activations_.back().data();
}

double ConvNetwork::loss_and_error(const VectorView& y, Index start, Index m) {
  Matrix& out = activations_.back();
  Matrix& error = gradients_.back();
  const Index k = out.cols();
  if (loss_ == NetworkLoss::kSoftmaxCrossEntropy) {
    error.topRows(m) = out.topRows(m);
    return detail::loss_and_error(detail::OutputHead::kSoftmaxCrossEntropy, error.data(), m, k,
                                  y.data() + start, losses_.data());
  }
  // Reconstruction: loss_i = (1/n) ||x_hat_i - x_i||^2, error = (2/n) (x_hat_i - x_i).
  const float inverse_n = 1.f / static_cast<float>(k);
  auto diff = error.topRows(m);
  diff = out.topRows(m) - activations_[0].topRows(m);
  double loss = 0;
  for (Index i = 0; i < m; ++i) loss += static_cast<double>(diff.row(i).squaredNorm()) * inverse_n;
  diff *= 2.f * inverse_n;
  return loss;
}

void ConvNetwork::prepare_backward() {
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    layers_[l]->prepare_backward(params_.data() + offsets_[l]);
  }
}

void ConvNetwork::backward(Index m) {
  for (std::size_t l = layers_.size(); l-- > 0;) {
    if (absorbed_[l]) continue;
    const std::size_t in = input_of(l);
    float* in_grad = in == 0 ? nullptr : gradients_[in].data();
    layers_[l]->backward(params_.data() + offsets_[l], activations_[in].data(),
                         activations_[l + 1].data(), gradients_[l + 1].data(), in_grad, m);
  }
}

double ConvNetwork::block_gradients(const MatrixView& x, const VectorView& y, const Clipping& clip,
                                    const float* weights, float* norms, float* grad,
                                    bool accumulate, Index start, Index m) {
  forward(x, start, m);
  const double loss = loss_and_error(y, start, m);
  backward(m);
  const float* factors = weights;
  if (weights == nullptr && (clip.needs_norms() || norms != nullptr)) {
    squared_norms_.head(m).setZero();
    for (const auto& layer : layers_) layer->add_squared_norms(squared_norms_.data(), m);
    if (detail::clip_factors(squared_norms_.data(), m, clip, norms, factors_.data())) {
      factors = factors_.data();
    }
  }
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    if (layers_[l]->num_params() == 0) continue;
    layers_[l]->add_weighted_gradient(factors, grad + offsets_[l], accumulate, m);
  }
  return loss;
}

double ConvNetwork::clipped_gradient_sum(const MatrixView& x, const VectorView& y,
                                         const Clipping& clip, VectorSpan gradient_sum,
                                         VectorSpan norms) {
  check_batch(x, y);
  check_clipping(name_, clip);
  if (gradient_sum.size() != num_params()) {
    throw InvalidArgument(name_ + ": gradient_sum has " + std::to_string(gradient_sum.size()) +
                          " entries but the model has " + std::to_string(num_params()));
  }
  const bool norms_skipped = norms.size() == 0 && !clip.needs_norms();
  if (norms.size() != x.rows() && !norms_skipped) {
    throw InvalidArgument(name_ + ": norms has " + std::to_string(norms.size()) +
                          " entries but the batch has " + std::to_string(x.rows()) + " rows");
  }
  if (x.rows() == 0) {
    gradient_sum.setZero();
    return 0.0;
  }
  reserve(x.rows());
  prepare_backward();
  double loss = 0;
  for (Index start = 0; start < x.rows(); start += block_rows_) {
    const Index m = std::min(block_rows_, x.rows() - start);
    loss += block_gradients(x, y, clip, nullptr, norms_skipped ? nullptr : norms.data() + start,
                            gradient_sum.data(), start > 0, start, m);
  }
  return loss;
}

double ConvNetwork::weighted_gradient_sum(const MatrixView& x, const VectorView& y,
                                          const VectorView& weights, VectorSpan gradient_sum) {
  check_batch(x, y);
  if (weights.size() != x.rows() || gradient_sum.size() != num_params()) {
    throw InvalidArgument(name_ + ": weighted_gradient_sum got " + std::to_string(weights.size()) +
                          " weights for " + std::to_string(x.rows()) + " rows and a gradient of " +
                          std::to_string(gradient_sum.size()) + " entries");
  }
  if (x.rows() == 0) {
    gradient_sum.setZero();
    return 0.0;
  }
  reserve(x.rows());
  prepare_backward();
  double loss = 0;
  for (Index start = 0; start < x.rows(); start += block_rows_) {
    const Index m = std::min(block_rows_, x.rows() - start);
    loss += block_gradients(x, y, kNoClipping, weights.data() + start, nullptr, gradient_sum.data(),
                            start > 0, start, m);
  }
  return loss;
}

double ConvNetwork::loss_sum(const MatrixView& x, const VectorView& y) {
  check_batch(x, y);
  reserve(x.rows());
  double loss = 0;
  for (Index start = 0; start < x.rows(); start += block_rows_) {
    const Index m = std::min(block_rows_, x.rows() - start);
    forward(x, start, m);
    loss += loss_and_error(y, start, m);
  }
  return loss;
}

void ConvNetwork::describe_graph(ModelGraph& graph) const {
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    layers_[l]->add_to_graph(graph, params_.data() + offsets_[l], static_cast<int>(l));
  }
  graph.output =
      loss_ == NetworkLoss::kReconstruction ? OutputKind::kIdentity : OutputKind::kSoftmax;
}

void ConvNetwork::logits(const MatrixView& x, Matrix& out) {
  if (x.cols() != input_.size()) check_batch(x, Vector::Zero(x.rows()));  // names the shapes
  reserve(x.rows());
  const Index k = layers_.back()->output_shape().size();
  out.resize(x.rows(), k);
  for (Index start = 0; start < x.rows(); start += block_rows_) {
    const Index m = std::min(block_rows_, x.rows() - start);
    out.middleRows(start, m) = Eigen::Map<const Matrix>(forward(x, start, m), m, k);
  }
}

Evaluation ConvNetwork::evaluate(const data::Dataset& data) {
  if (data.size() == 0) throw InvalidArgument(name_ + ": cannot evaluate on an empty data set");
  const Index n = data.size();
  if (data.targets.size() != n) {
    throw InvalidArgument(name_ + ": " + std::to_string(data.targets.size()) + " targets for " +
                          std::to_string(n) + " rows");
  }
  reserve(n);
  double loss = 0;
  Index correct = 0;
  for (Index start = 0; start < n; start += block_rows_) {
    const Index m = std::min(block_rows_, n - start);
    // Float rows in place, or pixel rows converted block by block (data/feature_rows.h).
    const MatrixView x = data::feature_rows(data, start, m, input_scratch_);
    check_batch(x, data.targets.segment(start, m));
    const float* z = forward(x, 0, m);
    if (loss_ == NetworkLoss::kSoftmaxCrossEntropy) {
      correct += detail::count_correct(detail::OutputHead::kSoftmaxCrossEntropy, z, m,
                                       activations_.back().cols(), data.targets.data() + start);
    }
    loss += loss_and_error(data.targets, start, m);
  }
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  Evaluation result;
  result.mean_loss = loss / static_cast<double>(n);
  const bool classification = loss_ == NetworkLoss::kSoftmaxCrossEntropy;
  result.accuracy = classification ? static_cast<double>(correct) / static_cast<double>(n) : kNaN;
  result.mse = classification ? kNaN : result.mean_loss;  // per-pixel MSE, averaged over examples
  return result;
}

}  // namespace dplab::models
