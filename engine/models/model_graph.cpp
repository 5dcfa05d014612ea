#include "models/model_graph.h"

#include <functional>
#include <numeric>

#include "core/error.h"
#include "models/model.h"

namespace dplab::models {

std::string to_string(GraphOpKind kind) {
  switch (kind) {
    case GraphOpKind::kDense:
      return "dense";
    case GraphOpKind::kConv:
      return "conv";
    case GraphOpKind::kConvTranspose:
      return "conv_transpose";
    case GraphOpKind::kMaxPool:
      return "max_pool";
    case GraphOpKind::kAvgPool:
      return "avg_pool";
    case GraphOpKind::kRelu:
      return "relu";
    case GraphOpKind::kLeakyRelu:
      return "leaky_relu";
    case GraphOpKind::kSigmoid:
      return "sigmoid";
    case GraphOpKind::kTanh:
      return "tanh";
  }
  return "unknown";
}

std::string to_string(OutputKind kind) {
  switch (kind) {
    case OutputKind::kSigmoid:
      return "sigmoid";
    case OutputKind::kSoftmax:
      return "softmax";
    case OutputKind::kIdentity:
      return "identity";
  }
  return "unknown";
}

int add_tensor(ModelGraph& graph, std::string name, std::vector<Index> shape, const float* values) {
  const Index size = std::accumulate(shape.begin(), shape.end(), Index{1}, std::multiplies<>());
  graph.tensors.push_back(
      {std::move(name), std::move(shape), std::vector<float>(values, values + size)});
  return static_cast<int>(graph.tensors.size() - 1);
}

void Model::describe_graph(ModelGraph& /*graph*/) const {
  throw InvalidArgument("model '" + description() + "' cannot be exported (no forward graph)");
}

namespace {

std::string shape_text(const std::vector<Index>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return text + "]";
}

std::string map_text(GraphShape s) {
  return std::to_string(s.height) + "x" + std::to_string(s.width) + "x" +
         std::to_string(s.channels);
}

// The shapes an op's weight and bias must have (empty: the op has no parameters).
std::vector<Index> weight_shape(const GraphOp& op) {
  switch (op.kind) {
    case GraphOpKind::kDense:
      return {op.input.size(), op.output.size()};
    case GraphOpKind::kConv:
      return {op.kernel, op.kernel, op.input.channels, op.output.channels};
    case GraphOpKind::kConvTranspose:
      return {op.input.channels, op.kernel, op.kernel, op.output.channels};
    default:
      return {};
  }
}

// The output map an op computes from its input (docs at the top of model_graph.h).
GraphShape expected_output(const GraphOp& op) {
  const GraphShape in = op.input;
  switch (op.kind) {
    case GraphOpKind::kDense:
      return {1, 1, op.output.size()};
    case GraphOpKind::kConv:
      return {(in.height + 2 * op.padding - op.kernel) / op.stride + 1,
              (in.width + 2 * op.padding - op.kernel) / op.stride + 1, op.output.channels};
    case GraphOpKind::kConvTranspose:
      return {(in.height - 1) * op.stride - 2 * op.padding + op.kernel,
              (in.width - 1) * op.stride - 2 * op.padding + op.kernel, op.output.channels};
    case GraphOpKind::kMaxPool:
    case GraphOpKind::kAvgPool:
      return {(in.height - op.kernel) / op.stride + 1, (in.width - op.kernel) / op.stride + 1,
              in.channels};
    default:
      return in;
  }
}

}  // namespace

void check_graph(const ModelGraph& graph) {
  if (graph.ops.empty()) throw InvalidArgument("model graph: no operations");
  GraphShape current = graph.input;
  std::vector<bool> used(graph.tensors.size(), false);
  for (std::size_t i = 0; i < graph.ops.size(); ++i) {
    const GraphOp& op = graph.ops[i];
    const std::string where =
        "model graph: op " + std::to_string(i) + " (" + to_string(op.kind) + ")";
    if (op.input.size() != current.size() || op.input.channels != current.channels) {
      throw InvalidArgument(where + ": input " + map_text(op.input) + " does not follow " +
                            map_text(current));
    }
    const bool windowed = op.kind == GraphOpKind::kConv || op.kind == GraphOpKind::kConvTranspose ||
                          op.kind == GraphOpKind::kMaxPool || op.kind == GraphOpKind::kAvgPool;
    if (windowed && (op.kernel < 1 || op.stride < 1 || op.padding < 0)) {
      throw InvalidArgument(where + ": kernel and stride must be >= 1, padding >= 0");
    }
    const GraphShape out = expected_output(op);
    if (out.height != op.output.height || out.width != op.output.width ||
        out.channels != op.output.channels) {
      throw InvalidArgument(where + ": output " + map_text(op.output) + ", expected " +
                            map_text(out));
    }
    const std::vector<Index> w = weight_shape(op);
    const auto check_tensor = [&](int index, const std::vector<Index>& shape, const char* role) {
      if (index < 0 || static_cast<std::size_t>(index) >= graph.tensors.size()) {
        throw InvalidArgument(where + ": no " + role + " tensor");
      }
      const GraphTensor& t = graph.tensors[static_cast<std::size_t>(index)];
      if (t.shape != shape) {
        throw InvalidArgument(where + ": " + role + " '" + t.name + "' has shape " +
                              shape_text(t.shape) + ", expected " + shape_text(shape));
      }
      used[static_cast<std::size_t>(index)] = true;
    };
    if (w.empty()) {
      if (op.weight >= 0 || op.bias >= 0) throw InvalidArgument(where + ": takes no parameters");
    } else {
      check_tensor(op.weight, w, "weight");
      check_tensor(op.bias, {op.output.channels}, "bias");  // dense: output 1 x 1 x units
    }
    current = op.output;
  }
  for (std::size_t t = 0; t < graph.tensors.size(); ++t) {
    const GraphTensor& tensor = graph.tensors[t];
    const Index size =
        std::accumulate(tensor.shape.begin(), tensor.shape.end(), Index{1}, std::multiplies<>());
    if (static_cast<std::size_t>(size) != tensor.values.size()) {
      throw InvalidArgument("model graph: tensor '" + tensor.name + "' of shape " +
                            shape_text(tensor.shape) + " holds " +
                            std::to_string(tensor.values.size()) + " values");
    }
    if (!used[t]) throw InvalidArgument("model graph: tensor '" + tensor.name + "' is not used");
  }
  const Index outputs = current.size();
  const bool fits = graph.output == OutputKind::kSigmoid ? outputs == 1 && graph.num_classes == 2
                    : graph.output == OutputKind::kSoftmax
                        ? outputs == graph.num_classes && graph.num_classes >= 2
                        : true;
  if (!fits) {
    throw InvalidArgument("model graph: a " + to_string(graph.output) + " head on " +
                          std::to_string(outputs) + " outputs for " +
                          std::to_string(graph.num_classes) + " classes");
  }
}

}  // namespace dplab::models
