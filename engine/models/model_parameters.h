// A trained model as its flat parameter vector, as the run history stores it (store/), and back.
#pragma once

#include <vector>

#include "models/model_export.h"

namespace dplab::models {

// The parameters as one flat vector (the tensors concatenated), and the model rebuilt from it
// (make_model of spec for this shape, then export_model): how a run history stores a model.
// InvalidArgument when the count does not fit the spec.
std::vector<float> flat_parameters(const ExportedModel& exported);
ExportedModel exported_from_parameters(const ModelSpec& spec, Index input_dim, int num_classes,
                                       const std::vector<float>& parameters);

}  // namespace dplab::models
