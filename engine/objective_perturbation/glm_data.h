// GLM design for objective perturbation (the paper, section 5): every feature row x_i is scaled
// to unit L2 norm (a per-row map, so it costs no privacy), then a constant bias feature 1 is
// appended, so every row of the design has norm exactly sqrt(2) (0 rows stay 0 before the bias).
// Labels: binary classes {0, 1} become y in {-1, +1}; regression targets are kept.
// Double precision: Algorithm 1 stops at an ABSOLUTE gradient norm tau of a SUM over n rows, which
// float cannot resolve for n ~ 1e4..1e5.
#pragma once

#include <Eigen/Core>

#include "data/dataset.h"

namespace dplab::objpert {

// Every design row has norm <= this (exactly this unless its feature row was 0): public.
inline constexpr double kDesignRowNormBound = 1.4142135623730951;

using DesignMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct GlmData {
  DesignMatrix x;            // n x (d + 1), last column = 1
  Eigen::VectorXd y;         // n, +-1 for classification
  Eigen::VectorXd row_norm;  // ||x_i|| of the design rows (sqrt(2) unless a feature row was 0)
  bool classification = true;

  Eigen::Index size() const { return x.rows(); }
  Eigen::Index dim() const { return x.cols(); }
  double max_row_norm() const;
};

// Throws InvalidArgument for multi-class data (objective perturbation here is binary or
// regression).
GlmData make_glm_data(const data::Dataset& dataset);

// Accuracy of sign(x^T theta) against y (classification); theta has dim() entries.
double glm_accuracy(const GlmData& data, const Eigen::VectorXd& theta);

}  // namespace dplab::objpert
