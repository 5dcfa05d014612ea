// prepare_split: the preprocessing every training run shares (main paper appendix H):
// a seeded 80/20 train/validation split, then features in [0, 1]. load_dataset already delivers
// [0, 1] features (pixels / 255; CSV and LIBSVM min-max scaled over all rows, as the paper's
// "preprocessed state"), so for them this is only the split. Data built in code that fall
// outside [0, 1] are min-max scaled with ranges fitted on the training part and applied to both
// parts. As in the paper, this preprocessing is not charged to the privacy budget: the split's
// `preprocessing` says so (fitted_on_private_data; the epsilon labels add "not covered").
// A data set with a fixed test split (Dataset::fixed_validation_begin, e.g. "adult-files") keeps
// it: validation_fraction and split_seed are then not used (its notes say so).
#pragma once

#include <cstdint>

#include "data/dataset.h"

namespace dplab::data {

TrainValidationSplit prepare_split(const Dataset& all, double validation_fraction,
                                   std::uint64_t split_seed);

}  // namespace dplab::data
