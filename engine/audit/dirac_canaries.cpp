#include "audit/dirac_canaries.h"

#include <cmath>

#include <Eigen/QR>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"
#include "privacy/mechanisms/gaussian_noise.h"

namespace dplab::audit {
namespace {
// Seed streams (derive_seed): one per stochastic component of the canaries.
constexpr std::uint64_t kDirectionStream = 1;
constexpr std::uint64_t kInclusionStream = 2;
constexpr std::uint64_t kSamplingStream = 3;
constexpr double kMaxOrthonormaliseFlops = 1e9;
}  // namespace

DiracCanaries::DiracCanaries(int canaries, Index num_params, double canary_norm,
                             double noise_multiplier, double lot_size, std::uint64_t seed)
    : DiracCanaries(canaries, num_params, canary_norm, noise_multiplier, lot_size, seed, true) {}

DiracCanaries::DiracCanaries(std::vector<Index> coordinates, Index num_params, double canary_norm,
                             double noise_multiplier, double lot_size, std::uint64_t seed)
    : DiracCanaries(static_cast<int>(coordinates.size()), num_params, canary_norm, noise_multiplier,
                    lot_size, seed, false) {
  std::vector<bool> taken(static_cast<std::size_t>(num_params), false);
  for (const Index k : coordinates) {
    if (k < 0 || k >= num_params) {
      throw InvalidArgument("Dirac canary coordinate " + std::to_string(k) +
                            " is outside the model's " + std::to_string(num_params) +
                            " parameters");
    }
    if (taken[static_cast<std::size_t>(k)]) {
      throw InvalidArgument("Dirac canary coordinate " + std::to_string(k) +
                            " is used twice: one canary per coordinate");
    }
    taken[static_cast<std::size_t>(k)] = true;
  }
  coordinates_ = std::move(coordinates);
}

DiracCanaries::DiracCanaries(int canaries, Index num_params, double canary_norm,
                             double noise_multiplier, double lot_size, std::uint64_t seed,
                             bool random_directions)
    : canary_norm_(canary_norm),
      noise_multiplier_(noise_multiplier),
      lot_size_(lot_size),
      sampling_(derive_seed(seed, kSamplingStream)) {
  require_at_least("canaries", canaries, 1);
  require_at_least("num_params", static_cast<double>(num_params), 1);
  require_positive("canary_norm", canary_norm);
  require_non_negative("noise_multiplier", noise_multiplier);
  require_positive("lot_size", lot_size);
  if (random_directions) {
    directions_.resize(canaries, num_params);
    privacy::GaussianNoise normals(derive_seed(seed, kDirectionStream));
    Vector row(num_params);
    for (int i = 0; i < canaries; ++i) {
      do {
        normals.fill(1.0, row);
      } while (!(row.norm() > 0));
      directions_.row(i) = (row / row.norm()).transpose();
    }
    // m <= d: orthonormalise (thin QR of the d x m Gaussian matrix), so an included canary adds
    // nothing to another canary's score — the random-direction analogue of the paper's Dirac
    // canaries on distinct coordinates. Skipped when the QR would cost more than ~1e9 flops (then
    // m << d and random unit vectors are already nearly orthogonal, |<u_i, u_j>| ~ 1/sqrt d).
    const double qr_flops =
        static_cast<double>(canaries) * canaries * static_cast<double>(num_params);
    if (canaries <= num_params && qr_flops <= kMaxOrthonormaliseFlops) {
      const Eigen::MatrixXd gaussian = directions_.transpose().cast<double>();
      Eigen::HouseholderQR<Eigen::MatrixXd> qr(gaussian);
      const Eigen::MatrixXd thin_q =
          qr.householderQ() * Eigen::MatrixXd::Identity(num_params, canaries);
      directions_ = thin_q.transpose().cast<float>();
    }
  }
  draw_inclusions(canaries, seed);
  llr_.assign(static_cast<std::size_t>(canaries), 0.0);
  projections_.resize(canaries);
}

void DiracCanaries::draw_inclusions(int canaries, std::uint64_t seed) {
  Rng coin(derive_seed(seed, kInclusionStream));
  for (int i = 0; i < canaries; ++i) {
    included_.push_back((coin() >> 63) != 0);  // S_i: one fair bit
    if (included_.back()) included_rows_.push_back(i);
  }
}

void DiracCanaries::set_job(std::uint64_t sampling_seed, const std::vector<bool>& present) {
  if (!present.empty() && present.size() != included_.size()) {
    throw InvalidArgument("canaries present in the job: " + std::to_string(present.size()) +
                          " flags for " + std::to_string(included_.size()) + " canaries");
  }
  sampling_ = Rng(derive_seed(sampling_seed, kSamplingStream));
  included_rows_.clear();
  for (std::size_t i = 0; i < included_.size(); ++i)
    if (included_[i] && (present.empty() || present[i]))
      included_rows_.push_back(static_cast<Index>(i));
  llr_.assign(included_.size(), 0.0);
  insertions_ = 0;
}

void DiracCanaries::project(VectorView v) {
  if (coordinates_.empty()) {
    projections_.noalias() = directions_ * v;
    return;
  }
  for (std::size_t i = 0; i < coordinates_.size(); ++i)  // <v, e_k> = v[k]
    projections_[static_cast<Index>(i)] = v[coordinates_[i]];
}

void DiracCanaries::add_to_clipped_sum(double sampling_rate, double clip, VectorSpan clipped_sum) {
  last_rate_ = sampling_rate;
  last_norm_ = std::min(canary_norm_, clip);
  for (const Index i : included_rows_) {
    if (sampling_.uniform() < sampling_rate) {  // Poisson sampling, the oracle's q
      if (coordinates_.empty()) {
        clipped_sum -= static_cast<float>(last_norm_) * directions_.row(i).transpose();
      } else {
        clipped_sum[coordinates_[static_cast<std::size_t>(i)]] -= static_cast<float>(last_norm_);
      }
      ++insertions_;
    }
  }
}

void DiracCanaries::observe_release(VectorView noisy_mean) {
  project(noisy_mean);
  const double to_z = -lot_size_ / last_norm_;  // z = -<g^, u> L / c
  const double q = last_rate_;
  const double variance = noise_multiplier_ * noise_multiplier_;
  for (Index i = 0; i < projections_.size(); ++i) {
    const double z = to_z * static_cast<double>(projections_[i]);
    if (variance == 0 || q >= 1) {
      // sigma = 0: no likelihood ratio to speak of; q = 1: the mixture is the plain Gaussian
      // shift, whose log-likelihood ratio is affine in z (same ranking as z / sigma^2).
      llr_[static_cast<std::size_t>(i)] += variance == 0 ? z : (z - 0.5) / variance;
    } else {
      llr_[static_cast<std::size_t>(i)] +=
          privacy::detail::log_add(std::log1p(-q), std::log(q) + (z - 0.5) / variance);
    }
  }
}

std::vector<double> DiracCanaries::final_model_scores(VectorView initial,
                                                      VectorView final_params) const {
  const Vector moved = final_params - initial;
  Vector projections(static_cast<Index>(included_.size()));
  if (coordinates_.empty()) {
    projections.noalias() = directions_ * moved;
  } else {
    for (std::size_t i = 0; i < coordinates_.size(); ++i)
      projections[static_cast<Index>(i)] = moved[coordinates_[i]];
  }
  return {projections.data(), projections.data() + projections.size()};
}

int DiracCanaries::included_count() const {
  return static_cast<int>(included_rows_.size());
}

}  // namespace dplab::audit
