// BatchParallelModel: one model's clipped step split over a lot's rows on T threads (issue #30:
// "batch-parallel over a lot with the existing thread pool"). The clipped sum is a sum over
// examples, S = sum_i min(1, C/||g_i||) g_i, and each ||g_i|| depends on example i alone, so the
// lot's rows are cut into T contiguous slices; replica t (a clone of the model) computes its
// slice's norms and partial clipped sum, and S = S_0 + S_1 + ... + S_{T-1}. The same holds for
// the weighted sum and the loss sum. Every replica works at this model's parameters (copied into
// it at each call: O(num_params), no allocation).
//
// Threads: oneTBB (the thread pool tuning/runner.cpp already uses), in a task_arena of T slots
// owned by the model; slices are given to threads statically, so the same call on the same data
// gives the same floats every time. Against one thread the sum is re-associated (S_0 + S_1
// instead of one running sum): equal to rounding, not bit for bit.
// Use it where the cores are free: a search that already trains one job per core gains nothing.
// evaluate and logits run on one replica.
//
// Thread-safety: like any Model, one instance per job (the replicas are its own).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/model.h"

namespace dplab::models {

class BatchParallelModel final : public Model {
 public:
  // threads >= 1 (InvalidArgument otherwise); the replicas are clones of `prototype`, whose
  // parameters this model starts from.
  BatchParallelModel(const Model& prototype, int threads);
  ~BatchParallelModel() override;
  BatchParallelModel(const BatchParallelModel&) = delete;
  BatchParallelModel& operator=(const BatchParallelModel&) = delete;

  int threads() const { return static_cast<int>(replicas_.size()); }
  std::string name() const override;
  std::string description() const override;
  void initialize(std::uint64_t seed) override;
  double loss_sum(const MatrixView& x, const VectorView& y) override;
  double clipped_gradient_sum(const MatrixView& x, const VectorView& y, const Clipping& clip,
                              VectorSpan gradient_sum, VectorSpan norms) override;
  double weighted_gradient_sum(const MatrixView& x, const VectorView& y, const VectorView& weights,
                               VectorSpan gradient_sum) override;
  Evaluation evaluate(const data::Dataset& data) override;
  void logits(const MatrixView& x, Matrix& out) override;
  std::unique_ptr<Model> clone() const override;

 private:
  struct Arena;  // the TBB arena (kept out of this header: the engine links TBB privately)
  // Copies params_ into every replica.
  void sync_replicas();
  // Runs slice(t, begin, rows) for t = 0..T-1 over rows [0, total) cut into T contiguous slices,
  // on the arena's threads; returns the sum of the slices' return values (in order of t).
  template <typename Slice>
  double over_slices(Index total, Slice&& slice);
  void check_gradient_size(const VectorSpan& gradient_sum) const;

  std::vector<std::unique_ptr<Model>> replicas_;
  std::vector<Vector> partial_sums_;  // S_t of replicas 1..T-1 (replica 0 writes the output)
  std::vector<double> slice_values_;
  std::unique_ptr<Arena> arena_;
};

}  // namespace dplab::models
