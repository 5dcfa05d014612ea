// Dataset: n examples as a dense float feature matrix (n x d, row-major) and one target per
// example. For classification the target is the class index 0..num_classes-1 stored as float
// (exact up to 2^24 classes); for regression (num_classes == 0) it is the real-valued target.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"

namespace dplab::data {

struct Dataset {
  std::string name;
  Matrix features;                         // n x d
  Vector targets;                          // n
  int num_classes = 0;                     // 0 = regression
  std::vector<std::string> feature_names;  // optional, d entries when known
  std::vector<std::string> class_names;    // optional, num_classes entries when known
  // What loading changed that the user must hear about ("dropped 36 of 40 rows with a missing
  // value"); the CLI prints these, the GUI shows them. Never silently changed data.
  std::vector<std::string> notes;
  // >= 0: rows [fixed_validation_begin, n) are a fixed validation (test) split, e.g. Adult's test
  // file (adult_preparation.h); prepare_split keeps it instead of drawing a random split. -1: none.
  // select_rows and concatenate return -1 (a subset or a union has no such split).
  Index fixed_validation_begin = -1;

  Index size() const { return features.rows(); }
  Index dim() const { return features.cols(); }
  bool is_regression() const { return num_classes == 0; }
  // Checks shapes, finiteness and label range; throws InvalidArgument naming the problem.
  void validate() const;
};

struct TrainValidationSplit {
  Dataset train;
  Dataset validation;
  std::vector<std::string> notes = {};  // the loaded data set's notes (see Dataset::notes)
};

// Seeded random split (paper appendix H: 80% train, 20% validation). Same seed => same split.
TrainValidationSplit split_train_validation(const Dataset& all, double validation_fraction,
                                            std::uint64_t seed);

// Per-feature min-max scaling to [0, 1] (paper appendix H). The ranges are fitted on `fit_on`
// and applied to every dataset in `apply_to` (constant features map to 0).
struct MinMaxScaler {
  Vector minimum;
  Vector range;  // max - min, 0 for constant features
  static MinMaxScaler fit(const Dataset& fit_on);
  void apply(Dataset& data) const;
};

// A subset of rows, in the given order (used for splits and tests).
Dataset select_rows(const Dataset& all, const std::vector<Index>& rows);

// Rows of `first` followed by rows of `second` (same dim and label kind; e.g. a train and a test
// file loaded with a shared encoding). Names come from `first`; num_classes is the larger one.
Dataset concatenate(const Dataset& first, const Dataset& second, const std::string& name);

// Number of examples per class (num_classes entries); throws InvalidArgument for regression.
std::vector<Index> class_counts(const Dataset& data);

}  // namespace dplab::data
