// Shape checks shared by the models: every mismatch a caller can make throws InvalidArgument
// naming the model, the argument and both sizes. Cheap (O(1), no pass over the data).
//
// Internal to engine/models. Thread-safety: pure functions.
#pragma once

#include <string_view>

#include "core/types.h"
#include "data/dataset.h"
#include "models/clipping.h"

namespace dplab::models::detail {

// x must have input_dim columns and y one entry per row of x.
void check_batch(std::string_view model, Index input_dim, const MatrixView& x, const VectorView& y);

// The rule is valid (check_clipping: C > 0, or flat kNoClipping); gradient_sum has num_params
// entries; norms has one entry per row (or none when the rule needs no norms).
void check_gradient_outputs(std::string_view model, Index num_params, Index rows,
                            const Clipping& clip, const VectorSpan& gradient_sum,
                            const VectorSpan& norms);

// The data set is non-empty and has the model's input dimension and number of classes
// (num_classes = 0: a regression data set).
void check_dataset(std::string_view model, Index input_dim, int num_classes,
                   const data::Dataset& data);

}  // namespace dplab::models::detail
