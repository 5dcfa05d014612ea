// model.onnx through ONNX's protobuf classes (onnx_model.h has the graph's formulas).
#include "release/onnx_model.h"

#include <bit>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>

#include "core/atomic_file.h"
#include "core/error.h"

#ifndef DPLAB_VERSION
#error "DPLAB_VERSION is set for this file by engine/CMakeLists.txt"
#endif

namespace dplab::release {
namespace {

using models::GraphOp;
using models::GraphOpKind;
using models::GraphShape;
using models::GraphTensor;

// The values between two nodes: rows [N, h w c] in HWC order, or a map [N, c, h, w] (NCHW, the
// layout of ONNX's Conv and pools). `shape` is the map's h x w x c either way.
struct Values {
  std::string name;
  bool map = false;
  GraphShape shape;
};

// Little-endian bytes of float32 values: TensorProto.raw_data's layout on every platform.
std::string raw_floats(const std::vector<float>& values) {
  std::string bytes;
  bytes.reserve(values.size() * 4);
  for (float v : values) {
    const auto bits = std::bit_cast<std::uint32_t>(v);
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<char>((bits >> (8 * b)) & 0xFF));
  }
  return bytes;
}

class OnnxBuilder {
 public:
  explicit OnnxBuilder(onnx::GraphProto& graph) : graph_(graph) {}

  // A node of `op_type` on `inputs`; the node and its one output are both called `output`
  // (names such as "layer3_conv", "layer3_conv_nchw": one per layer and step, so unique).
  onnx::NodeProto& node(const std::string& op_type, const std::vector<std::string>& inputs,
                        const std::string& output) {
    onnx::NodeProto& n = *graph_.add_node();
    n.set_op_type(op_type);
    n.set_name(output);
    for (const auto& input : inputs) n.add_input(input);
    n.add_output(output);
    return n;
  }

  static void ints(onnx::NodeProto& n, const std::string& name, const std::vector<Index>& values) {
    onnx::AttributeProto& a = *n.add_attribute();
    a.set_name(name);
    a.set_type(onnx::AttributeProto::INTS);
    for (Index v : values) a.add_ints(v);
  }
  static void integer(onnx::NodeProto& n, const std::string& name, Index value) {
    onnx::AttributeProto& a = *n.add_attribute();
    a.set_name(name);
    a.set_type(onnx::AttributeProto::INT);
    a.set_i(value);
  }
  static void real(onnx::NodeProto& n, const std::string& name, float value) {
    onnx::AttributeProto& a = *n.add_attribute();
    a.set_name(name);
    a.set_type(onnx::AttributeProto::FLOAT);
    a.set_f(value);
  }

  void float_initializer(const std::string& name, const std::vector<Index>& dims,
                         const std::vector<float>& values) {
    onnx::TensorProto& t = *graph_.add_initializer();
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::FLOAT);
    for (Index d : dims) t.add_dims(d);
    t.set_raw_data(raw_floats(values));
  }

  // The int64 shape [0, h, w, c] of Reshape (0: keep the batch dimension N), once per shape.
  std::string reshape_target(GraphShape s) {
    const std::string name = "shape_" + std::to_string(s.height) + "x" + std::to_string(s.width) +
                             "x" + std::to_string(s.channels);
    if (shapes_.insert(name).second) {
      onnx::TensorProto& t = *graph_.add_initializer();
      t.set_name(name);
      t.set_data_type(onnx::TensorProto::INT64);
      t.add_dims(4);
      for (Index d : {Index{0}, s.height, s.width, s.channels}) t.add_int64_data(d);
    }
    return name;
  }

  // Map -> rows: NCHW -> NHWC (Transpose), then Flatten: the HWC order dplab's rows have.
  Values to_rows(Values v, const std::string& stem) {
    if (!v.map) return v;
    onnx::NodeProto& t = node("Transpose", {v.name}, stem + "_nhwc");
    ints(t, "perm", {0, 2, 3, 1});
    onnx::NodeProto& f = node("Flatten", {t.output(0)}, stem + "_rows");
    integer(f, "axis", 1);
    return {f.output(0), false, v.shape};
  }

