// DPAdamWOSM — DPAdam without second moment (main paper §6, Appendix J, Algorithm 2):
//   ESS = alpha / (sigma C / L + xi)            (line 3; Theorem 3's limit of DPAdam's step)
//   m_t = beta1 m_{t-1} + (1 - beta1) g~_t      (line 9)
//   m^_t = m_t / (1 - beta1^t)                  (line 10)
//   theta_t = theta_{t-1} - ESS m^_t            (line 11)
// The paper fixes alpha = 1e-3 (DPAdam's default) and xi = 1e-8; here alpha is
// spec.learning_rate (default_spec() gives 1e-3) and xi is spec.epsilon (default 1e-8).
// sigma, C and L come from RunShape::dp. Non-private (sigma = 0): ESS = alpha / xi (1e5 with
// the defaults), exactly what the formula says. effective_step_size() = ESS (NaN before the
// first step); ess() is available at once.
#pragma once

#include <cstdint>
#include <string>

#include "optim/optimizer.h"

namespace dplab::optim {

// Theorem 3 (main paper §6.1): DPAdam's effective step size tends to alpha / (sigma C / L + xi),
// the fixed step DPAdamWOSM takes. sigma C / L counts as 0 when sigma = 0 (C may then be
// infinite). No checks: the caller validates (DpAdamWosm does).
double theorem3_step_size_limit(double learning_rate, double noise_multiplier, double clip,
                                double lot_size, double epsilon);

class DpAdamWosm final : public Optimizer {
 public:
  DpAdamWosm(const OptimizerSpec& spec, const RunShape& shape);
  std::string name() const override;
  double step(models::Model& model, privacy::NoisyGradientOracle& oracle) override;
  double effective_step_size() const override;
  double ess() const { return ess_; }

 private:
  double ess_;
  double beta1_;
  Vector gradient_;
  Vector first_moment_;
  std::int64_t steps_ = 0;
};

}  // namespace dplab::optim
