// BatchParallelModel: one model's clipped step over a lot computed on T threads with results that
// do not depend on T (issues #30, #49). The clipped sum is a sum over examples,
// S = sum_i c_i g_i with c_i = clip.factor(||g_i||), and each ||g_i|| depends on example i alone,
// so any partition of the lot's rows into chunks B_0, ..., B_{K-1} gives S = S_0 + ... + S_{K-1},
// S_k = sum_{i in B_k} c_i g_i. In floating point the grouping of that sum IS the result, so the
// partition is fixed by the number of rows alone, never by T:
//   K = the largest power of two <= kMaxChunks with K kMinChunkRows <= rows (1 for fewer rows),
//   B_k = rows [rows k / K, rows (k+1) / K),
// each S_k is computed from zero by one replica of the model, and the chunks are reduced in chunk
// order, S = ((S_0 + S_1) + S_2) + ... (element by element, so the reduction is the same floats
// however it is vectorised). T only decides which thread computes which chunk (thread t: chunks
// [K t / T, K (t+1) / T)). With T = 1 the same chunks and the same reduction run on the calling
// thread, so the floats for T = 1, 2, 3, ... are identical bit for bit. The same holds for the
// loss sum (in double, summed in chunk order), the weighted sum and the per-example norms (written
// in place; each chunk's rows are computed by the same code whichever thread runs it).
// Why few, large chunks: each chunk costs O(num_params) on top of its rows (its sum zeroed, then
// added into S); for a dense model that is about the work of a few dozen examples (measured on
// the TLNN, L = 250: 8 chunks of 31 rows made the 1-thread step ~1.5x slower, 2 chunks ~1.1x).
// kMinChunkRows = 80 keeps lots of L = 250 (and Opacus' 256) at K = 2 within +-4 standard
// deviations of the Poisson size: balanced on 2 threads; K = 4 from 320 rows, 8 from 640.
// Against the unwrapped model the sum is grouped differently (S_0 + S_1 + ... instead of one pass
// over all rows): equal to rounding, not bit for bit; a lot of fewer than 2 kMinChunkRows rows is
// one chunk, the unwrapped model's own call.
// Every replica works at this model's parameters (copied into it at each call: O(num_params), no
// allocation). Models whose step is not a sum of per-example terms (state over the whole lot,
// such as batch normalisation) would not split; every model dplab trains (logistic, linear, tlnn,
// cnn, conv-autoencoder, custom networks, the audit's reserved-coordinates wrapper) is such a sum.
//
// Threads: oneTBB (the thread pool tuning/runner.cpp already uses), in a task_arena of T slots
// owned by the model. Use it where the cores are free: a search that already trains one job per
// core gains nothing. evaluate and logits run on one replica.
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
  // The fixed partition (see above): a power of two of at most kMaxChunks chunks of at least
  // kMinChunkRows rows.
  static constexpr Index kMaxChunks = 8;
  static constexpr Index kMinChunkRows = 80;
  // Threads beyond kMaxChunks would have no chunk to compute.
  static constexpr int kMaxThreads = static_cast<int>(kMaxChunks);
  // The number of chunks K of a call on `rows` rows (independent of the thread count).
  static Index chunk_count(Index rows);

  // 1 <= threads <= kMaxThreads (InvalidArgument otherwise); the replicas are clones of
  // `prototype`, whose parameters this model starts from.
  BatchParallelModel(const Model& prototype, int threads);
  ~BatchParallelModel() override;
  BatchParallelModel(const BatchParallelModel&) = delete;
  BatchParallelModel& operator=(const BatchParallelModel&) = delete;

  int threads() const { return static_cast<int>(replicas_.size()); }
  std::string name() const override;
  std::string description() const override;  // the wrapped model's (no thread count)
  void initialize(std::uint64_t seed) override;
  double loss_sum(const MatrixView& x, const VectorView& y) override;
  double clipped_gradient_sum(const MatrixView& x, const VectorView& y, const Clipping& clip,
                              VectorSpan gradient_sum, VectorSpan norms) override;
  double weighted_gradient_sum(const MatrixView& x, const VectorView& y, const VectorView& weights,
                               VectorSpan gradient_sum) override;
  Evaluation evaluate(const data::Dataset& data) override;
  void logits(const MatrixView& x, Matrix& out) override;
  // The wrapped model's graph at this model's parameters (what `train` exports).
  void describe_graph(ModelGraph& graph) const override;
  std::unique_ptr<Model> clone() const override;

 private:
  struct Arena;  // the TBB arena (kept out of this header: the engine links TBB privately)
  // Copies params_ into the first `count` replicas.
  void sync_replicas(Index count);
  // Runs chunk(replica, k, begin, rows) for the K = chunk_count(total) chunks of rows [0, total),
  // thread t (replica t) taking chunks [K t / T, K (t+1) / T); returns K and the sum of the
  // chunks' return values in chunk order (into `value`).
  template <typename Chunk>
  Index over_chunks(Index total, double& value, Chunk&& chunk);
  void check_gradient_size(const VectorSpan& gradient_sum) const;

  std::vector<std::unique_ptr<Model>> replicas_;
  std::vector<Vector> partial_sums_;  // S_1 .. S_{K-1} (chunk 0 writes the output)
  std::vector<double> chunk_values_;
  std::unique_ptr<Arena> arena_;
};

}  // namespace dplab::models
