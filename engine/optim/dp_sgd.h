// DPSGD (Abadi et al. 2016, Alg. 1; main paper appendix A.1): plain gradient descent on the
// noisy clipped mean gradient g~ of each lot,
//   theta <- theta - alpha g~.
// effective_step_size() = alpha (NaN before the first step).
#pragma once

#include <cstdint>
#include <string>

#include "optim/optimizer.h"

namespace dplab::optim {

class DpSgd final : public Optimizer {
 public:
  DpSgd(const OptimizerSpec& spec, const RunShape& shape);
  std::string name() const override;
  double step(models::Model& model, privacy::NoisyGradientOracle& oracle) override;
  double effective_step_size() const override;

 private:
  double learning_rate_;
  Vector gradient_;
  std::int64_t steps_ = 0;
};

}  // namespace dplab::optim
