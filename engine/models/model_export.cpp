#include "models/model_export.h"

#include <cmath>

#include "core/error.h"

namespace dplab::models {

ExportedModel export_model(const Model& model, const ModelSpec& spec, int num_classes) {
  ExportedModel exported;
  exported.spec = spec;
  exported.num_classes = num_classes;
  ModelGraph& graph = exported.graph;
  graph.kind = to_string(spec.kind);
  graph.description = model.description();
  graph.num_classes = num_classes;
  model.describe_graph(graph);
  if (graph.ops.empty()) throw InvalidArgument("model '" + graph.description + "' has no layers");
  graph.input = graph.ops.front().input;
  exported.input_dim = graph.input.size();
  check_graph(graph);
  return exported;
}

std::unique_ptr<Model> import_model(const ExportedModel& exported) {
  check_graph(exported.graph);
  auto model = make_model(exported.spec, exported.input_dim, exported.num_classes);
  ModelGraph rebuilt;
  rebuilt.num_classes = exported.num_classes;
  model->describe_graph(rebuilt);
  const ModelGraph& given = exported.graph;
  const auto mismatch = [&](const std::string& what) {
    throw InvalidArgument("model: " + what + " does not match a " + to_string(exported.spec.kind) +
                          " model for " + std::to_string(exported.input_dim) + " inputs (" +
                          model->description() + ")");
  };
  if (rebuilt.ops.size() != given.ops.size()) mismatch("the number of layers");
  for (std::size_t i = 0; i < given.ops.size(); ++i) {
    const GraphOp &a = given.ops[i], &b = rebuilt.ops[i];
    if (a.kind != b.kind || a.output.size() != b.output.size() || a.kernel != b.kernel ||
        a.stride != b.stride || a.padding != b.padding) {
      mismatch("op " + std::to_string(i) + " (" + to_string(a.kind) + ")");
    }
  }
  if (rebuilt.tensors.size() != given.tensors.size()) mismatch("the number of tensors");
  if (rebuilt.output != given.output) mismatch("the output head " + to_string(given.output));
  Vector& params = model->params();
  Index offset = 0;
  for (std::size_t t = 0; t < given.tensors.size(); ++t) {
    const GraphTensor& tensor = given.tensors[t];
    if (tensor.shape != rebuilt.tensors[t].shape) mismatch("tensor '" + tensor.name + "'");
    const auto size = static_cast<Index>(tensor.values.size());
    params.segment(offset, size) = Eigen::Map<const Vector>(tensor.values.data(), size);
    offset += size;
  }
  if (offset != params.size()) mismatch("the number of parameters");
  return model;
}

Matrix predict_outputs(Model& model, OutputKind output, const MatrixView& x) {
  Matrix z;
  model.logits(x, z);
  switch (output) {
    case OutputKind::kIdentity:
      return z;
    case OutputKind::kSigmoid: {
      // p(1) = 1 / (1 + e^{-z}), p(0) = 1 - p(1), each from its own stable form.
      Matrix p(z.rows(), 2);
      for (Index i = 0; i < z.rows(); ++i) {
        const double v = z(i, 0);
        p(i, 1) = static_cast<float>(1.0 / (1.0 + std::exp(-v)));
        p(i, 0) = static_cast<float>(1.0 / (1.0 + std::exp(v)));
      }
      return p;
    }
    case OutputKind::kSoftmax: {
      // softmax(z)_j = e^{z_j - max z} / sum_l e^{z_l - max z}
      Matrix p(z.rows(), z.cols());
      for (Index i = 0; i < z.rows(); ++i) {
        const double top = z.row(i).maxCoeff();
        double total = 0;
        for (Index j = 0; j < z.cols(); ++j) total += std::exp(double{z(i, j)} - top);
        for (Index j = 0; j < z.cols(); ++j) {
          p(i, j) = static_cast<float>(std::exp(double{z(i, j)} - top) / total);
        }
      }
      return p;
    }
  }
  return z;
}

}  // namespace dplab::models
