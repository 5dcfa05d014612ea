#include "data/prepare_split.h"

#include <numeric>
#include <string>
#include <vector>

#include "core/error.h"

namespace dplab::data {

namespace {

// Rows [begin, n) as validation, the rest as train, in file order.
TrainValidationSplit fixed_split(const Dataset& all) {
  const Index n = all.size();
  const Index begin = all.fixed_validation_begin;
  if (begin <= 0 || begin >= n) {
    throw InvalidArgument(all.name + ": its fixed test split starts at row " +
                          std::to_string(begin) + " of " + std::to_string(n) +
                          "; both parts must be non-empty");
  }
  std::vector<Index> train(static_cast<std::size_t>(begin)), validation;
  std::iota(train.begin(), train.end(), Index{0});
  for (Index i = begin; i < n; ++i) validation.push_back(i);
  TrainValidationSplit split{select_rows(all, train), select_rows(all, validation), all.notes};
  split.train.name = all.name + " (train)";
  split.validation.name = all.name + " (test)";
  return split;
}

}  // namespace

TrainValidationSplit prepare_split(const Dataset& all, double validation_fraction,
                                   std::uint64_t split_seed) {
  TrainValidationSplit split = all.fixed_validation_begin >= 0
                                   ? fixed_split(all)
                                   : split_train_validation(all, validation_fraction, split_seed);
  split.notes = all.notes;
  split.preprocessing = all.preprocessing;
  // A plain scan: GCC 12 warns falsely inside Eigen's AVX-512 minCoeff/maxCoeff. Pixels
  // (byte / 255) are in [0, 1] by construction and `features` is then empty.
  bool in_unit_box = true;
  const float* value = all.features.data();
  for (Index i = 0, size = all.features.size(); i < size && in_unit_box; ++i) {
    in_unit_box = value[i] >= 0.0f && value[i] <= 1.0f;
  }
  if (!in_unit_box) {
    const MinMaxScaler scaler = MinMaxScaler::fit(split.train);
    scaler.apply(split.train);
    scaler.apply(split.validation);
    split.preprocessing = {true, std::string("min-max ranges fitted on the training part: ") +
                                     kPreprocessingNotCovered};
  }
  return split;
}

}  // namespace dplab::data
