// OSO-DPSGD — online sensitivity optimization (Galli, Palamidessi et al. 2023, "Online
// Sensitivity Optimization in Differentially Private Learning", Algorithm 1). DPSGD whose
// clipping threshold C_t and learning rate rho_t follow the sign of their hypergradients:
//   g~_t = (sum_i clip_{C_t}(g_i) + N(0, (nu_g C_t)^2 I)) / L          (line 11, eq. 18)
//   q~_t = (sum_{i: ||g_i||>C_t} g_i/||g_i|| + N(0, nu_q^2 I)) / L    (line 13, eqs. 11, 17)
//   theta_{t+1} = theta_t - rho_t g~_t                                  (line 12, eq. 5)
//   C_{t+1}   = C_t   exp(rho_c sign(g~_t . q~_{t-1}))                 (line 14, eq. 20)
//   rho_{t+1} = rho_t exp(rho_r sign(g~_t . g~_{t-1}))                 (line 15, eq. 21)
// with q~_0 = g~_0 = 0 (sign 0 = 0: the first step adapts nothing), both sums over the SAME lot.
// Privacy (Proposition 1): nu_g = (nu^-2 - nu_q^-2)^(-1/2) makes the pair one Gaussian mechanism
// with multiplier nu = RunShape::dp.noise_multiplier, so the step is ONE query for the
// accountant (privacy/accounting/joint_gaussian.h). nu_q = direction_noise_ratio * nu; ratio 0 =
// the paper's 1% rule (nu_g = 1.01 nu, nu_q = 7.124 nu).
//
// The listing's typos, and what dplab does: line 12 reads theta - rho g^_t — there is no g^;
// the text (eq. 5) steps along the sanitized g~_t with the adapted rho_t (eq. 21), which is what
// we do. Line 13 puts N(0, I nu_g^2) on the direction sum; Proposition 1 (and eq. 17) needs
// nu_q there, which we use. Eq. 17 writes the noise on the mean; line 13 and the unit sensitivity
// of the SUM put it on the sum, divided by the lot size like the gradient — we follow line 13.
// |B| is dplab's expected lot size L (Poisson lots, as for every optimizer).
// C_0 = RunShape::dp.clip, rho_0 = spec.learning_rate; defaults rho_c = rho_r = 2.5e-3.
// The step's shape (query, descent, adaptation) is AdaptiveClipping's (adaptive_clipping.h).
#pragma once

#include <string>

#include "optim/adaptive_clipping.h"

namespace dplab::optim {

class OsoDpSgd final : public AdaptiveClipping {
 public:
  OsoDpSgd(const OptimizerSpec& spec, const RunShape& shape);
  std::string name() const override;

  double learning_rate() const { return learning_rate_; }
  double gradient_noise_multiplier() const { return gradient_multiplier_; }    // nu_g
  double direction_noise_multiplier() const { return direction_multiplier_; }  // nu_q

 private:
  double release(privacy::NoisyGradientOracle& oracle) override;  // lines 4-13
  void adapt() override;                                          // lines 14-15

  double clip_rate_;  // rho_c
  double rate_rate_;  // rho_r
  double gradient_multiplier_ = 0;
  double direction_multiplier_ = 0;
  Vector directions_;           // q~_t
  Vector previous_gradient_;    // g~_{t-1}
  Vector previous_directions_;  // q~_{t-1}
};

}  // namespace dplab::optim
