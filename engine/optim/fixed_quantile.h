// FixedQuantile — DPSGD with adaptive clipping to a target quantile of the per-example gradient
// norms (Andrew, Thakkar, McMahan & Ramaswamy 2021, "Differentially private learning with
// adaptive clipping", Alg. 1 with one example per client, as the OSO paper runs it):
//   s~   = sum_{i in lot} ([||g_i|| <= C] - 1/2) + N(0, sigma_b^2)   (released: sensitivity 1/2)
//   b~   = s~ / L + 1/2                                                (noisy unclipped fraction)
//   g~   = (sum_i clip_C(g_i) + N(0, (z_Delta C)^2 I)) / L
//   theta <- theta - alpha g~
//   C    <- C exp(-eta_C (b~ - gamma))                                 (geometric update)
// gamma = target_quantile (the OSO grid: 0.1, 0.3, 0.5, 0.7, 0.9), eta_C = quantile_learning_rate
// (0.2, Andrew et al. and the OSO paper), sigma_b = count_noise_std (0 = max(L/20, z): Andrew et
// al.'s recommendation of expected clients per round / 20, raised to z when that is too small for
// their Theorem 1's split), C_0 = RunShape::dp.clip.
// Privacy (their Theorem 1): z_Delta = (z^-2 - (2 sigma_b)^-2)^(-1/2) makes the pair one Gaussian
// mechanism with multiplier z = RunShape::dp.noise_multiplier: ONE query for the accountant.
// The step's shape (query, descent, adaptation) is AdaptiveClipping's (adaptive_clipping.h).
#pragma once

#include <limits>
#include <string>

#include "optim/adaptive_clipping.h"

namespace dplab::optim {

class FixedQuantile final : public AdaptiveClipping {
 public:
  FixedQuantile(const OptimizerSpec& spec, const RunShape& shape);
  std::string name() const override;

  double gradient_noise_multiplier() const { return gradient_multiplier_; }  // z_Delta
  double count_noise_std() const { return count_noise_std_; }                // sigma_b
  double last_unclipped_fraction() const { return last_fraction_; }          // b~

 private:
  double release(privacy::NoisyGradientOracle& oracle) override;  // g~ and b~ of one lot
  void adapt() override;                                          // the geometric C update

  double target_quantile_;
  double quantile_learning_rate_;
  double count_noise_std_ = 0;
  double gradient_multiplier_ = 0;
  double last_fraction_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace dplab::optim
