// Test support for the models suites: an independent double-precision reference of the three
// models, written with plain loops and the *explicit* per-example gradient (no rank-1 identity,
// no GEMM), so the engine's batched float kernels are checked against a different computation.
//
// Parameter layouts (as the engine documents them):
//   single layer: [W row-major (d x k), b (k)]
//   TLNN:         [W1 row-major (d x h), b1 (h), W2 row-major (h x k), b2 (k)]
// with k = 1 for linear regression and binary classification, k = num_classes otherwise.
#pragma once

#include <Eigen/Core>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/random.h"
#include "core/types.h"
#include "models/model.h"

namespace dplab::testing {

struct ReferenceShape {
  models::ModelKind kind = models::ModelKind::kLogisticRegression;
  Index input_dim = 1;
  int num_classes = 0;  // 0 = regression
  int hidden = 0;       // TLNN only

  Index outputs() const {
    return (num_classes == 0 || num_classes == 2) ? Index{1} : Index{num_classes};
  }
  Index num_params() const {
    const Index k = outputs();
    if (kind == models::ModelKind::kTwoLayerNetwork) {
      return input_dim * hidden + hidden + hidden * k + k;
    }
    return input_dim * k + k;
  }
};

// Loss of one example and its error dloss/dz in double (the three output heads).
inline double reference_head(const ReferenceShape& shape, const Eigen::VectorXd& z, double y,
                             Eigen::VectorXd& error) {
  error.resize(z.size());
  if (shape.num_classes == 0) {  // 1/2 (z - y)^2
    error[0] = z[0] - y;
    return 0.5 * error[0] * error[0];
  }
  if (shape.num_classes == 2) {  // -[y log s + (1 - y) log(1 - s)], s = sigmoid(z)
    const double s = 1.0 / (1.0 + std::exp(-z[0]));
    error[0] = s - y;
    return std::max(z[0], 0.0) - y * z[0] + std::log1p(std::exp(-std::abs(z[0])));
  }
  const double top = z.maxCoeff();  // log-sum-exp
  const Eigen::VectorXd p = (z.array() - top).exp().matrix();
  const double total = p.sum();
  const auto label = static_cast<Index>(y);
  error = p / total;
  error[label] -= 1.0;
  return top + std::log(total) - z[label];
}

// Loss of example x (d) with target y at params; writes the explicit gradient (num_params).
inline double reference_example(const ReferenceShape& shape, const Eigen::VectorXd& params,
                                const Eigen::VectorXd& x, double y, Eigen::VectorXd& gradient) {
  const Index d = shape.input_dim;
  const Index k = shape.outputs();
  gradient = Eigen::VectorXd::Zero(shape.num_params());
  Eigen::VectorXd error;
  if (shape.kind != models::ModelKind::kTwoLayerNetwork) {
    Eigen::VectorXd z(k);
    for (Index c = 0; c < k; ++c) {
      double sum = params[d * k + c];
      for (Index r = 0; r < d; ++r) sum += x[r] * params[r * k + c];
      z[c] = sum;
    }
    const double loss = reference_head(shape, z, y, error);
    for (Index r = 0; r < d; ++r) {
      for (Index c = 0; c < k; ++c) gradient[r * k + c] = x[r] * error[c];
    }
    for (Index c = 0; c < k; ++c) gradient[d * k + c] = error[c];
    return loss;
  }
  const Index h = shape.hidden;
  const Index b1 = d * h, w2 = b1 + h, b2 = w2 + h * k;
  Eigen::VectorXd pre(h), act(h), z(k);
  for (Index j = 0; j < h; ++j) {
    double sum = params[b1 + j];
    for (Index r = 0; r < d; ++r) sum += x[r] * params[r * h + j];
    pre[j] = sum;
    act[j] = std::max(sum, 0.0);
  }
  for (Index c = 0; c < k; ++c) {
    double sum = params[b2 + c];
    for (Index j = 0; j < h; ++j) sum += act[j] * params[w2 + j * k + c];
    z[c] = sum;
  }
  const double loss = reference_head(shape, z, y, error);
  for (Index j = 0; j < h; ++j) {
    for (Index c = 0; c < k; ++c) gradient[w2 + j * k + c] = act[j] * error[c];
  }
  for (Index c = 0; c < k; ++c) gradient[b2 + c] = error[c];
  for (Index j = 0; j < h; ++j) {
    double back = 0;
    for (Index c = 0; c < k; ++c) back += params[w2 + j * k + c] * error[c];
    const double e1 = pre[j] > 0 ? back : 0.0;
    for (Index r = 0; r < d; ++r) gradient[r * h + j] = x[r] * e1;
    gradient[b1 + j] = e1;
  }
  return loss;
}

inline double reference_loss_sum(const ReferenceShape& shape, const Eigen::VectorXd& params,
                                 const Matrix& x, const Vector& y) {
  double total = 0;
  Eigen::VectorXd unused;
  for (Index i = 0; i < x.rows(); ++i) {
    total += reference_example(shape, params, x.row(i).transpose().cast<double>(), y[i], unused);
  }
  return total;
}

// Uniform in [lo, hi) from a seeded stream (test data).
inline Matrix random_matrix(Index rows, Index cols, double lo, double hi, Rng& rng) {
  Matrix m(rows, cols);
  for (Index i = 0; i < rows; ++i) {
    for (Index j = 0; j < cols; ++j) m(i, j) = static_cast<float>(lo + (hi - lo) * rng.uniform());
  }
  return m;
}

// Targets: class indices for classification, uniform reals in [-2, 2) for regression.
inline Vector random_targets(Index rows, int num_classes, Rng& rng) {
  Vector y(rows);
  for (Index i = 0; i < rows; ++i) {
    y[i] = num_classes == 0
               ? static_cast<float>(-2.0 + 4.0 * rng.uniform())
               : static_cast<float>(rng.below(static_cast<std::uint64_t>(num_classes)));
  }
  return y;
}

}  // namespace dplab::testing

// ||actual - expected|| <= tol * ||expected|| (vectors of equal size), printing the worst
// coordinate with 17 digits on failure.
#define DPLAB_COMPARE_VECTOR_REL(actual, expected, tol)                                         \
  do {                                                                                          \
    const Eigen::VectorXd dplab_va_ = (actual);                                                 \
    const Eigen::VectorXd dplab_ve_ = (expected);                                               \
    QCOMPARE(dplab_va_.size(), dplab_ve_.size());                                               \
    const double dplab_err_ = (dplab_va_ - dplab_ve_).norm();                                   \
    const double dplab_scale_ = std::max(dplab_ve_.norm(), 1e-300);                             \
    if (!(dplab_err_ <= (tol)*dplab_scale_)) {                                                  \
      Eigen::Index dplab_worst_ = 0;                                                            \
      (dplab_va_ - dplab_ve_).cwiseAbs().maxCoeff(&dplab_worst_);                               \
      char dplab_msg_[512];                                                                     \
      std::snprintf(dplab_msg_, sizeof dplab_msg_,                                              \
                    "%s: relative error %.3g > %.3g (norm of expected %.17g); worst [%ld]: "    \
                    "actual %.17g, expected %.17g",                                             \
                    #actual, dplab_err_ / dplab_scale_, static_cast<double>(tol), dplab_scale_, \
                    static_cast<long>(dplab_worst_), dplab_va_[dplab_worst_],                   \
                    dplab_ve_[dplab_worst_]);                                                   \
      QFAIL(dplab_msg_);                                                                        \
    }                                                                                           \
  } while (0)
