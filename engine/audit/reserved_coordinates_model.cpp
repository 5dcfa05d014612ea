#include "audit/reserved_coordinates_model.h"

#include "core/error.h"
#include "core/validate.h"

namespace dplab::audit {

ReservedCoordinatesModel::ReservedCoordinatesModel(std::unique_ptr<models::Model> inner,
                                                   Index reserved)
    : inner_(std::move(inner)), reserved_(reserved) {
  if (!inner_) throw InvalidArgument("reserved coordinates need a model to pad");
  require_at_least("reserved coordinates", static_cast<double>(reserved), 1);
  params_ = Vector::Zero(inner_->num_params() + reserved_);
  params_.head(inner_->num_params()) = inner_->params();
}

std::string ReservedCoordinatesModel::name() const {
  return inner_->name();
}

std::string ReservedCoordinatesModel::description() const {
  return inner_->description() + " + " + std::to_string(reserved_) + " reserved audit coordinates";
}

void ReservedCoordinatesModel::sync_inner() {
  inner_->params() = params_.head(inner_->num_params());
}

void ReservedCoordinatesModel::initialize(std::uint64_t seed) {
  inner_->initialize(seed);
  params_.head(inner_->num_params()) = inner_->params();
  params_.tail(reserved_).setZero();
}

double ReservedCoordinatesModel::loss_sum(const MatrixView& x, const VectorView& y) {
  sync_inner();
  return inner_->loss_sum(x, y);
}

double ReservedCoordinatesModel::clipped_gradient_sum(const MatrixView& x, const VectorView& y,
                                                      const models::Clipping& clip,
                                                      VectorSpan gradient_sum, VectorSpan norms) {
  if (gradient_sum.size() != num_params()) {
    throw InvalidArgument("gradient_sum has " + std::to_string(gradient_sum.size()) +
                          " entries, the padded model " + std::to_string(num_params()));
  }
  sync_inner();
  const double loss =
      inner_->clipped_gradient_sum(x, y, clip, gradient_sum.head(inner_->num_params()), norms);
  gradient_sum.tail(reserved_).setZero();  // the loss does not read the reserved coordinates
  return loss;
}

double ReservedCoordinatesModel::weighted_gradient_sum(const MatrixView& x, const VectorView& y,
                                                       const VectorView& weights,
                                                       VectorSpan gradient_sum) {
  if (gradient_sum.size() != num_params()) {
    throw InvalidArgument("gradient_sum has " + std::to_string(gradient_sum.size()) +
                          " entries, the padded model " + std::to_string(num_params()));
  }
  sync_inner();
  const double loss =
      inner_->weighted_gradient_sum(x, y, weights, gradient_sum.head(inner_->num_params()));
  gradient_sum.tail(reserved_).setZero();
  return loss;
}

models::Evaluation ReservedCoordinatesModel::evaluate(const data::Dataset& data) {
  sync_inner();
  return inner_->evaluate(data);
}

void ReservedCoordinatesModel::logits(const MatrixView& x, Matrix& out) {
  sync_inner();
  inner_->logits(x, out);
}

void ReservedCoordinatesModel::describe_graph(models::ModelGraph& graph) const {
  auto inner = inner_->clone();  // const: the inner copy at theta_inner, not inner_ itself
  inner->params() = params_.head(inner_->num_params());
  inner->describe_graph(graph);
}

std::unique_ptr<models::Model> ReservedCoordinatesModel::clone() const {
  auto copy = std::make_unique<ReservedCoordinatesModel>(inner_->clone(), reserved_);
  copy->params_ = params_;
  return copy;
}

}  // namespace dplab::audit
