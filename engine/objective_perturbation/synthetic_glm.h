// Synthetic GLM classification sets of the objective-perturbation paper's shape (its Synthetic-L
// and Synthetic-H come from Iyengar et al. 2019: a low- and a high-dimensional linearly
// separable-up-to-noise binary problem). Our generator (the paper's appendix text is not part of
// the paper copy we reproduce from, so this is OUR construction, stated here):
//   w* ~ N(0, I_d) (its own seed stream), x ~ N(0, I_d), y = [w*^T x > 0], then each label flipped
//   with probability label_noise (default 5%, so the Bayes accuracy is 95%).
// Rows are later scaled to unit norm by make_glm_data, so the scale of x does not matter.
// Presets: synthetic-l: n = 10,000, d = 20; synthetic-h: n = 10,000, d = 2,000.
// Features are stored as float (the Dataset type); generation is identical on every platform.
#pragma once

#include <cstdint>
#include <string>

#include "data/dataset.h"

namespace dplab::objpert {

struct SyntheticGlmOptions {
  Index num_samples = 10000;
  Index dim = 20;
  double label_noise = 0.05;  // in [0, 0.5)
  std::uint64_t seed = 0;
};

data::Dataset make_synthetic_glm(const SyntheticGlmOptions& options, const std::string& name);

// "synthetic-l" / "synthetic-h" => true and fills n, d; anything else => false.
bool synthetic_glm_preset(const std::string& name, SyntheticGlmOptions& options);

}  // namespace dplab::objpert
