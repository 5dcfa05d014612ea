// model.onnx: a released model's forward pass as an ONNX graph (opset 13, IR version 7), for
// deployment with any ONNX runtime. Written through ONNX's own protobuf classes (Debian's
// libonnx-dev); it holds the architecture and the trained parameters only — no input encoding,
// no class labels — so every byte of it is covered by the card's ε like model.npz (charged).
//
// The graph computes exactly model.json's formulas (models/model_graph.h):
//   input   "input": float [N, d], d = h w c, one example per row in dplab's HWC order (the
//           features after the input encoding and scaling of model.json, as in model.npz's use);
//   dense   (Transpose NCHW -> NHWC, Flatten when the values are a map) then Gemm(a, W, b), W
//           [d_in, d_out] as stored;
//   conv    (Reshape [N, h, w, c] + Transpose -> NCHW when the values are rows) then Conv with
//           W transposed from HWIO [k, k, c_in, c_out] to ONNX's OIHW [c_out, c_in, k, k],
//           pads p on each side, strides s;
//   conv_transpose  ConvTranspose with W [c_in, k, k, c_out] transposed to ONNX's
//           [c_in, c_out, k, k], pads p, strides s: output (h - 1) s - 2p + k;
//   max_pool / avg_pool  MaxPool / AveragePool, k x k, strides s, no padding;
//   relu, leaky_relu (alpha = the slope, 0.01), sigmoid, tanh: Relu, LeakyRelu, Sigmoid, Tanh;
//   head    values back to rows in HWC order, then softmax: Softmax(axis 1) -> "probabilities"
//           [N, classes]; sigmoid: Concat(Sigmoid(-z), Sigmoid(z)) -> "probabilities" [N, 2]
//           = [p(0), p(1)], the p_ columns of `dplab-cli predict`; identity -> "output" [N, m].
#pragma once

#include <string>

#include "models/model_export.h"

namespace dplab::release {

inline constexpr int kOnnxOpset = 13;
inline constexpr int kOnnxIrVersion = 7;  // the IR version of ONNX 1.8, which introduced opset 13
inline constexpr const char* kOnnxFile = "model.onnx";

// The serialized onnx::ModelProto of `model` (check_graph'ed; InvalidArgument otherwise).
std::string onnx_model_bytes(const models::ExportedModel& model);

// Writes onnx_model_bytes(model) to `path` atomically (temp file + rename). IoError naming the
// path when it cannot be written.
void write_onnx(const models::ExportedModel& model, const std::string& path);

}  // namespace dplab::release
