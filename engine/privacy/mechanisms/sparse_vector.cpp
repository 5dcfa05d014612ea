#include "privacy/mechanisms/sparse_vector.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::privacy {

double sample_laplace(Rng& rng, double scale) {
  return scale * (std::log(rng.uniform_open_zero()) - std::log(rng.uniform_open_zero()));
}

double laplace_survival(double x, double scale) {
  return x >= 0 ? 0.5 * std::exp(-x / scale) : 1.0 - 0.5 * std::exp(x / scale);
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

// Why select() may skip untouched coordinates (its law equals select_by_full_scan's exactly).
// Fix the current noisy threshold rho. A coordinate i with query value u_i = 0 (not touched by
// the lot) passes iff v_i >= rho, v_i ~ Lap(2 sigma1) independent of everything else, i.e. with
// probability s(rho) = Pr[Lap(2 sigma1) >= rho]. Along a run of m consecutive untouched
// coordinates, while no pass happens rho stays the same, so the pass indicators are i.i.d.
// Bernoulli(s): the offset J of the first pass in the run has Pr[J = j] = (1 - s)^j s
// (j < m) and Pr[no pass] = (1 - s)^m, which is the law of G ~ Geometric(s) (failures before the
// first success) with "no pass" = {G >= m}; G = floor(log U / log(1 - s)), U ~ U(0, 1]:
// Pr[G >= j] = Pr[log U <= j log(1 - s)] = (1 - s)^j. At a pass the scan draws a fresh rho that
// is independent of all earlier draws, and the v_l of the coordinates not yet examined are
// independent of the past, so the scan restarts from the next coordinate with the same law as
// the full scan does (memorylessness). The v_i of coordinates that did not pass are never
// released (nor used) by either scan: the selected set is a function of the pass indicators
// only. For the same reason a touched coordinate (value u) is decided by one Bernoulli draw,
// U < Pr[Lap(2 sigma1) >= rho - u] = Pr[u + v_i >= rho], instead of drawing v_i. Hence both
// scans have the same output law (not the same random stream), up to floating-point rounding;
// the χ² law tests in tests/engine/test_coordinate_selection.cpp check it. Cost: one uniform and
// one log per run of untouched coordinates the scan enters (<= |touched| + c1 + 1), one uniform
// and one exp per touched coordinate, one Laplace draw and one exp/log1p per pass:
// O(|touched| + c1).
void SparseVector::select(const SparseVectorView& gradient, Rng& rng,
                          std::vector<Index>& selected) {
  check_dimension(gradient);
  selected.clear();
  const double value_noise = 2.0 * threshold_noise_;
  double noisy_threshold = 0, untouched_pass = 0, log_untouched_fail = 0;
  auto fresh_threshold = [&] {
    noisy_threshold = settings_.threshold + sample_laplace(rng, threshold_noise_);
    untouched_pass = laplace_survival(noisy_threshold, value_noise);  // s(rho)
    log_untouched_fail = std::log1p(-untouched_pass);
  };
  fresh_threshold();
  // Appends i; false when c1 answers are reached (then the scan halts).
  auto pass = [&](Index i) {
    selected.push_back(i);
    if (static_cast<Index>(selected.size()) >= settings_.max_count) return false;
    fresh_threshold();
    return true;
  };
  Index position = 0;    // the next coordinate to examine
  std::size_t next = 0;  // the next touched coordinate
  while (position < settings_.dimension) {
    const Index run_end =
        next < gradient.indices.size() ? gradient.indices[next] : settings_.dimension;
    // The untouched run [position, run_end): jump to its first pass, if any.
    while (position < run_end) {
      const double remaining = static_cast<double>(run_end - position);
      double gap = remaining;  // "no pass in the run"
      if (untouched_pass >= 1.0) {
        gap = 0.0;
      } else if (untouched_pass > 0.0) {
        gap = std::floor(std::log(rng.uniform_open_zero()) / log_untouched_fail);
      }
      if (!(gap < remaining)) {
        position = run_end;
        break;
      }
      position += static_cast<Index>(gap);
      if (!pass(position)) return;
      ++position;
    }
    if (position >= settings_.dimension) break;
    // The touched coordinate run_end.
    const double u =
        std::min(std::abs(static_cast<double>(gradient.values[next])), settings_.sensitivity);
    if (rng.uniform() < laplace_survival(noisy_threshold - u, value_noise) && !pass(position))
      return;
    ++position;
    ++next;
  }
}

void SparseVector::select_by_full_scan(const SparseVectorView& gradient, Rng& rng,
                                       std::vector<Index>& selected) const {
  check_dimension(gradient);
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

void SparseVector::check_dimension(const SparseVectorView& gradient) const {
  if (gradient.dimension != settings_.dimension) {
    throw InvalidArgument("sparse vector: gradient dimension " +
                          std::to_string(gradient.dimension) +
                          " != p = " + std::to_string(settings_.dimension));
  }
}

}  // namespace dplab::privacy
