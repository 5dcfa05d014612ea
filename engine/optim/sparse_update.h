// Base updates applied to a subset of coordinates (the coordinates Algorithm 3 of Zhang, Mironov &
// Hejazinia selected; all p for DP-SGD): theta_j changes only for j in the given index list.
//
// - SGD: theta_j -= alpha g_j.
// - Adam (Kingma & Ba 2014) with lazy moments, as PyTorch's SparseAdam: for each listed j
//     m_j = b1 m_j + (1-b1) g_j,  v_j = b2 v_j + (1-b2) g_j^2,
//     theta_j -= alpha (m_j / (1 - b1^t)) / (sqrt(v_j / (1 - b2^t)) + xi),
//   t = number of update calls so far; unlisted coordinates keep theta, m and v unchanged.
//   With every coordinate listed on every call this is exactly dense Adam (optim/dp_adam.h).
// - Adam with dense moments (AdamMoments::kDense), as torch.optim.Adam given a masked gradient
//   (zero off the listed coordinates): EVERY coordinate's m_j and v_j decay on every call and
//   every coordinate with m_j != 0 moves, so a coordinate listed once keeps stepping along
//   m_j / sqrt(v_j) while its first moment decays: one gradient g at a fresh coordinate (late in
//   a run, bias corrections ~1) moves it by alpha (1 - b1)/sqrt(1 - b2) = 3.16 alpha on that call
//   and by b1/sqrt(b2) = 0.90 times as much on each later one, ~31.6 alpha sign(g) in all, where
//   lazy moments move it 3.16 alpha once.
//   The sparse-DP paper trained with Opacus and "an Adam optimizer" (section 6.3); Opacus keeps
//   dense gradients, so its Adam is this one (our reading, not stated in the paper). O(p) a call.
// No allocation per call.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/types.h"

namespace dplab::optim {

enum class BaseUpdateKind { kSgd, kAdam };
enum class AdamMoments { kLazy, kDense };

BaseUpdateKind parse_base_update(const std::string& text);  // "sgd" | "adam"
AdamMoments parse_adam_moments(const std::string& text);    // "lazy" | "dense"
std::string to_string(AdamMoments moments);

class SparseUpdate {
 public:
  SparseUpdate(BaseUpdateKind kind, Index num_params, double learning_rate, double beta1 = 0.9,
               double beta2 = 0.999, double epsilon = 1e-8,
               AdamMoments moments = AdamMoments::kLazy);
  // Gradient values `gradient` at `indices` (distinct, same length), zero elsewhere: SGD and lazy
  // Adam change only those coordinates; Adam with dense moments steps every coordinate.
  void apply(std::span<const Index> indices, std::span<const float> gradient, Vector& params);
  // Dense form: every coordinate, gradient of size num_params.
  void apply_dense(const Vector& gradient, Vector& params);
  std::int64_t steps() const { return steps_; }

 private:
  // Adam on every coordinate at the current step count (the caller has counted the call).
  void dense_adam_step(const Vector& gradient, Vector& params);

  BaseUpdateKind kind_;
  AdamMoments moments_;
  double learning_rate_, beta1_, beta2_, epsilon_;
  Vector first_moment_, second_moment_;
  Vector masked_;  // kDense: the masked gradient (zero between calls)
  std::int64_t steps_ = 0;
};

}  // namespace dplab::optim
