#include "objective_perturbation/glm_data.h"

#include <string>

#include "core/error.h"
#include "data/feature_rows.h"

namespace dplab::objpert {

double GlmData::max_row_norm() const {
  return row_norm.size() ? row_norm.maxCoeff() : 0.0;
}

GlmData make_glm_data(const data::Dataset& dataset) {
  if (dataset.num_classes > 2) {
    throw InvalidArgument("data set '" + dataset.name + "' has " +
                          std::to_string(dataset.num_classes) +
                          " classes: objective perturbation supports binary classification and "
                          "regression");
  }
  const Eigen::Index n = dataset.size(), d = dataset.dim();
  GlmData out;
  out.classification = !dataset.is_regression();
  out.x.resize(n, d + 1);
  out.y.resize(n);
  out.row_norm.resize(n);
  Matrix scratch;  // a pixel row as floats
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::VectorXd row =
        data::feature_rows(dataset, i, 1, scratch).row(0).cast<double>().transpose();
    const double norm = row.norm();
    out.x.row(i).head(d) = (norm > 0 ? Eigen::VectorXd(row / norm) : row).transpose();
    out.x(i, d) = 1.0;
    out.row_norm(i) = out.x.row(i).norm();
    const double target = dataset.targets(i);
    out.y(i) = out.classification ? (target > 0.5 ? 1.0 : -1.0) : target;
  }
  return out;
}

double glm_accuracy(const GlmData& data, const Eigen::VectorXd& theta) {
  if (theta.size() != data.dim()) throw InvalidArgument("theta has the wrong dimension");
  if (data.size() == 0) return 0.0;
  const Eigen::VectorXd margin = (data.x * theta).cwiseProduct(data.y);
  return static_cast<double>((margin.array() > 0).count()) / static_cast<double>(data.size());
}

}  // namespace dplab::objpert
