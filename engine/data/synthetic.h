// Synthetic data sets, generated from a seed (identical on every platform: dplab::Rng only).
//
// Linear regression, paper section 4.1: x_1..x_d ~ U(0, 1), y = x . w*, w* = 10 * 1^d, d = 10,
// no noise (the non-private model reaches loss 0). y is computed in double from the stored float
// features, then rounded to float once.
//
// Binary classification: a logistic teacher. w_t ~ N(0, I_d) (its own seed stream),
// x ~ U(0, 1)^d, y = [w_t . (x - 0.5) > 0], then each label flipped with probability
// `label_noise`. Centring at 0.5 keeps the classes balanced in expectation; features stay in [0,1].
#pragma once

#include <cstdint>

#include "data/dataset.h"

namespace dplab::data {

struct SyntheticLinearOptions {
  Index num_samples = 10000;
  Index dim = 10;
  double weight = 10.0;  // every entry of w*
  std::uint64_t seed = 0;
};
Dataset make_synthetic_linear(const SyntheticLinearOptions& options = {});

struct SyntheticBinaryOptions {
  Index num_samples = 10000;
  Index dim = 10;
  double label_noise = 0.05;  // probability of flipping each label, in [0, 0.5)
  std::uint64_t seed = 0;
};
Dataset make_synthetic_binary(const SyntheticBinaryOptions& options = {});

// The teacher weights w_t used by make_synthetic_binary for these options (d entries).
Vector synthetic_binary_teacher(const SyntheticBinaryOptions& options);

}  // namespace dplab::data
