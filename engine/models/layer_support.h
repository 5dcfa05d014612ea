// Helpers shared by the layer implementations (network_layers.cpp: pooling, activations, dense;
// conv_layers.cpp: convolutions; ghost_norms.cpp: per-example norms). Internal to engine/models.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/random.h"
#include "core/types.h"
#include "models/network_layers.h"

namespace dplab::models::detail {

using ConstMap = Eigen::Map<const Matrix>;
using MutMap = Eigen::Map<Matrix>;
using ColMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
using ColMap = Eigen::Map<ColMatrix>;
using ConstColMap = Eigen::Map<const ColMatrix>;
using RowMap = Eigen::Map<Eigen::RowVectorXf>;
using ConstRowMap = Eigen::Map<const Eigen::RowVectorXf>;

inline std::string shape_text(MapShape s) {
  return std::to_string(s.height) + "x" + std::to_string(s.width) + "x" +
         std::to_string(s.channels);
}

inline void require_layer(bool ok, const std::string& layer, const std::string& message) {
  if (!ok) throw InvalidArgument(layer + ": " + message);
}

// Grows a scratch matrix to at least rows x cols (never shrinks: no per-step allocation).
inline void ensure(Matrix& buffer, Index rows, Index cols) {
  if (buffer.rows() < rows || buffer.cols() != cols) buffer.resize(rows, cols);
}

inline void fill_uniform(float* values, Index count, double limit, Rng& rng) {
  for (Index i = 0; i < count; ++i) {
    values[i] = static_cast<float>(limit * (2.0 * rng.uniform() - 1.0));
  }
}

// Short contiguous runs (a window row of k c floats: 8 for the cnn's first layer, 64 for its
// second) copied and added in fixed chunks of 8 floats (one unaligned 256-bit move each
// with AVX) and a scalar tail: a dynamic-size Eigen map or memcpy spends more on its alignment
// peeling and call than on 8 floats.
using Chunk = Eigen::Matrix<float, 8, 1>;
inline void copy_run(const float* src, Index n, float* dst) {
  Index j = 0;
  for (; j + 8 <= n; j += 8) Eigen::Map<Chunk>(dst + j) = Eigen::Map<const Chunk>(src + j);
  for (; j < n; ++j) dst[j] = src[j];
}
inline void add_run(const float* src, Index n, float* dst) {
  Index j = 0;
  for (; j + 8 <= n; j += 8) Eigen::Map<Chunk>(dst + j) += Eigen::Map<const Chunk>(src + j);
  for (; j < n; ++j) dst[j] += src[j];
}

// out (R x N) = or += lhs (R x K) rhs (K x N), as GEMMs on chunks small enough that Eigen packs
// them on the stack. Eigen's GEMM packs a kc x mc block of one operand and a kc x nc block of the
// other (kc <= K, mc and nc <= R or N) and takes them from the heap when one exceeds
// EIGEN_STACK_ALLOCATION_LIMIT (128 KiB): the cnn's forward GEMM over a 16-row block (3,136 x 64 x
// 16) packed 800 KiB per call, i.e. a malloc per layer per block. Chunks of at most kGemmRows rows
// and kc x max(rows, N) <= kGemmPackFloats (96 KiB) keep every pack under the limit (for
// N <= kGemmPackFloats), so the step allocates nothing (test_conv_step_allocations); the row
// chunks also keep each GEMM's operands in L2.
inline constexpr Index kGemmRows = 256;
inline constexpr Index kGemmPackFloats = 24 * 1024;
template <typename Out, typename Lhs, typename Rhs>
void multiply(Out&& out, const Lhs& lhs, const Rhs& rhs, bool accumulate) {
  const Index rows = lhs.rows(), depth = lhs.cols(), cols = rhs.cols();
  for (Index r0 = 0; r0 < rows; r0 += kGemmRows) {
    const Index r = std::min(kGemmRows, rows - r0);
    const Index kc = std::max<Index>(1, kGemmPackFloats / std::max(r, cols));
    for (Index k0 = 0; k0 < depth; k0 += kc) {
      const Index k = std::min(kc, depth - k0);
      auto target = out.middleRows(r0, r);
      const auto product = lhs.block(r0, k0, r, k) * rhs.middleRows(k0, k);
      if (accumulate || k0 > 0) {
        target.noalias() += product;
      } else {
        target.noalias() = product;
      }
    }
  }
}

}  // namespace dplab::models::detail
