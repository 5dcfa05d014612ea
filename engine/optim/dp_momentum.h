// DPMomentum (main paper appendix A.1; heavy ball of Polyak / Qian 1999 on noisy gradients).
// Convention: PyTorch's SGD momentum with dampening 0 (the one pyvacy, used by the paper,
// inherits):
//   v <- m v + g~          (v_0 = 0, so v_1 = g~)
//   theta <- theta - alpha v
// (Sutskever's form v <- m v + alpha g~; theta -= v is the same trajectory for constant alpha.)
// effective_step_size() = alpha, the step per unit of velocity (NaN before the first step); the
// long-run step on a constant gradient is alpha / (1 - m).
#pragma once

#include <cstdint>
#include <string>

#include "optim/optimizer.h"

namespace dplab::optim {

class DpMomentum final : public Optimizer {
 public:
  DpMomentum(const OptimizerSpec& spec, const RunShape& shape);
  std::string name() const override;
  double step(models::Model& model, privacy::NoisyGradientOracle& oracle) override;
  double effective_step_size() const override;
  const Vector& velocity() const { return velocity_; }

 private:
  double learning_rate_;
  double momentum_;
  Vector gradient_;
  Vector velocity_;
  std::int64_t steps_ = 0;
};

}  // namespace dplab::optim
