// AdaptiveClipping: the one shape of an adaptive-clipping step, shared by OSO-DPSGD (Galli et al.
// 2023, Alg. 1) and FixedQuantile (Andrew et al. 2021, Alg. 1). Each step
//   1. makes ONE joint query of the oracle at the current C_t: the noisy clipped mean gradient g~_t
//      and a second noisy statistic of the same lot (OSO: the clipped-away directions q~_t;
//      FixedQuantile: the unclipped fraction b~_t) — one Gaussian mechanism for the accountant
//      (privacy/accounting/joint_gaussian.h), so queries_per_step() = 1;
//   2. descends: theta_{t+1} = theta_t - rho_t g~_t;
//   3. adapts C_{t+1} (and OSO's rho_{t+1}) from the sanitized releases only (post-processing).
// Subclasses supply step 1's query (release) and step 3's update (adapt); the descent, the step
// counter, effective_step_size() = rho_t and clip_threshold() = C_t live here once.
#pragma once

#include <cstdint>

#include "optim/optimizer.h"

namespace dplab::optim {

class AdaptiveClipping : public Optimizer {
 public:
  double step(models::Model& model, privacy::NoisyGradientOracle& oracle) final;
  double effective_step_size() const final;  // rho_t (NaN before the first step)
  double clip_threshold() const final { return clip_; }

 protected:
  // Validates what both share (num_params, rho_0 = spec.learning_rate > 0, C_0 =
  // shape.dp.clip, sigma >= 0) and sizes gradient_; InvalidArgument names the field.
  AdaptiveClipping(const OptimizerSpec& spec, const RunShape& shape);
  // Step 1: one joint query at clip_ into gradient_ (and the subclass's second release);
  // returns the mean lot loss.
  virtual double release(privacy::NoisyGradientOracle& oracle) = 0;
  // Step 3: the new clip_ (and learning_rate_) from gradient_ and the second release.
  virtual void adapt() = 0;

  double learning_rate_;  // rho_t
  double clip_;           // C_t
  Vector gradient_;       // g~_t

 private:
  std::int64_t steps_ = 0;
};

}  // namespace dplab::optim
