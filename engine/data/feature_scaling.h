// Feature scaling to [0, 1] from PUBLIC bounds, and the record of how a data set was scaled.
//
// Every model in dplab trains on features in [0, 1] (main paper appendix H). The paper gets there
// with a min-max scaling fitted on the data itself: the per-feature minimum and maximum are
// functions of the private rows, and the appendix leaves that preprocessing outside the privacy
// accounting. dplab does the same by default for CSV, LIBSVM and Adult (dataset_catalog.h), and
// says so: Preprocessing::fitted_on_private_data (dataset.h) is then true and every epsilon label
// adds kPreprocessingNotCovered.
//
// Public bounds avoid the release: the user states an interval [lo_j, hi_j] per feature, chosen
// without looking at the private rows (a schema, a codebook, a physical range), and each value is
// clamped then mapped affinely:
//     x'_ij = (min(max(x_ij, lo_j), hi_j) - lo_j) / (hi_j - lo_j)   in [0, 1].
// x'_ij depends on x_ij and the public bounds only, so adding or removing a row changes no other
// row's features: the map is data-independent and needs no privacy budget. Clamping is what makes
// a bound safe to state: an outlier beyond it is moved to the bound rather than stretching the
// scale of every other row.
//
// Intervals come from one range for every feature (`--feature-range LO:HI`, the experiment key
// dataset.feature_range) and/or per feature by name (dataset.feature_bounds, a JSON object
// {"age": [17, 90], ...}); a named interval wins over the common one. One-hot indicator features
// (named "column=value" by the CSV encoding, csv_loader.h) are in {0, 1} by the encoding, a
// public fact, and keep their value unless named in feature_bounds.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "data/dataset.h"

namespace dplab::data {

struct FeatureInterval {
  double low = 0;
  double high = 1;
};

struct FeatureBounds {
  std::optional<FeatureInterval> all;              // every feature without a named interval
  std::map<std::string, FeatureInterval> by_name;  // feature name -> interval
  // Where the bounds came from, for error messages: "--feature-range", "dataset", ...
  std::string field = "feature bounds";
  bool empty() const { return !all && by_name.empty(); }
};

// Throws InvalidArgument naming `field` unless low < high, both finite.
void validate_feature_interval(std::string_view field, const FeatureInterval& interval);

// "LO:HI" (e.g. "0:255", "-1e3:1e3") -> an interval; errors name `field` and the text.
FeatureInterval parse_feature_range(const std::string& text, std::string_view field);

// {"name": [lo, hi], ...} -> named intervals; errors name `field`.name.
std::map<std::string, FeatureInterval> parse_feature_bounds(const nlohmann::json& object,
                                                            std::string_view field);
nlohmann::json feature_bounds_json(const std::map<std::string, FeatureInterval>& by_name);

// "[0, 255] for every feature, clamped" / "per-feature bounds for 6 features, clamped".
std::string describe_feature_bounds(const FeatureBounds& bounds);

// Clamps and maps every float feature of `data` by `bounds` (formula above). Throws
// InvalidArgument naming bounds.field when a feature has no interval (and is not one-hot), when a
// named feature does not exist, or for image data (pixels already use the public bounds 0..255).
void apply_feature_bounds(Dataset& data, const FeatureBounds& bounds);

}  // namespace dplab::data
