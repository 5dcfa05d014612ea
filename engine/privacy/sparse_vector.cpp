#include "privacy/sparse_vector.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::privacy {

double sample_laplace(Rng& rng, double scale) {
  return scale * (std::log(rng.uniform_open_zero()) - std::log(rng.uniform_open_zero()));
}

double sparse_vector_noise_scale(const SparseVectorSettings& settings, double epsilon_part) {
  return settings.sensitivity *
         std::sqrt(32.0 * static_cast<double>(settings.max_count) *
                   std::log(2.0 / settings.delta)) /
         epsilon_part;
}

double sparse_vector_default_threshold(const SparseVectorSettings& settings) {
  const double sigma1 = sparse_vector_noise_scale(settings, 0.95 * settings.epsilon);
  const double ratio =
      static_cast<double>(settings.dimension) / (2.0 * static_cast<double>(settings.max_count));
  return ratio > 1 ? 2.0 * sigma1 * std::log(ratio) : 0.0;
}

SparseVector::SparseVector(const SparseVectorSettings& settings) : settings_(settings) {
  require_at_least("dimension", static_cast<double>(settings.dimension), 1);
  require_at_least("c1", static_cast<double>(settings.max_count), 1);
  require_positive("svt_epsilon", settings.epsilon);
  require_open_interval("svt_delta", settings.delta, 0, 1);
  require_positive("S0", settings.sensitivity);
  require_finite("svt_threshold", settings.threshold);
  threshold_noise_ = sparse_vector_noise_scale(settings, 0.95 * settings.epsilon);
}

void SparseVector::select(const SparseVectorView& gradient, Rng& rng,
                          std::vector<Index>& selected) {
  if (gradient.dimension != settings_.dimension) {
    throw InvalidArgument("sparse vector: gradient dimension " +
                          std::to_string(gradient.dimension) +
                          " != p = " + std::to_string(settings_.dimension));
  }
  selected.clear();
  double noisy_threshold = settings_.threshold + sample_laplace(rng, threshold_noise_);
  std::size_t next = 0;  // next touched coordinate
  for (Index i = 0; i < settings_.dimension; ++i) {
    double u = 0;
    if (next < gradient.indices.size() && gradient.indices[next] == i) {
      u = std::min(std::abs(static_cast<double>(gradient.values[next])), settings_.sensitivity);
      ++next;
    }
    if (u + sample_laplace(rng, 2.0 * threshold_noise_) >= noisy_threshold) {
      selected.push_back(i);
      if (static_cast<Index>(selected.size()) >= settings_.max_count) break;
      noisy_threshold = settings_.threshold + sample_laplace(rng, threshold_noise_);
    }
  }
}

}  // namespace dplab::privacy