  // -> a map of `shape` in NCHW: rows reshaped to [N, h, w, c] (HWC) and transposed.
  Values to_map(Values v, GraphShape shape, const std::string& stem) {
    if (v.map && v.shape.height == shape.height && v.shape.width == shape.width &&
        v.shape.channels == shape.channels) {
      return v;
    }
    v = to_rows(v, stem);
    const std::string hwc =
        node("Reshape", {v.name, reshape_target(shape)}, stem + "_hwc").output(0);
    onnx::NodeProto& t = node("Transpose", {hwc}, stem + "_nchw");
    ints(t, "perm", {0, 3, 1, 2});
    return {t.output(0), true, shape};
  }

 private:
  onnx::GraphProto& graph_;
  std::set<std::string> shapes_;
};

// HWIO [k, k, c_in, c_out] -> OIHW [c_out, c_in, k, k] (ONNX Conv's weight).
std::vector<float> conv_weight_oihw(const GraphTensor& w) {
  const Index k = w.shape[0], in = w.shape[2], out = w.shape[3];
  std::vector<float> result(w.values.size());
  for (Index ky = 0; ky < k; ++ky)
    for (Index kx = 0; kx < k; ++kx)
      for (Index c = 0; c < in; ++c)
        for (Index o = 0; o < out; ++o) {
          result[static_cast<std::size_t>(((o * in + c) * k + ky) * k + kx)] =
              w.values[static_cast<std::size_t>(((ky * k + kx) * in + c) * out + o)];
        }
  return result;
}

// [c_in, k, k, c_out] -> [c_in, c_out, k, k] (ONNX ConvTranspose's weight).
std::vector<float> conv_transpose_weight(const GraphTensor& w) {
  const Index in = w.shape[0], k = w.shape[1], out = w.shape[3];
  std::vector<float> result(w.values.size());
  for (Index c = 0; c < in; ++c)
    for (Index ky = 0; ky < k; ++ky)
      for (Index kx = 0; kx < k; ++kx)
        for (Index o = 0; o < out; ++o) {
          result[static_cast<std::size_t>(((c * out + o) * k + ky) * k + kx)] =
              w.values[static_cast<std::size_t>(((c * k + ky) * k + kx) * out + o)];
        }
  return result;
}

void tensor_type(onnx::ValueInfoProto& info, const std::string& name, Index columns) {
  info.set_name(name);
  onnx::TypeProto_Tensor& type = *info.mutable_type()->mutable_tensor_type();
  type.set_elem_type(onnx::TensorProto::FLOAT);
  type.mutable_shape()->add_dim()->set_dim_param("N");
  type.mutable_shape()->add_dim()->set_dim_value(columns);
}

const char* elementwise_op(GraphOpKind kind) {
  switch (kind) {
    case GraphOpKind::kRelu:
      return "Relu";
    case GraphOpKind::kLeakyRelu:
      return "LeakyRelu";
    case GraphOpKind::kSigmoid:
      return "Sigmoid";
    case GraphOpKind::kTanh:
      return "Tanh";
    default:
      return nullptr;
  }
}

// One op of the dplab graph appended to the ONNX graph; returns the values it produces.
Values add_op(OnnxBuilder& b, const models::ModelGraph& graph, std::size_t index, Values v) {
  const GraphOp& op = graph.ops[index];
  const std::string stem = "layer" + std::to_string(index) + "_" + models::to_string(op.kind);
  const auto tensor = [&](int i) -> const GraphTensor& {
    return graph.tensors[static_cast<std::size_t>(i)];
  };
  const auto window = [&](onnx::NodeProto& n, bool padded) {
    OnnxBuilder::ints(n, "kernel_shape", {op.kernel, op.kernel});
    OnnxBuilder::ints(n, "strides", {op.stride, op.stride});
    if (padded) OnnxBuilder::ints(n, "pads", {op.padding, op.padding, op.padding, op.padding});
  };
  if (const char* type = elementwise_op(op.kind)) {
    onnx::NodeProto& n = b.node(type, {v.name}, stem);
    if (op.kind == GraphOpKind::kLeakyRelu) OnnxBuilder::real(n, "alpha", op.slope);
    return {n.output(0), v.map, v.shape};
  }
  switch (op.kind) {
    case GraphOpKind::kDense: {
      const Values rows = b.to_rows(v, stem);
      const GraphTensor& w = tensor(op.weight);
      const GraphTensor& bias = tensor(op.bias);
      b.float_initializer(w.name, w.shape, w.values);
      b.float_initializer(bias.name, bias.shape, bias.values);
      const onnx::NodeProto& n = b.node("Gemm", {rows.name, w.name, bias.name}, stem);
      return {n.output(0), false, op.output};
    }
    case GraphOpKind::kConv:
    case GraphOpKind::kConvTranspose: {
      const Values map = b.to_map(v, op.input, stem);
      const GraphTensor& w = tensor(op.weight);
      const GraphTensor& bias = tensor(op.bias);
      const bool conv = op.kind == GraphOpKind::kConv;
      const Index in = op.input.channels, out = op.output.channels;
      if (conv) {
        b.float_initializer(w.name, {out, in, op.kernel, op.kernel}, conv_weight_oihw(w));
      } else {
        b.float_initializer(w.name, {in, out, op.kernel, op.kernel}, conv_transpose_weight(w));
      }
      b.float_initializer(bias.name, bias.shape, bias.values);
      onnx::NodeProto& n =
          b.node(conv ? "Conv" : "ConvTranspose", {map.name, w.name, bias.name}, stem);
      window(n, true);
      return {n.output(0), true, op.output};
    }
    case GraphOpKind::kMaxPool:
    case GraphOpKind::kAvgPool: {
      const Values map = b.to_map(v, op.input, stem);
      onnx::NodeProto& n =
          b.node(op.kind == GraphOpKind::kMaxPool ? "MaxPool" : "AveragePool", {map.name}, stem);
      window(n, false);
      return {n.output(0), true, op.output};
    }
    default:
      throw InvalidArgument("model.onnx: op " + std::to_string(index) + " (" +
                            models::to_string(op.kind) + ") has no ONNX form");
  }
}

}  // namespace

