// ModelGraph: a trained model's forward pass as data — its operations in order and its
// parameters as named tensors — so that it can leave dplab (model.npz + model.json, ONNX) and be
// evaluated by code that knows nothing of dplab's flat parameter vector. The tensors'
// values, concatenated in order, are exactly the model's flat parameter vector (Model::params).
//
// Conventions (the same in model.json, the numpy reference in tests/support and the ONNX writer):
// - one example is a row of `input.size()` floats in HWC order (models/network_layers.h): the
//   value of channel c at (y, x) of an h x w map is at (y w + x) c_total + c. Tabular data are a
//   1 x 1 x d map;
// - tensors are row-major (C order) with the shapes below, exactly the values the engine holds;
// - dense:          z = a W + b,  W [d_in, d_out], b [d_out]; a = the input flattened (HWC);
// - conv:           z[oy, ox, o] = b[o] + sum_{ky, kx, c} W[ky, kx, c, o]
//                                    x[oy s - p + ky, ox s - p + kx, c]   (zero outside the map),
//                   W [k, k, c_in, c_out] (HWIO), b [c_out]; out = (h + 2p - k) / s + 1;
// - conv_transpose: the adjoint of conv (Dumoulin & Visin 2016):
//                   z[iy s - p + ky, ix s - p + kx, o] += sum_c x[iy, ix, c] W[c, ky, kx, o],
//                   plus b[o]; W [c_in, k, k, c_out]; out = (h - 1) s - 2p + k (PyTorch's);
// - max_pool / avg_pool: k x k windows with stride s, no padding, out = (h - k) / s + 1;
// - relu, leaky_relu (slope 0.01), sigmoid, tanh: element-wise;
// - then the output head turns the last values into predictions (OutputKind).
#pragma once

#include <string>
#include <vector>

#include "core/types.h"

namespace dplab::models {

struct GraphShape {
  Index height = 1, width = 1, channels = 1;
  Index size() const { return height * width * channels; }
};

enum class GraphOpKind {
  kDense,
  kConv,
  kConvTranspose,
  kMaxPool,
  kAvgPool,
  kRelu,
  kLeakyRelu,
  kSigmoid,
  kTanh,
};

struct GraphOp {
  GraphOpKind kind = GraphOpKind::kRelu;
  GraphShape input, output;
  Index kernel = 0, stride = 0, padding = 0;  // conv, conv_transpose, pools
  float slope = 0;                            // leaky_relu's negative slope
  int weight = -1, bias = -1;                 // indices into ModelGraph::tensors (-1: none)
};

struct GraphTensor {
  std::string name;           // "layer0.weight", "layer0.bias", ...
  std::vector<Index> shape;   // C order
  std::vector<float> values;  // product of shape entries, row-major
};

// How the last op's values become predictions:
//   kSigmoid:  one value z, p(class 1) = sigmoid(z) (binary classification);
//   kSoftmax:  one value per class, p = softmax(z);
//   kIdentity: the values are the prediction (regression: one value; autoencoder: the image).
enum class OutputKind { kSigmoid, kSoftmax, kIdentity };

struct ModelGraph {
  std::string kind;         // the model kind token: "logistic", "tlnn", "cnn", "custom", ...
  std::string description;  // Model::description(), e.g. "tlnn 784-100-10"
  GraphShape input;
  std::vector<GraphOp> ops;
  std::vector<GraphTensor> tensors;
  OutputKind output = OutputKind::kIdentity;
  int num_classes = 0;  // 0: regression or reconstruction
};

std::string to_string(GraphOpKind kind);  // "dense", "conv", ..., "tanh"
std::string to_string(OutputKind kind);   // "sigmoid" | "softmax" | "identity"

// Appends a tensor holding the product of `shape` floats copied from `values`; returns its index.
int add_tensor(ModelGraph& graph, std::string name, std::vector<Index> shape, const float* values);

// Checks shapes: every op's input is the previous op's output and the first op's the graph's
// input, each tensor holds the product of its shape, every op has the tensors its kind needs at
// the shapes above, and the last op fits the output head. Throws InvalidArgument naming the op.
void check_graph(const ModelGraph& graph);

}  // namespace dplab::models
