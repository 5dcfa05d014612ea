// Dataset: n examples as a dense feature matrix (n x d, row-major) and one target per example.
// For classification the target is the class index 0..num_classes-1 stored as float (exact up
// to 2^24 classes); for regression (num_classes == 0) it is the real-valued target.
//
// Two storages of the same features: floats (`features`, tabular data) or, for image data, the
// native bytes (`pixels`, feature = byte / 255 exactly, data/feature_rows.h): 4x less memory and
// 4x less DRAM traffic for the lot gather of every DP step and for every evaluation. Exactly one
// of the two is non-empty. Code that needs float rows of either storage reads them through
// data/feature_rows.h (feature_rows, store_as_floats).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/types.h"

namespace dplab {
// Image data in their native 8-bit form (one byte per pixel, row-major like Matrix); see
// data/feature_rows.h for the exact byte -> float feature map.
using PixelMatrix = Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
}  // namespace dplab

namespace dplab::data {

// How the features of a loaded data set came into [0, 1] (data/feature_scaling.h).
struct Preprocessing {
  // True when scaling parameters (min-max ranges) were computed from the private rows: that
  // release is not covered by any epsilon (the paper's appendix H leaves it so).
  bool fitted_on_private_data = false;
  std::string description;  // one line for notes, the summary JSON and the GUI
};
// The epsilon label's clause when Preprocessing::fitted_on_private_data.
inline constexpr const char* kPreprocessingNotCovered =
    "preprocessing fitted on private data: not covered";

// The per-feature map that brought loaded features into [0, 1], kept with the data so that a
// trained model can be applied to new rows exactly as it was to its own (model.json "input",
// dplab-cli predict). MinMaxScaler::apply and apply_feature_bounds record it and apply it through
// apply() (one implementation of each formula):
//   kMinMax (ranges fitted on rows): x'_j = (x_j - low_j) / range_j in float, 0 where range_j = 0;
//   kBounds (public bounds):         x'_j = (clamp(x_j, low_j, high_j) - low_j) / (high_j - low_j)
//                                    in double, a feature with low_j = high_j kept as it is (a
//                                    one-hot indicator, feature_scaling.h).
struct FeatureMap {
  enum class Kind { kNone, kMinMax, kBounds };
  Kind kind = Kind::kNone;
  std::vector<double> low, range, high;  // range: kMinMax only; high: kBounds only
  bool fitted_on_private_data = false;   // kMinMax: the ranges are statistics of private rows
  bool empty() const { return kind == Kind::kNone; }
  // Applies the map to every row of features (columns = low.size(); else InvalidArgument).
  void apply(Matrix& features) const;
};

class CsvEncoder;  // csv_loader.h

struct Dataset {
  std::string name;
  Matrix features;                         // n x d floats; empty when stored as pixels
  PixelMatrix pixels;                      // n x d bytes (images); empty for float data
  Vector targets;                          // n
  int num_classes = 0;                     // 0 = regression
  std::vector<std::string> feature_names;  // optional, d entries when known
  std::vector<std::string> class_names;    // optional, num_classes entries when known
  // What loading changed that the user must hear about ("dropped 36 of 40 rows with a missing
  // value"); the CLI prints these, the GUI shows them. Never silently changed data.
  std::vector<std::string> notes;
  // How the loader encoded the file's columns (CSV: CsvEncoder::description), empty otherwise;
  // also one of `notes`. Curator-facing, like the data set itself (summary.json "data.encoding").
  std::string encoding;
  // >= 0: rows [fixed_validation_begin, n) are a fixed validation (test) split, e.g. Adult's test
  // file (adult_preparation.h); prepare_split keeps it instead of drawing a random split. -1: none.
  // select_rows and concatenate return -1 (a subset or a union has no such split).
  Index fixed_validation_begin = -1;
  Preprocessing preprocessing;  // set by load_dataset / prepare_split
  // How the features were scaled after loading (none, min-max, public bounds).
  FeatureMap feature_map;
  // The column encoding of a CSV file (null for other formats): applied to new files by predict.
  std::shared_ptr<const CsvEncoder> csv_encoder;

  bool stores_pixels() const { return pixels.size() > 0; }
  Index size() const { return stores_pixels() ? pixels.rows() : features.rows(); }
  Index dim() const { return stores_pixels() ? pixels.cols() : features.cols(); }
  // Bytes of the feature storage (n d for pixels, 4 n d for floats).
  std::size_t feature_bytes() const {
    return stores_pixels() ? static_cast<std::size_t>(pixels.size())
                           : static_cast<std::size_t>(features.size()) * sizeof(float);
  }
  bool is_regression() const { return num_classes == 0; }
  // Checks shapes, finiteness and label range; throws InvalidArgument naming the problem.
  void validate() const;
};

// How raw rows become a model's input features: what a trained model must carry to be applied
// to new data (release/model_artefact.h writes it into model.json, predict reads it back).
struct InputEncoding {
  std::vector<std::string> feature_names;
  std::vector<std::string> class_names;
  FeatureMap feature_map;
  std::shared_ptr<const CsvEncoder> csv_encoder;  // CSV files only
  bool pixels = false;                            // image data: feature = byte / 255
  std::string preprocessing;                      // Preprocessing::description
};

struct TrainValidationSplit {
  Dataset train;
  Dataset validation;
  std::vector<std::string> notes = {};  // the loaded data set's notes (see Dataset::notes)
  Preprocessing preprocessing = {};     // how both parts were scaled (prepare_split)
};

// The encoding of a split's training part (names, feature map, CSV encoding) and its
// preprocessing. The CSV encoding is kept only when it made exactly these features (a
// preparation such as adult-paper may rearrange them after encoding).
InputEncoding input_encoding(const TrainValidationSplit& split);

// Seeded random split (paper appendix H: 80% train, 20% validation). Same seed => same split.
TrainValidationSplit split_train_validation(const Dataset& all, double validation_fraction,
                                            std::uint64_t seed);

// Per-feature min-max scaling to [0, 1] (paper appendix H). The ranges are fitted on `fit_on`
// and applied to every dataset in `apply_to` (constant features map to 0).
struct MinMaxScaler {
  Vector minimum;
  Vector range;  // max - min, 0 for constant features
  static MinMaxScaler fit(const Dataset& fit_on);
  void apply(Dataset& data) const;  // pixel data are first converted to float storage
};

// A subset of rows, in the given order (used for splits and tests); keeps the storage.
Dataset select_rows(const Dataset& all, const std::vector<Index>& rows);

// Rows of `first` followed by rows of `second` (same dim and label kind; e.g. a train and a test
// file loaded with a shared encoding). Names come from `first`; num_classes is the larger one.
// Two pixel data sets give pixels; otherwise floats.
Dataset concatenate(const Dataset& first, const Dataset& second, const std::string& name);

// Number of examples per class (num_classes entries); throws InvalidArgument for regression.
std::vector<Index> class_counts(const Dataset& data);

}  // namespace dplab::data
