// BatchParallelModel (see batch_parallel_model.h): S = sum over T contiguous slices of the lot.
#include "models/batch_parallel_model.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "core/error.h"

namespace dplab::models {

struct BatchParallelModel::Arena {
  explicit Arena(int threads) : arena(threads) {}
  tbb::task_arena arena;
};

BatchParallelModel::BatchParallelModel(const Model& prototype, int threads) {
  if (threads < 1) {
    throw InvalidArgument("threads = " + std::to_string(threads) + " must be >= 1");
  }
  for (int t = 0; t < threads; ++t) replicas_.push_back(prototype.clone());
  params_ = prototype.params();
  for (int t = 1; t < threads; ++t) partial_sums_.emplace_back(prototype.num_params());
  slice_values_.resize(static_cast<std::size_t>(threads));
  arena_ = std::make_unique<Arena>(threads);
}

BatchParallelModel::~BatchParallelModel() = default;

std::string BatchParallelModel::name() const {
  return replicas_.front()->name();
}

std::string BatchParallelModel::description() const {
  return replicas_.front()->description() + " on " + std::to_string(threads()) + " threads";
}

void BatchParallelModel::initialize(std::uint64_t seed) {
  replicas_.front()->initialize(seed);
  params_ = replicas_.front()->params();
}

void BatchParallelModel::sync_replicas() {
  for (auto& replica : replicas_) replica->params() = params_;  // same size: no allocation
}

template <typename Slice>
double BatchParallelModel::over_slices(Index total, Slice&& slice) {
  sync_replicas();
  const Index t_count = threads();
  auto run = [&](Index t) {
    const Index begin = total * t / t_count, end = total * (t + 1) / t_count;
    slice_values_[static_cast<std::size_t>(t)] = slice(t, begin, end - begin);
  };
  if (t_count == 1) {
    run(0);
  } else {
    arena_->arena.execute([&] {
      // Grain 1, simple partitioner: each slice is one task.
      tbb::parallel_for(
          tbb::blocked_range<Index>(0, t_count, 1),
          [&](const tbb::blocked_range<Index>& range) {
            for (Index t = range.begin(); t != range.end(); ++t) run(t);
          },
          tbb::simple_partitioner());
    });
  }
  double sum = 0;
  for (const double value : slice_values_) sum += value;
  return sum;
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
  return over_slices(x.rows(), [&](Index t, Index begin, Index rows) {
    if (rows == 0) return 0.0;
    return replicas_[static_cast<std::size_t>(t)]->loss_sum(x.middleRows(begin, rows),
                                                            y.segment(begin, rows));
  });
}

double BatchParallelModel::clipped_gradient_sum(const MatrixView& x, const VectorView& y,
                                                const Clipping& clip, VectorSpan gradient_sum,
                                                VectorSpan norms) {
  check_rows(name(), x.rows(), y.size(), "y");
  check_gradient_size(gradient_sum);
  const bool norms_skipped = norms.size() == 0 && !clip.needs_norms();
  if (!norms_skipped) check_rows(name(), x.rows(), norms.size(), "norms");
  if (x.rows() < threads()) {  // too few rows to split: one replica (it also checks clip)
    sync_replicas();
    return replicas_.front()->clipped_gradient_sum(x, y, clip, gradient_sum, norms);
  }
  const double loss = over_slices(x.rows(), [&](Index t, Index begin, Index rows) {
    VectorSpan sum = t == 0 ? gradient_sum : VectorSpan(partial_sums_[std::size_t(t - 1)]);
    VectorSpan slice_norms = norms_skipped ? norms : VectorSpan(norms.segment(begin, rows));
    return replicas_[static_cast<std::size_t>(t)]->clipped_gradient_sum(
        x.middleRows(begin, rows), y.segment(begin, rows), clip, sum, slice_norms);
  });
  for (const Vector& partial : partial_sums_) gradient_sum += partial;
  return loss;
}

double BatchParallelModel::weighted_gradient_sum(const MatrixView& x, const VectorView& y,
                                                 const VectorView& weights,
                                                 VectorSpan gradient_sum) {
  check_rows(name(), x.rows(), y.size(), "y");
  check_rows(name(), x.rows(), weights.size(), "weights");
  check_gradient_size(gradient_sum);
  if (x.rows() < threads()) {
    sync_replicas();
    return replicas_.front()->weighted_gradient_sum(x, y, weights, gradient_sum);
  }
  const double loss = over_slices(x.rows(), [&](Index t, Index begin, Index rows) {
    VectorSpan sum = t == 0 ? gradient_sum : VectorSpan(partial_sums_[std::size_t(t - 1)]);
    return replicas_[static_cast<std::size_t>(t)]->weighted_gradient_sum(
        x.middleRows(begin, rows), y.segment(begin, rows), weights.segment(begin, rows), sum);
  });
  for (const Vector& partial : partial_sums_) gradient_sum += partial;
  return loss;
}

Evaluation BatchParallelModel::evaluate(const data::Dataset& data) {
  sync_replicas();
  return replicas_.front()->evaluate(data);
}

void BatchParallelModel::logits(const MatrixView& x, Matrix& out) {
  sync_replicas();
  replicas_.front()->logits(x, out);
}

std::unique_ptr<Model> BatchParallelModel::clone() const {
  auto copy = std::make_unique<BatchParallelModel>(*replicas_.front(), threads());
  copy->params() = params_;
  return copy;
}

}  // namespace dplab::models
