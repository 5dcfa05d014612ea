// BatchParallelModel (see batch_parallel_model.h): S = S_0 + ... + S_{K-1} over a partition of the
// lot fixed by its number of rows, reduced in chunk order whatever the number of threads.
#include "models/batch_parallel_model.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>
#include <algorithm>

#include "core/error.h"

namespace dplab::models {

struct BatchParallelModel::Arena {
  explicit Arena(int threads) : arena(threads) {}
  tbb::task_arena arena;
};

Index BatchParallelModel::chunk_count(Index rows) {
  Index chunks = 1;  // a power of two: the same share for 1, 2, 4 or 8 threads
  while (chunks < kMaxChunks && rows >= 2 * chunks * kMinChunkRows) chunks *= 2;
  return chunks;
}

BatchParallelModel::BatchParallelModel(const Model& prototype, int threads) {
  if (threads < 1 || threads > kMaxThreads) {
    throw InvalidArgument("threads = " + std::to_string(threads) + " must be between 1 and " +
                          std::to_string(kMaxThreads) + " (a lot is cut into at most " +
                          std::to_string(kMaxChunks) + " chunks)");
  }
  for (int t = 0; t < threads; ++t) replicas_.push_back(prototype.clone());
  params_ = prototype.params();
  for (Index k = 1; k < kMaxChunks; ++k) partial_sums_.emplace_back(prototype.num_params());
  chunk_values_.resize(static_cast<std::size_t>(kMaxChunks));
  arena_ = std::make_unique<Arena>(threads);
}

BatchParallelModel::~BatchParallelModel() = default;

std::string BatchParallelModel::name() const {
  return replicas_.front()->name();
}

std::string BatchParallelModel::description() const {
  // The wrapped model's: the thread count changes no output (an exported model names no threads).
  return replicas_.front()->description();
}

void BatchParallelModel::initialize(std::uint64_t seed) {
  replicas_.front()->initialize(seed);
  params_ = replicas_.front()->params();
}

void BatchParallelModel::sync_replicas(Index count) {
  for (Index t = 0; t < count; ++t) {
    replicas_[static_cast<std::size_t>(t)]->params() = params_;  // same size: no allocation
  }
}

template <typename Chunk>
Index BatchParallelModel::over_chunks(Index total, double& value, Chunk&& chunk) {
  const Index k_count = chunk_count(total);
  const Index t_count = std::min<Index>(threads(), k_count);  // threads with a chunk
  sync_replicas(t_count);
  auto run_thread = [&](Index t) {
    Model& replica = *replicas_[static_cast<std::size_t>(t)];
    for (Index k = k_count * t / t_count; k < k_count * (t + 1) / t_count; ++k) {
      const Index begin = total * k / k_count, end = total * (k + 1) / k_count;
      chunk_values_[static_cast<std::size_t>(k)] = chunk(replica, k, begin, end - begin);
    }
  };
  if (t_count == 1) {
    run_thread(0);
  } else {
    arena_->arena.execute([&] {
      // Grain 1, simple partitioner: each thread's chunk range is one task.
      tbb::parallel_for(
          tbb::blocked_range<Index>(0, t_count, 1),
          [&](const tbb::blocked_range<Index>& range) {
            for (Index t = range.begin(); t != range.end(); ++t) run_thread(t);
          },
          tbb::simple_partitioner());
    });
  }
  value = 0;
  for (Index k = 0; k < k_count; ++k) value += chunk_values_[static_cast<std::size_t>(k)];
  return k_count;
}

void BatchParallelModel::check_gradient_size(const VectorSpan& gradient_sum) const {
  if (gradient_sum.size() != num_params()) {
    throw InvalidArgument(name() + ": gradient_sum has " + std::to_string(gradient_sum.size()) +
                          " entries but the model has " + std::to_string(num_params()));
  }
}

namespace {
void check_rows(const std::string& name, Index x_rows, Index entries, const char* what) {
  if (entries != x_rows) {
    throw InvalidArgument(name + ": " + what + " has " + std::to_string(entries) +
                          " entries but x has " + std::to_string(x_rows) + " rows");
  }
}
}  // namespace

double BatchParallelModel::loss_sum(const MatrixView& x, const VectorView& y) {
  check_rows(name(), x.rows(), y.size(), "y");
  double loss = 0;
  over_chunks(x.rows(), loss, [&](Model& replica, Index, Index begin, Index rows) {
    return replica.loss_sum(x.middleRows(begin, rows), y.segment(begin, rows));
  });
  return loss;
}

double BatchParallelModel::clipped_gradient_sum(const MatrixView& x, const VectorView& y,
                                                const Clipping& clip, VectorSpan gradient_sum,
                                                VectorSpan norms) {
  check_rows(name(), x.rows(), y.size(), "y");
  check_gradient_size(gradient_sum);
  const bool norms_skipped = norms.size() == 0 && !clip.needs_norms();
  if (!norms_skipped) check_rows(name(), x.rows(), norms.size(), "norms");
  double loss = 0;
  const Index chunks =
      over_chunks(x.rows(), loss, [&](Model& replica, Index k, Index begin, Index rows) {
        VectorSpan sum = k == 0 ? gradient_sum : VectorSpan(partial_sums_[std::size_t(k - 1)]);
        VectorSpan chunk_norms = norms_skipped ? norms : VectorSpan(norms.segment(begin, rows));
        return replica.clipped_gradient_sum(x.middleRows(begin, rows), y.segment(begin, rows), clip,
                                            sum, chunk_norms);
      });
  for (Index k = 1; k < chunks; ++k) gradient_sum += partial_sums_[std::size_t(k - 1)];
  return loss;
}

double BatchParallelModel::weighted_gradient_sum(const MatrixView& x, const VectorView& y,
                                                 const VectorView& weights,
                                                 VectorSpan gradient_sum) {
  check_rows(name(), x.rows(), y.size(), "y");
  check_rows(name(), x.rows(), weights.size(), "weights");
  check_gradient_size(gradient_sum);
  double loss = 0;
  const Index chunks =
      over_chunks(x.rows(), loss, [&](Model& replica, Index k, Index begin, Index rows) {
        VectorSpan sum = k == 0 ? gradient_sum : VectorSpan(partial_sums_[std::size_t(k - 1)]);
        return replica.weighted_gradient_sum(x.middleRows(begin, rows), y.segment(begin, rows),
                                             weights.segment(begin, rows), sum);
      });
  for (Index k = 1; k < chunks; ++k) gradient_sum += partial_sums_[std::size_t(k - 1)];
  return loss;
}

Evaluation BatchParallelModel::evaluate(const data::Dataset& data) {
  sync_replicas(1);
  return replicas_.front()->evaluate(data);
}

void BatchParallelModel::logits(const MatrixView& x, Matrix& out) {
  sync_replicas(1);
  replicas_.front()->logits(x, out);
}

void BatchParallelModel::describe_graph(ModelGraph& graph) const {
  // Const: a copy at this model's parameters (once per export, not per step).
  auto copy = replicas_.front()->clone();
  copy->params() = params_;
  copy->describe_graph(graph);
}

std::unique_ptr<Model> BatchParallelModel::clone() const {
  auto copy = std::make_unique<BatchParallelModel>(*replicas_.front(), threads());
  copy->params() = params_;
  return copy;
}

}  // namespace dplab::models
