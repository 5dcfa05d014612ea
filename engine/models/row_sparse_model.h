// RowSparseModel: a model whose parameters are a (rows x width) row-major matrix, flattened,
// and whose per-example gradient touches only a few rows (an embedding table: word2vec, a
// bag-of-words or one-hot layer). Sparse DP training (optim/sparse_dp_optimizer.h) asks for one
// example's gradient at a time as (touched rows, their gradient rows), so a step costs
// O(lot size * touched rows * width), never O(rows * width).
//
// Examples are addressed by index into the model's bound training set.
// Not thread-safe (scratch buffers).
#pragma once

#include <vector>

#include "core/types.h"

namespace dplab::models {

struct RowGradient {
  std::vector<Index> rows;    // distinct touched rows
  std::vector<float> values;  // rows.size() * width, row-major, aligned with `rows`
};

class RowSparseModel {
 public:
  virtual ~RowSparseModel() = default;
  virtual Index num_rows() const = 0;
  virtual Index row_width() const = 0;
  Index num_params() const { return num_rows() * row_width(); }
  virtual Vector& params() = 0;
  // Training examples the model is bound to.
  virtual Index num_examples() const = 0;
  // Loss of training example `example` and its gradient (rows distinct; duplicates merged).
  virtual double example_gradient(Index example, RowGradient& gradient) = 0;
};

}  // namespace dplab::models
