// Reserved coordinates for white-box Dirac canaries. Steinke, Nasr & Jagielski 2023 audit DP-SGD
// white-box with "Dirac canaries" (Nasr et al., USENIX Security 2023): a canary's gradient is zero
// everywhere except C at a single random coordinate, and the attacker sees every iterate. In a
// Wide-ResNet with millions of parameters a random coordinate barely meets the data; in dplab's
// models (10^2 - 10^5 parameters) it does, and the data's persistent gradient on it swamps the
// canary. dplab removes that competitor exactly: its canaries sit on k coordinates that the model
// never reads.
//
// ReservedCoordinatesModel(inner, k) has parameters theta = (theta_inner, r), r in R^k, and
// computes everything from theta_inner alone: loss(theta; x) = loss_inner(theta_inner; x). Hence
// for every example x
//     grad_r loss(theta; x) = 0   identically (not "small": the loss does not depend on r),
//     ||grad loss(theta; x)|| = ||grad_inner loss_inner(theta_inner; x)||,
// so clipping, the clipped sum's first d coordinates and the model's outputs are those of the
// inner model, while DP-SGD's Gaussian noise N(0, sigma^2 C^2 I_{d+k}) covers r as well.
//
// Why auditing the padded run audits the user's run: DP-SGD's guarantee (Abadi et al. 2016,
// Theorem 1; the accountants' (q, sigma, T)) holds for ANY per-example gradient function whose
// outputs are clipped to norm C, in any dimension. A Dirac canary's gradient C e_{d+i} is one
// such clipped example, so the padded run is exactly as private as the accountant says, and its
// first d coordinates are distributed exactly like the user's run (the canaries touch only r).
// A lower bound on the padded run's epsilon is a lower bound on epsilon for "DP-SGD with these
// (q, sigma, T, C)", the quantity the accountant bounds from above.
//
// Measured on dplab's real data (training split, seed 0): Adult has 1 of 104 feature columns
// all zero, Fashion-MNIST 0 of 784 pixels — far fewer data-free coordinates than m = 1000
// canaries, and a conv layer shares its weights over all pixels — so dplab reserves the paper's
// "unused parameters" instead of searching for them (docs/guide/audit.md).
//
// Thread-safety: like every Model, one instance per job.
#pragma once

#include <memory>

#include "models/model.h"

namespace dplab::audit {

class ReservedCoordinatesModel final : public models::Model {
 public:
  // inner must be non-null; reserved >= 1. Throws InvalidArgument.
  ReservedCoordinatesModel(std::unique_ptr<models::Model> inner, Index reserved);

  // The inner model's name (the kind token other code dispatches on).
  std::string name() const override;
  std::string description() const override;
  // Initialises the inner model with seed (identical to the unpadded run's initialisation) and
  // sets the reserved coordinates to 0.
  void initialize(std::uint64_t seed) override;
  double loss_sum(const MatrixView& x, const VectorView& y) override;
  // The inner model's clipped sum in the first d coordinates, exactly 0 in the reserved ones.
  double clipped_gradient_sum(const MatrixView& x, const VectorView& y,
                              const models::Clipping& clip, VectorSpan gradient_sum,
                              VectorSpan norms) override;
  double weighted_gradient_sum(const MatrixView& x, const VectorView& y, const VectorView& weights,
                               VectorSpan gradient_sum) override;
  models::Evaluation evaluate(const data::Dataset& data) override;
  void logits(const MatrixView& x, Matrix& out) override;
  // The inner model's graph at the current parameters: the function the padded model computes
  // (it never reads the reserved coordinates), so an exported padded model predicts as the
  // user's model would. The reserved coordinates are not exported: read them from params().
  void describe_graph(models::ModelGraph& graph) const override;
  std::unique_ptr<models::Model> clone() const override;

  Index inner_params() const { return inner_->num_params(); }  // d
  Index reserved() const { return reserved_; }                 // k
  // The index of reserved coordinate i (0 <= i < k) in params(): d + i.
  Index reserved_coordinate(Index i) const { return inner_params() + i; }

 private:
  // Copies theta_inner into the inner model (the optimizer updates params() in place).
  void sync_inner();

  std::unique_ptr<models::Model> inner_;
  Index reserved_;
};

}  // namespace dplab::audit
