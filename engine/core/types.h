// Numeric types shared by the engine. Features are float (the GEMMs dominate and float doubles
// their throughput); accumulations that decide privacy or reported metrics use double.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace dplab {

using Index = Eigen::Index;
// Row-major so that a lot (a set of example rows) is gathered with contiguous row copies and a
// prefix of rows (topRows) is itself a contiguous matrix.
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXf;
using MatrixView = Eigen::Ref<const Matrix>;
using VectorView = Eigen::Ref<const Vector>;
using VectorSpan = Eigen::Ref<Vector>;

}  // namespace dplab
