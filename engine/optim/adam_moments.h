// Adam's moment estimates (Kingma & Ba 2014, Alg. 1), the part DPAdam and DP-AdamBC share
// (internal to engine/optim). On each noisy gradient g~_t:
//   m_t = beta1 m_{t-1} + (1 - beta1) g~_t      v_t = beta2 v_{t-1} + (1 - beta2) g~_t^2
// and the bias corrections c1 = 1 - beta1^t, c2 = 1 - beta2^t (m^ = m / c1, v^ = v / c2).
// Float storage, like the parameters; 1 - beta is formed in double (1.0f - 0.999f is off by
// 1.3e-5 relative). Validates beta1, beta2 in [0, 1) and d >= 1 (InvalidArgument naming the field).
#pragma once

#include <cstdint>

#include "core/types.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/model.h"

namespace dplab::optim::detail {

class AdamMoments {
 public:
  AdamMoments(double beta1, double beta2, Index num_params);

  // One query of `oracle` at model's parameters into the gradient buffer, then t += 1 and the two
  // moving averages; returns the lot's mean loss. The model must have num_params parameters.
  double query_and_update(models::Model& model, privacy::NoisyGradientOracle& oracle);

  const Vector& first() const { return first_; }    // m_t (not bias-corrected)
  const Vector& second() const { return second_; }  // v_t (not bias-corrected)
  std::int64_t steps() const { return steps_; }     // t
  double correction1() const;                       // 1 - beta1^t
  double correction2() const;                       // 1 - beta2^t

 private:
  double beta1_, beta2_;
  Vector gradient_;
  Vector first_, second_;
  std::int64_t steps_ = 0;
};

}  // namespace dplab::optim::detail
