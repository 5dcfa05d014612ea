// DP-AdamBC — DP-Adam with the DP bias of its second moment removed (Tang, Shpilevskiy &
// Lécuyer, "DP-AdamBC: Your DP-Adam Is Actually DP-SGD (Unless You Apply Bias Correction)",
// AAAI 2024, arXiv 2312.14334; the paper's DP-AdamBC algorithm, section 4).
//
// The oracle releases g~_t = S_t / L + z_t with z_t ~ N(0, (sigma C / L)^2 I), independent of
// everything else, so per coordinate E[g~_t^2] = E[(S_t / L)^2] + Phi with
//   Phi = (sigma C / L)^2                   (the DP noise variance of the lot-mean gradient),
// and Adam's bias-corrected second moment v^_t, a weighted average of the g~_s^2 whose weights
// (1 - beta2) beta2^(t-s) / (1 - beta2^t) sum to 1, carries the same +Phi. When Phi dominates,
// sqrt(v^_t) ~ sigma C / L is the same constant for every coordinate and DP-Adam is DP-SGD with
// momentum at step alpha L / (sigma C) (the title's claim; main paper Theorem 3). DP-AdamBC
// subtracts Phi, with a floor gamma' > 0 where the estimate falls below it:
//   m_t = beta1 m_{t-1} + (1 - beta1) g~_t          v_t = beta2 v_{t-1} + (1 - beta2) g~_t^2
//   m^_t = m_t / (1 - beta1^t)                      v^_t = v_t / (1 - beta2^t)
//   theta_t = theta_{t-1} - alpha m^_t / sqrt(max(v^_t - Phi, gamma'))
// No xi is added outside the square root: gamma' takes Adam's epsilon's place (the authors' code,
// ubc-systopia/DP-AdamBC, jax_implementation/trainer/dp_adambc.py scale_by_adam_corr and
// pytorch_implementation/adam_corr.py: updates = mu_hat / sqrt(max(nu_hat - noise_err, eps_root))
// with noise_err = sigma^2 C^2 / B^2, B the expected batch size, as L here).
// Defaults (default_spec): alpha = 1e-3, beta1 = 0.9, beta2 = 0.999 (Adam's), gamma' = 1e-8 (the
// code's --eps_root default; its README runs 1e-9 on CIFAR-10 and 7e-9 on QNLI). The paper's
// algorithm and equation numbers could not be read through dplab's search tools while this was
// written (only the abstract, the code and third-party restatements of the update): the update
// above is the code's, and the derivation of Phi is the one given here.
//
// spec.epsilon holds gamma' (> 0, so the square root never sees 0); sigma, C and L come from
// RunShape::dp. Non-private (sigma = 0): Phi = 0, Adam with gamma' inside the square root.
//
// Effective step size: mean_j alpha / sqrt(max(v^_{t,j} - Phi, gamma')) (computed on demand in
// O(d), double; NaN before the first step) — unlike DP-Adam's, it does not tend to
// alpha / (sigma C / L) when the gradient vanishes: it grows towards alpha / sqrt(gamma').
#pragma once

#include <cstdint>
#include <string>

#include "optim/adam_moments.h"
#include "optim/optimizer.h"

namespace dplab::optim {

// Phi = (sigma C / L)^2, the per-coordinate variance of the noise on the lot-mean gradient; 0 when
// sigma = 0 (C may then be infinite). No checks: the caller validates (DpAdamBc does).
double dp_noise_variance(double noise_multiplier, double clip, double lot_size);

class DpAdamBc final : public Optimizer {
 public:
  DpAdamBc(const OptimizerSpec& spec, const RunShape& shape);
  std::string name() const override;
  double step(models::Model& model, privacy::NoisyGradientOracle& oracle) override;
  double effective_step_size() const override;

  double noise_variance() const { return noise_variance_; }          // Phi
  const Vector& first_moment() const { return moments_.first(); }    // m_t
  const Vector& second_moment() const { return moments_.second(); }  // v_t
  std::int64_t steps_taken() const { return moments_.steps(); }

 private:
  double learning_rate_, floor_;  // alpha, gamma'
  double noise_variance_;         // Phi
  detail::AdamMoments moments_;   // m_t, v_t and the bias corrections (shared with DPAdam)
};

}  // namespace dplab::optim
