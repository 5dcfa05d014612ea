#include "models/model_parameters.h"

#include "core/error.h"

namespace dplab::models {

std::vector<float> flat_parameters(const ExportedModel& exported) {
  std::vector<float> flat;
  for (const auto& tensor : exported.graph.tensors) {
    flat.insert(flat.end(), tensor.values.begin(), tensor.values.end());
  }
  return flat;
}

ExportedModel exported_from_parameters(const ModelSpec& spec, Index input_dim, int num_classes,
                                       const std::vector<float>& parameters) {
  auto model = make_model(spec, input_dim, num_classes);
  if (static_cast<Index>(parameters.size()) != model->num_params()) {
    throw InvalidArgument("stored model: " + std::to_string(parameters.size()) + " parameters, a " +
                          model->description() + " has " + std::to_string(model->num_params()));
  }
  model->params() = Eigen::Map<const Vector>(parameters.data(), model->num_params());
  return export_model(*model, spec, num_classes);
}

}  // namespace dplab::models
