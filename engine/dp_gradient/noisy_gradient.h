// NoisyGradientOracle: the one privacy-costing query of DP training (Abadi et al. 2016, Alg. 1;
// main paper appendix A/J). At the model's current parameters:
//   1. Poisson-sample a lot: each training example joins independently with q = L/n;
//   2. per-example gradients clipped to norm C (Model::clipped_gradient_sum, no materialising):
//      flat, g_i min(1, C/||g_i||), or automatic, g_i C/(||g_i|| + gamma) (Bu et al. 2023,
//      models/clipping.h; the experiment layer sets C = 1 then: sensitivity 1);
//   3. add N(0, sigma^2 C^2 I) to the clipped *sum*;
//   4. divide by the *expected* lot size L (not the realised |lot|), as in the papers.
// Each call is one step for the accountant (sampling_rate q, noise_multiplier sigma).
// A non-private baseline uses clip = kNoClipping and noise_multiplier = 0 (same sampling, /L).
//
// Implementation notes (noisy_gradient.cpp): q = L / n is computed once here and is the single
// source of truth for the sampler and for the accountant (sampling_rate()). The lot's rows are
// gathered into a row-major buffer sized for qn + 10 sqrt(qn) + 64 rows, which grows only if a
// rarer, bigger lot appears; q = 1 uses the training matrix directly (no copy; pixel data are
// converted to floats once, at construction). Pixel rows become floats inside the gather. The noise
// is added after the division, as N(0, (sigma C / L)^2) on the mean — the same distribution as (sum
// + N(0, sigma^2 C^2)) / L. Sampling and noise use two streams derived from `seed`.
//
// Thread-safety: one oracle per training job. No heap allocation per query after construction.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/random.h"
#include "core/types.h"
#include "data/dataset.h"
#include "models/model.h"
#include "privacy/mechanisms/gaussian_noise.h"
#include "privacy/mechanisms/grid_gaussian_noise.h"
#include "privacy/mechanisms/poisson_sampler.h"

namespace dplab::privacy {

// Audit hook (audit/dirac_canaries.h): extra examples whose clipped gradient is given directly
// instead of being computed from a data row. The oracle calls add_to_clipped_sum() on the clipped
// SUM of the lot, before the division by L and before the noise, so each contribution of norm
// <= clip is exactly one more clipped example of the Gaussian mechanism: Poisson-sampled by the
// hook at the oracle's q, it is covered by the same accountant (sampling_rate q, sigma) with no
// change. observe_release() then sees the released noisy mean of the same query (what the
// accountant covers; iterates are post-processing of it). Only the float-noise paths call it;
// secure mode and the divide-by-|lot| variant refuse a hook (InvalidArgument).
class ClippedSumHook {
 public:
  virtual ~ClippedSumHook() = default;
  virtual void add_to_clipped_sum(double sampling_rate, double clip, VectorSpan clipped_sum) = 0;
  virtual void observe_release(VectorView noisy_mean) = 0;
};

struct DpSettings {
  double clip = 1.0;              // C, per-example L2 clipping norm (kNoClipping = none)
  double noise_multiplier = 1.0;  // sigma; noise std on the sum is sigma * C
  double lot_size = 250;          // L, expected lot size; q = L / n
  // 0: the Poisson rate is q = L / n. In (0, 1]: the rate q itself, and L only the public
  // constant the noisy sum is divided by. Release mode private-subsampled trains on a subsample
  // whose realised size is not public: its rate and its L come from L, n and the tuning fraction
  // (tuning/subsampled_search.h), never from the realised rows.
  double sampling_rate = 0;
  // The per-example rule (models/clipping.h): flat min(1, C/||g_i||), or automatic
  // C/(||g_i|| + gamma) with gamma = clip_stability (Bu et al. 2023, AUTO-S). Either way each
  // contribution has norm <= C, so the noise sigma C and the accountant (sigma, q, T) are those
  // of DP-SGD at sensitivity C; automatic clipping is only for the fixed-C queries (query()):
  // the adaptive-clipping queries refuse it.
  models::ClippingMode clipping = models::ClippingMode::kFlat;
  double clip_stability = models::kDefaultClipStability;
  bool is_private() const { return noise_multiplier > 0; }
  // The rule at this C (clip_rule()) or at another C of the same mode (secure mode's rounding C).
  models::Clipping clip_rule() const { return clip_rule(clip); }
  models::Clipping clip_rule(double c) const { return {c, clipping, clip_stability}; }
};

// b~ = noisy_centred_count / L + 1/2: the unclipped fraction from the released centred count and
// the public expected lot size L. Unbiased under Poisson lots of rate q = L/n: E[sum_lot (b_i -
// 1/2)] = q sum_all (b_i - 1/2) = L (f - 1/2), with f the unclipped fraction of the training set.
double unclipped_fraction_estimate(double noisy_centred_count, double lot_size);

class NoisyGradientOracle {
 public:
  // secure: the lot sampler is seeded from getrandom; query() releases the clipped sum on an
  // integer grid with exact discrete Gaussian noise (privacy/mechanisms/grid_gaussian_noise.h,
  // ChaCha20 keyed by OS entropy); the two-release queries (query_with_*) use
  // GaussianNoise::secure() (float Box-Muller on ChaCha20 words). `seed` is then not used for
  // anything privacy-relevant. Validates settings against the data (L in (0, n], C > 0, sigma >= 0;
  // sigma > 0 needs finite C) and throws InvalidArgument naming the field.
  NoisyGradientOracle(const data::Dataset& train, models::Model& model, const DpSettings& settings,
                      std::uint64_t seed, bool secure = false);

