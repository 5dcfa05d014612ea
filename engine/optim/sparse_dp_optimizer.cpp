#include "optim/sparse_dp_optimizer.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::optim {
namespace {

constexpr std::uint64_t kSamplingStream = 1;
constexpr std::uint64_t kSelectionStream = 2;
constexpr std::uint64_t kNoiseStream = 3;

}  // namespace

SparseDpOptimizer::SparseDpOptimizer(const SparseDpSettings& settings,
                                     models::RowSparseModel& model,
                                     std::unique_ptr<privacy::CoordinateSelector> selector,
                                     std::unique_ptr<SparseUpdate> update, std::uint64_t seed)
    : settings_(settings),
      model_(model),
      selector_(std::move(selector)),
      update_(std::move(update)),
      sampler_(model.num_examples(),
               [&] {
                 require_left_open_interval("lot_size", settings.lot_size, 0,
                                            static_cast<double>(model.num_examples()));
                 return settings.lot_size / static_cast<double>(model.num_examples());
               }()),
      sampling_rng_(derive_seed(seed, kSamplingStream)),
      selection_rng_(derive_seed(seed, kSelectionStream)),
      noise_(derive_seed(seed, kNoiseStream)) {
  if (settings.method != SparseTrainingMethod::kNonPrivate) {
    require_positive("S1", settings.clip1);
    require_non_negative("noise_multiplier", settings.noise_multiplier);
  }
  if (settings.method == SparseTrainingMethod::kSparse) {
    require_positive("S2", settings.clip2);
    if (!selector_) throw InvalidArgument("sparse DP training needs a coordinate selector");
  }
  if (!update_) throw InvalidArgument("sparse DP training needs a base update");
  sum_.setZero(model.num_params());
  row_touched_.assign(static_cast<std::size_t>(model.num_rows()), 0);
  lot_.reserve(static_cast<std::size_t>(sampler_.suggested_capacity()));
  if (settings.method == SparseTrainingMethod::kDpSgd) dense_.setZero(model.num_params());
}

double SparseDpOptimizer::noise_std() const {
  const double per_example = settings_.clip1 / settings_.lot_size;
  switch (settings_.method) {
    case SparseTrainingMethod::kSparse:
      return settings_.noise_multiplier * std::min(per_example, settings_.clip2);
    case SparseTrainingMethod::kDpSgd:
      return settings_.noise_multiplier * per_example;
    case SparseTrainingMethod::kNonPrivate:
      break;
  }
  return 0.0;
}

double SparseDpOptimizer::step() {
  const Index width = model_.row_width();
  const bool clip = settings_.method != SparseTrainingMethod::kNonPrivate;
  sampler_.sample(sampling_rng_, lot_);
  double loss = 0;
  touched_rows_.clear();
  for (const Index example : lot_) {
    loss += model_.example_gradient(example, example_);
    double factor = 1.0;
    if (clip) {
      double norm_sq = 0;
      for (const float v : example_.values) norm_sq += double(v) * v;
      const double norm = std::sqrt(norm_sq);
      if (norm > settings_.clip1) factor = settings_.clip1 / norm;
    }
    for (std::size_t r = 0; r < example_.rows.size(); ++r) {
      const Index row = example_.rows[r];
      if (!row_touched_[static_cast<std::size_t>(row)]) {
        row_touched_[static_cast<std::size_t>(row)] = 1;
        touched_rows_.push_back(row);
      }
      sum_.segment(row * width, width) +=
          static_cast<float>(factor) *
          Eigen::Map<const Vector>(example_.values.data() + r * width, width);
    }
  }
  // g^ = sum / b on the touched coordinates (ascending); the accumulator is cleared.
  std::sort(touched_rows_.begin(), touched_rows_.end());
  touched_coordinates_.clear();
  touched_values_.clear();
  const double inv_b = 1.0 / settings_.lot_size;
  for (const Index row : touched_rows_) {
    row_touched_[static_cast<std::size_t>(row)] = 0;
    for (Index c = row * width; c < (row + 1) * width; ++c) {
      touched_coordinates_.push_back(c);
      touched_values_.push_back(static_cast<float>(sum_[c] * inv_b));
      sum_[c] = 0;
    }
  }
  updated_.clear();
  update_values_.clear();
  switch (settings_.method) {
    case SparseTrainingMethod::kNonPrivate:
      updated_ = touched_coordinates_;
      update_values_ = touched_values_;
      update_->apply(updated_, update_values_, model_.params());
      break;
    case SparseTrainingMethod::kDpSgd: {
      noise_.fill(noise_std(), dense_);
      for (std::size_t n = 0; n < touched_coordinates_.size(); ++n) {
        dense_[touched_coordinates_[n]] += touched_values_[n];
      }
      update_->apply_dense(dense_, model_.params());
      break;
    }
    case SparseTrainingMethod::kSparse: {
      const privacy::SparseVectorView g{model_.num_params(), touched_coordinates_, touched_values_};
      selector_->select(g, selection_rng_, updated_);
      // Delta = M ⊙ g^ (merge of two ascending lists), then the second clipping.
      std::size_t t = 0;
      double norm_sq = 0;
      for (const Index j : updated_) {
        while (t < touched_coordinates_.size() && touched_coordinates_[t] < j) ++t;
        const float v = (t < touched_coordinates_.size() && touched_coordinates_[t] == j)
                            ? touched_values_[t]
                            : 0.0f;
        update_values_.push_back(v);
        norm_sq += double(v) * v;
      }
      const double norm = std::sqrt(norm_sq);
      const float factor =
          norm > settings_.clip2 ? static_cast<float>(settings_.clip2 / norm) : 1.0f;
      const auto count = static_cast<Index>(updated_.size());
      if (noise_buffer_.size() < count) noise_buffer_.resize(count);  // grows rarely
      noise_.fill(noise_std(), noise_buffer_.head(count));
      for (std::size_t n = 0; n < updated_.size(); ++n) {
        update_values_[n] = update_values_[n] * factor + noise_buffer_[static_cast<Index>(n)];
      }
      update_->apply(updated_, update_values_, model_.params());
      break;
    }
  }
  ++steps_;
  return lot_.empty() ? 0.0 : loss / static_cast<double>(lot_.size());
}

}  // namespace dplab::optim
