// Network descriptions: a small JSON text naming the input shape, the loss and the layers in
// order, e.g.
//   {"name": "cnn", "input": [28, 28, 1], "loss": "cross_entropy",
//    "layers": [{"type": "conv", "channels": 16, "kernel": 8, "stride": 2, "padding": 3},
//               {"type": "relu"}, {"type": "max_pool", "kernel": 2, "stride": 1}, ...,
//               {"type": "dense", "units": 10}]}
// Layer types: conv, conv_transpose (channels, kernel, stride = 1, padding = 0), max_pool,
// avg_pool (kernel, stride = kernel), relu, leaky_relu, sigmoid, tanh, dense (units; flattens its
// input). loss: "cross_entropy" (the last layer has num_classes units) or "reconstruction" (mean
// squared error of the output against the input; the output has the input's size).
// "norms": "auto" (default) | "ghost" | "direct" forces the per-example norm method of every
// conv layer (tests compare them).
//
// Built-ins:
// - "cnn": Opacus's MNIST example and the OSO appendix's classifier (Table 5 lists stride 1; we
//   follow Opacus and the issue): conv 16x8x8 /2 pad 3, ReLU, max-pool 2/1, conv 32x4x4 /2, ReLU,
//   max-pool 2/1, dense 32, ReLU, dense 10 (26,010 parameters on 28x28x1).
// - "conv-autoencoder": the OSO appendix's Fashion-MNIST autoencoder (Table 6): conv 8, 16, 32,
//   64 (3x3, stride 1, no padding, LeakyReLU), conv_transpose 32, 16, 8 (LeakyReLU) and 1
//   (sigmoid); 48,705 parameters, exactly Table 1's model size.
// - "wide-cnn": Tramer & Boneh's (ICLR 2021) end-to-end CIFAR-10 CNN on 28x28x1 (issue #49):
//   conv 32, 32, max-pool 2, conv 64, 64, max-pool 2, conv 128, 128, max-pool 4/1, dense 128,
//   dense 10; 3x3 convs with stride 1 and padding 1, tanh after every conv and dense 128 (as in
//   the paper). The paper's third 2x2 pool would give 3x3 maps on 28x28 (435,306 parameters); the
//   4x4 stride-1 pool gives 4x4, CIFAR-10's 2048 dense inputs: 549,994 parameters.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/conv_network.h"

namespace dplab::models {

// The JSON text of a built-in (cnn, conv-autoencoder, wide-cnn); else throws InvalidArgument.
std::string builtin_network_json(const std::string& name);

// One layer as written (fields the type does not take stay 0).
struct LayerDescription {
  std::string type;  // conv | conv_transpose | max_pool | avg_pool | relu | leaky_relu | ...
  Index channels = 0, kernel = 0, stride = 0, padding = 0, units = 0;
};

// A description checked for its keys and types (not yet against a data set's shape).
struct NetworkDescription {
  std::string name = "network";
  detail::MapShape input;
  NetworkLoss loss = NetworkLoss::kSoftmaxCrossEntropy;
  detail::NormMethod norms = detail::NormMethod::kAuto;
  std::vector<LayerDescription> layers;
};

// Parses and checks a description: unknown keys (also inside a layer), missing or mistyped
// fields and out-of-range values throw InvalidArgument "<prefix>layers[2].kernel: ...", naming
// the layer index and the field. `prefix` says where the description came from ("model." in
// an experiment file).
NetworkDescription parse_network_description(const std::string& json_text,
                                             const std::string& prefix = "network description: ");

// Parses a description and builds the network for data with input_dim features and num_classes
// classes; shape errors (a kernel larger than its input, a last layer that does not match the
// classes) also name the layer index.
std::unique_ptr<ConvNetwork> make_network(const std::string& json_text, Index input_dim,
                                          int num_classes,
                                          const std::string& prefix = "network description: ");

}  // namespace dplab::models
