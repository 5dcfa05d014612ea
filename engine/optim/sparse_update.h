// Base updates applied to a subset of coordinates (the coordinates Algorithm 3 of Zhang, Mironov &
// Hejazinia selected; all p for DP-SGD): theta_j changes only for j in the given index list.
//
// - SGD: theta_j -= alpha g_j.
// - Adam (Kingma & Ba 2014) with lazy moments, as PyTorch's SparseAdam: for each listed j
//     m_j = b1 m_j + (1-b1) g_j,  v_j = b2 v_j + (1-b2) g_j^2,
//     theta_j -= alpha (m_j / (1 - b1^t)) / (sqrt(v_j / (1 - b2^t)) + xi),
//   t = number of update calls so far; unlisted coordinates keep theta, m and v unchanged.
//   With every coordinate listed on every call this is exactly dense Adam (optim/dp_adam.h).
// No allocation per call.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/types.h"

namespace dplab::optim {

enum class BaseUpdateKind { kSgd, kAdam };

BaseUpdateKind parse_base_update(const std::string& text);  // "sgd" | "adam"

class SparseUpdate {
 public:
  SparseUpdate(BaseUpdateKind kind, Index num_params, double learning_rate, double beta1 = 0.9,
               double beta2 = 0.999, double epsilon = 1e-8);
  // Updates params at `indices` (distinct) with gradient values `gradient` (same length).
  void apply(std::span<const Index> indices, std::span<const float> gradient, Vector& params);
  // Dense form: every coordinate, gradient of size num_params.
  void apply_dense(const Vector& gradient, Vector& params);
  std::int64_t steps() const { return steps_; }

 private:
  BaseUpdateKind kind_;
  double learning_rate_, beta1_, beta2_, epsilon_;
  Vector first_moment_, second_moment_;
  std::int64_t steps_ = 0;
};

}  // namespace dplab::optim
