// QuadraticTestModel: a tiny hand-computable Model for the privacy and optimizer tests (it does
// not depend on engine/models' real models). Per-example loss and gradient:
//   l_i(theta) = (s/2) ||theta - x_i||^2,    g_i = s (theta - x_i),
// so with q = 1, sigma = 0 and no clipping the oracle's mean gradient is s (theta - mean_i x_i)
// (when L = n). s ("scale") makes the data gradient as small as a test needs. clipped_gradient_sum
// is written out example by example (the definition, not the rank-1 trick).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "models/model.h"

namespace dplab::testing {

class QuadraticTestModel final : public models::Model {
 public:
  explicit QuadraticTestModel(Index dim, double scale = 1.0) : scale_(scale) {
    params_.setZero(dim);
  }

  std::string name() const override { return "quadratic-test"; }
  void initialize(std::uint64_t) override { params_.setZero(); }

  double loss_sum(const MatrixView& x, const VectorView&) override {
    double sum = 0;
    for (Index i = 0; i < x.rows(); ++i) {
      sum += 0.5 * scale_ *
             (params_.cast<double>() - x.row(i).transpose().cast<double>()).squaredNorm();
    }
    return sum;
  }

  double clipped_gradient_sum(const MatrixView& x, const VectorView&, const models::Clipping& clip,
                              VectorSpan gradient_sum, VectorSpan norms) override {
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(params_.size());
    double loss = 0;
    for (Index i = 0; i < x.rows(); ++i) {
      const Eigen::VectorXd g =
          scale_ * (params_.cast<double>() - x.row(i).transpose().cast<double>());
      const double norm = g.norm();
      // min(1, C / ||g_i||) exactly (no float margin: hand computations); automatic: the rule's.
      const double factor = clip.is_automatic() ? clip.factor(norm)
                            : norm > clip.clip  ? clip.clip / norm
                                                : 1.0;
      sum += factor * g;
      norms[i] = static_cast<float>(norm);
      loss += 0.5 * g.squaredNorm() / scale_;
    }
    gradient_sum = sum.cast<float>();
    ++gradient_calls_;
    return loss;
  }

  models::Evaluation evaluate(const data::Dataset& data) override {
    models::Evaluation e;
    e.mean_loss = data.size() ? loss_sum(data.features, data.targets) / data.size() : 0;
    e.accuracy = std::numeric_limits<double>::quiet_NaN();
    e.mse = std::numeric_limits<double>::quiet_NaN();
    return e;
  }

  std::unique_ptr<models::Model> clone() const override {
    return std::make_unique<QuadraticTestModel>(*this);
  }

  int gradient_calls() const { return gradient_calls_; }

 private:
  double scale_;
  int gradient_calls_ = 0;
};

// A regression data set with the given rows as features (targets unused, 0).
inline data::Dataset make_points(const Matrix& points) {
  data::Dataset d;
  d.name = "points";
  d.features = points;
  d.targets = Vector::Zero(points.rows());
  d.num_classes = 0;
  return d;
}

}  // namespace dplab::testing
