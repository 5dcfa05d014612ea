#include "data/array_dataset.h"

#include <cmath>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::data {

Dataset dataset_from_arrays(Matrix features, const std::vector<double>& targets, bool regression,
                            const FeatureBounds& bounds, const std::string& name,
                            const std::string& features_field, const std::string& targets_field) {
  const auto n = features.rows();
  if (n < 2 || features.cols() < 1) {
    throw InvalidArgument(features_field + ": expected at least 2 rows and 1 column, got " +
                          std::to_string(n) + " x " + std::to_string(features.cols()));
  }
  if (static_cast<Index>(targets.size()) != n) {
    throw InvalidArgument(targets_field + ": " + std::to_string(targets.size()) + " targets for " +
                          std::to_string(n) + " rows of " + features_field);
  }
  for (Index i = 0; i < features.size(); ++i) {
    if (!std::isfinite(features.data()[i])) {
      throw InvalidArgument(features_field + ": row " + std::to_string(i / features.cols()) +
                            ", column " + std::to_string(i % features.cols()) +
                            " is not a finite number");
    }
  }
  Dataset data;
  data.name = name;
  data.features = std::move(features);
  data.targets.resize(n);
  double largest = 0;
  for (Index i = 0; i < n; ++i) {
    const double t = targets[static_cast<std::size_t>(i)];
    const std::string where = targets_field + "[" + std::to_string(i) + "]";
    require_finite(where, t);
    if (!regression) {
      // Exact as float up to 2^24 classes (dataset.h).
      if (t < 0 || t != std::floor(t) || t >= 16777216.0)
        fail_field(where, t, "must be a class index 0, 1, ... (an integer >= 0)");
      largest = std::max(largest, t);
    }
    data.targets[i] = static_cast<float>(t);
  }
  data.num_classes = regression ? 0 : static_cast<int>(largest) + 1;
  if (!regression && data.num_classes < 2) {
    throw InvalidArgument(targets_field +
                          ": a classification needs at least two classes (0 and 1); for real "
                          "values use model=\"linear\"");
  }
  if (!bounds.empty()) {
    apply_feature_bounds(data, bounds);
    data.preprocessing = {false, describe_feature_bounds(bounds)};
  } else {
    data.preprocessing = {
        true, std::string("arrays given without public bounds (feature_range): how they were "
                          "scaled is not known to be public; outside [0, 1] min-max ranges are "
                          "fitted on the training part: ") +
                  kPreprocessingNotCovered};
  }
  data.validate();
  return data;
}

}  // namespace dplab::data