  // One query at model.params(): writes the noisy mean gradient into `gradient`
  // (size num_params) and returns the mean per-example loss over the sampled lot (0 if empty).
  double query(VectorSpan gradient);

  // Adaptive clipping: ONE lot, two noisy releases, counted as ONE query (the accountant charges
  // the joint Gaussian multiplier, privacy/accounting/joint_gaussian.h; here the caller passes the
  // split). OSO-DPSGD (Galli et al. 2023, Alg. 1 lines 4-13) at clip C_t:
  //   gradient           = (sum_i g_i min(1, C/||g_i||) + N(0, (nu_g C)^2 I)) / L
  //   clipped_directions = (sum_{i: ||g_i|| > C} g_i / ||g_i||  + N(0, nu_q^2 I)) / L
  // Returns the mean lot loss.
  double query_with_directions(double clip, double gradient_noise_multiplier,
                               double direction_noise_multiplier, VectorSpan gradient,
                               VectorSpan clipped_directions);
  // FixedQuantile (Andrew et al. 2021, Alg. 1, one example per "client") at clip C:
  //   gradient            = (sum_i g_i min(1, C/||g_i||) + N(0, (z_Delta C)^2 I)) / L
  //   noisy_centred_count = sum_i (b_i - 1/2) + N(0, sigma_b^2),  b_i = [||g_i|| <= C]
  // The count is released CENTRED, as Andrew et al. release it: adding or removing one example
  // moves sum_i (b_i - 1/2) by exactly 1/2 (the uncentred sum_i b_i moves by 0 or 1, and under
  // Poisson lots |lot| is not public, so it cannot be centred afterwards). Sensitivity 1/2 with
  // noise sigma_b is multiplier 2 sigma_b, the split privacy/accounting/joint_gaussian.h charges.
  // The unclipped fraction is the post-processing unclipped_fraction_estimate() below. Returns the
  // mean lot loss.
  double query_with_unclipped_count(double clip, double gradient_noise_multiplier,
                                    double count_noise_std, VectorSpan gradient,
                                    double& noisy_centred_count);

  // Reproduction variant (docs/reproduction.md), never the default: query() divides the noisy
  // sum by the realised lot size max(|lot|, 1), as the main paper's Algorithm 2 line 8 prints,
  // instead of L. The accountant analyses (S + Z) / L; |lot| depends on the data, so
  // (S + Z) / |lot| is not a post-processing of the Gaussian mechanism's output and epsilon does
  // not cover it. The adaptive-clipping queries ignore it.
  void set_divide_by_realized_lot(bool on) { divide_by_realized_lot_ = on; }
  bool divides_by_realized_lot() const { return divide_by_realized_lot_; }

  // Opt-in copy of what query() released (the noisy mean gradient g~, num_params entries), for
  // views that explain a step (the Playground draws noise = L g~ - S). Off by default; the copy
  // is O(d) per query and changes nothing released. last_release() is empty until a query ran
  // with keeping on.
  void keep_last_release(bool on) { keep_last_release_ = on; }
  const Vector& last_release() const { return last_release_; }
  // Installs (or, with nullptr, removes) the audit hook; not owned, must outlive the queries.
  void set_clipped_sum_hook(ClippedSumHook* hook);

  std::int64_t queries_made() const { return queries_; }
  double sampling_rate() const { return sampling_rate_; }
  const DpSettings& settings() const { return settings_; }
  Index last_lot_size() const { return last_lot_size_; }
  // Indices (into the training set, sorted) of the lot sampled by the last query.
  const std::vector<Index>& last_lot_indices() const { return lot_indices_; }
  // Standard deviation of the noise on each coordinate of the returned mean: sigma C / L
  // (0 when not private).
  double noise_std_of_mean() const;
  models::Model& model() { return model_; }

 private:
  void check_output(VectorSpan out, const char* what) const;
  void check_adaptive_clip(double clip, double gradient_noise_multiplier) const;
  // The shared shape of the two adaptive-clipping queries (defined and used in the .cpp only).
  template <typename SecondRelease>
  double joint_query(double clip, double gradient_noise_multiplier, VectorSpan gradient,
                     SecondRelease&& second_release);
  // Poisson-samples the next lot (counts one query) and gathers it; returns |lot|.
  Index sample_lot();
  MatrixView lot_features(Index lot) const;
  VectorView lot_targets(Index lot) const;
  // Clipped gradient sum over the sampled lot into gradient (norms_ filled); returns loss sum.
  double clipped_sum_on_lot(Index lot, const models::Clipping& clip, VectorSpan gradient);

  const data::Dataset& train_;
  models::Model& model_;
  DpSettings settings_;
  double sampling_rate_;
  PoissonSampler sampler_;
  Rng rng_;  // drives the sampler
  GaussianNoise noise_;
  std::optional<GridGaussianNoise> grid_noise_;  // secure mode, query() with noise
  std::int64_t queries_ = 0;
  Index last_lot_size_ = 0;
  bool divide_by_realized_lot_ = false;
  bool keep_last_release_ = false;
  Vector last_release_;
  ClippedSumHook* hook_ = nullptr;
  // Pre-allocated buffers (capacity grows only on a rare oversized lot).
  std::vector<Index> lot_indices_;
  Matrix lot_features_;
  Vector lot_targets_;
  Vector norms_;
  Vector weights_;      // per-example weights of the clipped-direction sum
  Vector count_noise_;  // one normal for the noisy count
};

}  // namespace dplab::privacy
