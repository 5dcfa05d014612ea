#include "data/prepare_split.h"

namespace dplab::data {

TrainValidationSplit prepare_split(const Dataset& all, double validation_fraction,
                                   std::uint64_t split_seed) {
  TrainValidationSplit split = split_train_validation(all, validation_fraction, split_seed);
  split.notes = all.notes;
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
  }
  return split;
}

}  // namespace dplab::data