std::string onnx_model_bytes(const models::ExportedModel& model) {
  const models::ModelGraph& graph = model.graph;
  models::check_graph(graph);
  onnx::ModelProto proto;
  proto.set_ir_version(kOnnxIrVersion);
  onnx::OperatorSetIdProto& opset = *proto.add_opset_import();
  opset.set_domain("");
  opset.set_version(kOnnxOpset);
  proto.set_producer_name("dplab");
  proto.set_producer_version(DPLAB_VERSION);
  proto.set_doc_string(
      "dplab " + graph.description +
      ": input rows of h*w*c floats in HWC order, encoded and scaled as model.json's input says");
  onnx::StringStringEntryProto& head = *proto.add_metadata_props();
  head.set_key("dplab.output");
  head.set_value(models::to_string(graph.output));

  onnx::GraphProto& g = *proto.mutable_graph();
  g.set_name(graph.description);
  tensor_type(*g.add_input(), "input", graph.input.size());
  OnnxBuilder builder(g);
  Values v{"input", false, graph.input};
  for (std::size_t i = 0; i < graph.ops.size(); ++i) v = add_op(builder, graph, i, v);
  v = builder.to_rows(v, "head");
  const Index columns = v.shape.size();
  switch (graph.output) {
    case models::OutputKind::kSoftmax: {
      onnx::NodeProto& n = builder.node("Softmax", {v.name}, "probabilities");
      OnnxBuilder::integer(n, "axis", 1);
      tensor_type(*g.add_output(), "probabilities", columns);
      break;
    }
    case models::OutputKind::kSigmoid: {
      // p(0) = sigmoid(-z), p(1) = sigmoid(z): each from its own stable form, as predict does.
      const std::string minus = builder.node("Neg", {v.name}, "head_minus_logit").output(0);
      const std::string p0 = builder.node("Sigmoid", {minus}, "head_p0").output(0);
      const std::string p1 = builder.node("Sigmoid", {v.name}, "head_p1").output(0);
      onnx::NodeProto& n = builder.node("Concat", {p0, p1}, "probabilities");
      OnnxBuilder::integer(n, "axis", 1);
      tensor_type(*g.add_output(), "probabilities", 2);
      break;
    }
    case models::OutputKind::kIdentity: {
      // The last node's values are the output: that node is renamed (no other node reads it).
      onnx::NodeProto& last = *g.mutable_node(g.node_size() - 1);
      last.set_output(0, "output");
      tensor_type(*g.add_output(), "output", columns);
      break;
    }
  }
  std::string bytes;
  if (!proto.SerializeToString(&bytes)) {
    throw Error("model.onnx: protobuf could not serialize the model '" + graph.description + "'");
  }
  return bytes;
}

void write_onnx(const models::ExportedModel& model, const std::string& path) {
  write_file_atomically(path, onnx_model_bytes(model));
}

}  // namespace dplab::release
