#include "objective_perturbation/synthetic_glm.h"

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "privacy/mechanisms/gaussian_noise.h"

namespace dplab::objpert {

data::Dataset make_synthetic_glm(const SyntheticGlmOptions& options, const std::string& name) {
  if (options.num_samples < 1) throw InvalidArgument("num_samples must be >= 1");
  if (options.dim < 1) throw InvalidArgument("dim must be >= 1");
  if (!(options.label_noise >= 0 && options.label_noise < 0.5)) {
    throw InvalidArgument("label_noise = " + format_number(options.label_noise) +
                          " must be in [0, 0.5)");
  }
  Vector teacher(options.dim);
  privacy::GaussianNoise(derive_seed(options.seed, 1)).fill(1.0, teacher);
  privacy::GaussianNoise features(derive_seed(options.seed, 2));
  Rng flips(derive_seed(options.seed, 3));

  data::Dataset out;
  out.name = name;
  out.num_classes = 2;
  out.features.resize(options.num_samples, options.dim);
  out.targets.resize(options.num_samples);
  Vector row(options.dim);
  for (Index i = 0; i < options.num_samples; ++i) {
    features.fill(1.0, row);
    out.features.row(i) = row.transpose();
    bool positive = row.cast<double>().dot(teacher.cast<double>()) > 0;
    if (flips.uniform() < options.label_noise) positive = !positive;
    out.targets(i) = positive ? 1.f : 0.f;
  }
  out.validate();
  return out;
}

bool synthetic_glm_preset(const std::string& name, SyntheticGlmOptions& options) {
  if (name == "synthetic-l") {
    options.num_samples = 10000;
    options.dim = 20;
    return true;
  }
  if (name == "synthetic-h") {
    options.num_samples = 10000;
    options.dim = 2000;
    return true;
  }
  return false;
}

}  // namespace dplab::objpert
