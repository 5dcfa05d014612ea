// A seeded random batch for the conv-network suites (numerics: gradients and norms, heap
// allocations in the step): `rows` rows of `dim` features uniform in [0, 1) and labels uniform
// in {0, ..., classes - 1}, or all 0 when classes = 0 (a reconstruction loss ignores them);
// random_dataset: the same as a data::Dataset.
#pragma once

#include <cstdint>
#include <utility>

#include "core/random.h"
#include "core/types.h"
#include "data/dataset.h"

namespace dplab::testing {

struct RandomBatch {
  Matrix x;
  Vector y;
};

inline RandomBatch random_batch(Index rows, Index dim, int classes, std::uint64_t seed) {
  Rng rng(seed);
  RandomBatch b{Matrix(rows, dim), Vector(rows)};
  for (Index i = 0; i < rows; ++i) {
    for (Index j = 0; j < dim; ++j) b.x(i, j) = static_cast<float>(rng.uniform());
    b.y[i] = classes > 0 ? static_cast<float>(rng.below(static_cast<std::uint64_t>(classes))) : 0.f;
  }
  return b;
}

// The same rows as a data set (for an oracle or the trainer).
inline data::Dataset random_dataset(Index rows, Index dim, int classes, std::uint64_t seed) {
  RandomBatch b = random_batch(rows, dim, classes, seed);
  data::Dataset d;
  d.name = "random";
  d.features = std::move(b.x);
  d.targets = std::move(b.y);
  d.num_classes = classes;
  return d;
}

}  // namespace dplab::testing
