// Synthetic generators (see synthetic.h for the math).
#include "data/synthetic.h"

#include <cmath>
#include <numbers>

#include "core/error.h"
#include "core/memory_check.h"
#include "core/random.h"
#include "core/validate.h"

namespace dplab::data {
namespace {

void check_shape(Index n, Index d) {
  require_at_least("num_samples", static_cast<double>(n), 1);
  require_at_least("dim", static_cast<double>(d), 1);
  require_memory("dataset.num_samples x dataset.dim = " + std::to_string(n) + " x " +
                     std::to_string(d) + " (the synthetic feature matrix)",
                 static_cast<double>(n) * static_cast<double>(d) * sizeof(float));
}

// Stream ids for derive_seed, so features and teacher never share random numbers.
constexpr std::uint64_t kFeatureStream = 1;
constexpr std::uint64_t kTeacherStream = 2;
constexpr std::uint64_t kNoiseStream = 3;

void fill_uniform(Matrix& x, std::uint64_t seed) {
  Rng rng(seed);
  float* p = x.data();
  for (Index k = 0; k < x.size(); ++k) p[k] = static_cast<float>(rng.uniform());
}

// x1..xd. (Appending, not "x" + to_string: GCC 12 warns falsely on the latter, -Wrestrict.)
void name_features(Dataset& data) {
  for (Index j = 0; j < data.dim(); ++j) {
    std::string name = "x";
    name += std::to_string(j + 1);
    data.feature_names.push_back(std::move(name));
  }
}

}  // namespace

Dataset make_synthetic_linear(const SyntheticLinearOptions& options) {
  check_shape(options.num_samples, options.dim);
  require_finite("weight", options.weight);
  Dataset data;
  data.name = "synthetic-linear";
  data.features.resize(options.num_samples, options.dim);
  fill_uniform(data.features, derive_seed(options.seed, kFeatureStream));
  data.targets.resize(options.num_samples);
  for (Index i = 0; i < options.num_samples; ++i) {
    double y = 0;
    for (Index j = 0; j < options.dim; ++j)
      y += static_cast<double>(data.features(i, j)) * options.weight;
    data.targets[i] = static_cast<float>(y);
  }
  name_features(data);
  return data;
}

Vector synthetic_binary_teacher(const SyntheticBinaryOptions& options) {
  check_shape(options.num_samples, options.dim);
  Rng rng(derive_seed(options.seed, kTeacherStream));
  Vector w(options.dim);
  // Box-Muller: N(0, 1) from two uniforms.
  for (Index j = 0; j < options.dim; ++j) {
    const double r = std::sqrt(-2.0 * std::log(rng.uniform_open_zero()));
    w[j] = static_cast<float>(r * std::cos(2.0 * std::numbers::pi * rng.uniform()));
  }
  return w;
}

Dataset make_synthetic_binary(const SyntheticBinaryOptions& options) {
  check_shape(options.num_samples, options.dim);
  require_finite("label_noise", options.label_noise);
  if (!(options.label_noise >= 0 && options.label_noise < 0.5)) {
    fail_field("label_noise", options.label_noise, "must be in [0, 0.5)");
  }
  const Vector teacher = synthetic_binary_teacher(options);
  Dataset data;
  data.name = "synthetic-binary";
  data.num_classes = 2;
  data.class_names = {"0", "1"};
  data.features.resize(options.num_samples, options.dim);
  fill_uniform(data.features, derive_seed(options.seed, kFeatureStream));
  data.targets.resize(options.num_samples);
  Rng noise(derive_seed(options.seed, kNoiseStream));
  for (Index i = 0; i < options.num_samples; ++i) {
    double margin = 0;
    for (Index j = 0; j < options.dim; ++j) {
      margin += static_cast<double>(teacher[j]) * (static_cast<double>(data.features(i, j)) - 0.5);
    }
    bool positive = margin > 0;
    if (noise.uniform() < options.label_noise) positive = !positive;
    data.targets[i] = positive ? 1.0f : 0.0f;
  }
  name_features(data);
  return data;
}

}  // namespace dplab::data
