// A trained model as it leaves the engine: the spec it was built from, the data shape, and its
// forward graph with the parameter values (model_graph.h). export_model and import_model are
// inverse: import_model(export_model(m)) computes exactly m's logits (the same parameters, the
// same kernels), which is what makes `dplab-cli predict` equal a run's own predictions.
#pragma once

#include <memory>

#include "models/model.h"
#include "models/model_graph.h"

namespace dplab::models {

struct ExportedModel {
  ModelSpec spec;
  Index input_dim = 0;
  int num_classes = 0;  // 0: regression (or the autoencoder's reconstruction)
  ModelGraph graph;
};

// The model's graph at its current parameters (Model::describe_graph), checked (check_graph).
ExportedModel export_model(const Model& model, const ModelSpec& spec, int num_classes);

// Rebuilds the model (make_model) and sets its parameters from the graph's tensors. Throws
// InvalidArgument when the graph is not the one that spec builds for this shape (naming the
// first op or tensor that differs).
std::unique_ptr<Model> import_model(const ExportedModel& exported);

// Predictions for rows of x: class probabilities (softmax; a sigmoid head gives p(0), p(1)) or
// the model's outputs (regression, reconstruction), one row per row of x.
Matrix predict_outputs(Model& model, OutputKind output, const MatrixView& x);

}  // namespace dplab::models
