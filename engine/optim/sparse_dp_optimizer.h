// Sparse DP training step (Zhang, Mironov & Hejazinia, Algorithm 3), with DP-SGD and non-private
// training of the same RowSparseModel as baselines. One step:
//
//   lot B ~ Poisson(q = b/n)                                                    (line 3)
//   g^ = (1/b) sum_{j in B} g_j / max(1, ||g_j||/S1)                            (lines 4-5)
//   kSparse:    M = A(g^, gamma) (a CoordinateSelector), Delta = M ⊙ g^         (line 7)
//               Delta^ = Delta / max(1, ||Delta||/S2)                           (line 9)
//               Delta~ = Delta^ + N(0, sigma^2 min(S1^2/b^2, S2^2)) on M only   (line 11)
//               theta -= base_update(Delta~) on the coordinates in M only       (line 12)
//   kDpSgd:     g~ = g^ + N(0, (sigma S1/b)^2 I_p), base update on all p coordinates
//               (Abadi et al. 2016 with the same clipping and divisor b).
//   kNonPrivate: no clipping, no noise, base update on the touched coordinates only
//               (lazy moments; the coordinates of an untouched row have zero gradient).
// b is the EXPECTED lot size (the divisor does not depend on the realised lot).
//
// Cost: kSparse O(|B| * touched rows * width + selector), kDpSgd O(p), kNonPrivate sparse.
// Buffers are sized at construction; no allocation per step after the first few.
// Determinism: sampling, selection and noise draw from streams derived from `seed`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/random.h"
#include "models/row_sparse_model.h"
#include "optim/sparse_update.h"
#include "privacy/mechanisms/coordinate_selection.h"
#include "privacy/mechanisms/gaussian_noise.h"
#include "privacy/mechanisms/poisson_sampler.h"

namespace dplab::optim {

enum class SparseTrainingMethod { kNonPrivate, kDpSgd, kSparse };

struct SparseDpSettings {
  SparseTrainingMethod method = SparseTrainingMethod::kSparse;
  double lot_size = 20;           // b
  double clip1 = 15;              // S1 (per example)
  double clip2 = 0.05;            // S2 (after selection; kSparse only)
  double noise_multiplier = 0.5;  // sigma
};

class SparseDpOptimizer {
 public:
  // selector: required for kSparse, ignored otherwise.
  SparseDpOptimizer(const SparseDpSettings& settings, models::RowSparseModel& model,
                    std::unique_ptr<privacy::CoordinateSelector> selector,
                    std::unique_ptr<SparseUpdate> update, std::uint64_t seed);

  // One step; returns the mean loss over the sampled lot (0 for an empty lot).
  double step();

  // Coordinates updated by the last step (ascending): M for kSparse, touched ones for
  // kNonPrivate; empty for kDpSgd (all coordinates).
  const std::vector<Index>& last_updated() const { return updated_; }
  // The noisy update Delta~ on last_updated() (same order).
  const std::vector<float>& last_update_values() const { return update_values_; }
  // Noise std on each updated coordinate: sigma min(S1/b, S2) (kSparse), sigma S1/b (kDpSgd).
  double noise_std() const;
  std::int64_t steps() const { return steps_; }
  const SparseDpSettings& settings() const { return settings_; }

 private:
  SparseDpSettings settings_;
  models::RowSparseModel& model_;
  std::unique_ptr<privacy::CoordinateSelector> selector_;
  std::unique_ptr<SparseUpdate> update_;
  privacy::PoissonSampler sampler_;
  Rng sampling_rng_, selection_rng_;
  privacy::GaussianNoise noise_;
  std::int64_t steps_ = 0;
  // Scratch.
  std::vector<Index> lot_;
  models::RowGradient example_;
  Vector sum_;  // dense accumulator of clipped gradients (zero between steps)
  std::vector<std::uint8_t> row_touched_;
  std::vector<Index> touched_rows_;
  std::vector<Index> touched_coordinates_;
  std::vector<float> touched_values_;  // g^ on touched_coordinates_
  std::vector<Index> updated_;
  std::vector<float> update_values_;
  Vector dense_;
  Vector noise_buffer_;
};

}  // namespace dplab::optim
