// A data set from arrays held in memory (the Python module's dplab.train(X, y)): n x d features
// and n targets, checked as every loaded data set is (Dataset::validate). Classification targets
// are the class indices 0..C-1 (C = the largest + 1, at least 2); a regression keeps real values.
//
// Scaling (main paper appendix H: every model trains on features in [0, 1]): with public bounds
// (feature-range LO:HI, data/feature_scaling.h) each value is clamped and mapped by them, a map
// that needs no privacy budget. Without them dplab cannot know how the arrays were scaled before
// they came in, so the preprocessing is recorded as fitted on private data and every epsilon label
// says it is not covered; features outside [0, 1] are then min-max scaled on the training part by
// prepare_split, as for any data built in code.
#pragma once

#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/feature_scaling.h"

namespace dplab::data {

// `features` is moved in (no copy); errors name `features_field` / `targets_field` ("X", "y").
Dataset dataset_from_arrays(Matrix features, const std::vector<double>& targets, bool regression,
                            const FeatureBounds& bounds, const std::string& name = "arrays",
                            const std::string& features_field = "X",
                            const std::string& targets_field = "y");

}  // namespace dplab::data
