// DPAdam (Kingma & Ba 2014, Alg. 1, on noisy clipped gradients; main paper appendix A.1, §6):
//   m_t = beta1 m_{t-1} + (1 - beta1) g~_t          v_t = beta2 v_{t-1} + (1 - beta2) g~_t^2
//   m^_t = m_t / (1 - beta1^t)                      v^_t = v_t / (1 - beta2^t)
//   theta_t = theta_{t-1} - alpha m^_t / (sqrt(v^_t) + xi)
// (xi outside the square root, as in Kingma & Ba, PyTorch and the main paper's code; the variant
// OptimizerSpec::adam_xi_inside_sqrt uses sqrt(v^_t + xi), the form of the paper's section 6.1,
// docs/reproduction.md). Defaults alpha = 1e-3,
// beta1 = 0.9, beta2 = 0.999, xi = 1e-8 (default_spec()).
//
// Effective step size (main paper §6.1, Theorem 3): the per-coordinate factor that multiplies
// the bias-corrected first moment,
//   ESS_j = alpha / (sqrt(v^_{t,j}) + xi),   effective_step_size() = mean_j ESS_j.
// When the data gradient vanishes, g~ is pure noise N(0, (sigma C / L)^2), so v^_t -> (sigma C/L)^2
// and ESS -> alpha / (sigma C / L + xi) (Theorem 3), the constant DPAdamWOSM uses. It is computed
// on demand in O(d); NaN before the first step.
#pragma once

#include <cstdint>
#include <string>

#include "optim/adam_moments.h"
#include "optim/optimizer.h"

namespace dplab::optim {

class DpAdam final : public Optimizer {
 public:
  DpAdam(const OptimizerSpec& spec, const RunShape& shape);
  std::string name() const override;
  double step(models::Model& model, privacy::NoisyGradientOracle& oracle) override;
  double effective_step_size() const override;

  const Vector& first_moment() const { return moments_.first(); }    // m_t
  const Vector& second_moment() const { return moments_.second(); }  // v_t
  std::int64_t steps_taken() const { return moments_.steps(); }

 private:
  double learning_rate_, epsilon_;
  bool xi_inside_sqrt_;
  detail::AdamMoments moments_;
};

}  // namespace dplab::optim
