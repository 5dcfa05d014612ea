// Network descriptions (see network_description.h): JSON -> layers, and the built-ins.
#include "models/network_description.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"

namespace dplab::models {
namespace {

using nlohmann::json;

// Opacus's MNIST example (and the issue's "cnn"): 26,010 parameters on 28x28x1.
constexpr const char* kCnnJson = R"({
  "name": "cnn", "input": [28, 28, 1], "loss": "cross_entropy",
  "layers": [
    {"type": "conv", "channels": 16, "kernel": 8, "stride": 2, "padding": 3},
    {"type": "relu"},
    {"type": "max_pool", "kernel": 2, "stride": 1},
    {"type": "conv", "channels": 32, "kernel": 4, "stride": 2},
    {"type": "relu"},
    {"type": "max_pool", "kernel": 2, "stride": 1},
    {"type": "dense", "units": 32},
    {"type": "relu"},
    {"type": "dense", "units": 10}
  ]
})";

// The OSO appendix's Fashion-MNIST autoencoder (Table 6): 48,705 parameters.
constexpr const char* kAutoencoderJson = R"({
  "name": "conv-autoencoder", "input": [28, 28, 1], "loss": "reconstruction",
  "layers": [
    {"type": "conv", "channels": 8, "kernel": 3}, {"type": "leaky_relu"},
    {"type": "conv", "channels": 16, "kernel": 3}, {"type": "leaky_relu"},
    {"type": "conv", "channels": 32, "kernel": 3}, {"type": "leaky_relu"},
    {"type": "conv", "channels": 64, "kernel": 3}, {"type": "leaky_relu"},
    {"type": "conv_transpose", "channels": 32, "kernel": 3}, {"type": "leaky_relu"},
    {"type": "conv_transpose", "channels": 16, "kernel": 3}, {"type": "leaky_relu"},
    {"type": "conv_transpose", "channels": 8, "kernel": 3}, {"type": "leaky_relu"},
    {"type": "conv_transpose", "channels": 1, "kernel": 3}, {"type": "sigmoid"}
  ]
})";

// Tramer & Boneh (ICLR 2021), "Differentially private learning needs better features", the
// end-to-end CIFAR-10 CNN (their Table 9, after Papernot et al. 2021): six 3x3 convs 32, 32, 64,
// 64, 128, 128 (stride 1, padding 1, tanh), a 2x2 max-pool after each pair, dense 128 (tanh),
// dense 10. On 28x28x1 the pools give 14, 7 and 3 (435,306 parameters); the one change: the last
// pool is 4x4 with stride 1 (7 -> 4), so dense 128 sees 4x4x128 = 2048 features as on CIFAR-10's
// 32x32 maps: 549,994 parameters (CIFAR-10's 550,570 minus conv1's two other input channels).
constexpr const char* kWideCnnJson = R"({
  "name": "wide-cnn", "input": [28, 28, 1], "loss": "cross_entropy",
  "layers": [
    {"type": "conv", "channels": 32, "kernel": 3, "padding": 1}, {"type": "tanh"},
    {"type": "conv", "channels": 32, "kernel": 3, "padding": 1}, {"type": "tanh"},
    {"type": "max_pool", "kernel": 2},
    {"type": "conv", "channels": 64, "kernel": 3, "padding": 1}, {"type": "tanh"},
    {"type": "conv", "channels": 64, "kernel": 3, "padding": 1}, {"type": "tanh"},
    {"type": "max_pool", "kernel": 2},
    {"type": "conv", "channels": 128, "kernel": 3, "padding": 1}, {"type": "tanh"},
    {"type": "conv", "channels": 128, "kernel": 3, "padding": 1}, {"type": "tanh"},
    {"type": "max_pool", "kernel": 4, "stride": 1},
    {"type": "dense", "units": 128}, {"type": "tanh"},
    {"type": "dense", "units": 10}
  ]
})";

constexpr std::int64_t kMaxSize = 100000;  // any integer field of a network, and input sides
constexpr std::size_t kMaxLayers = 1000;

// An integer field of a layer in [lo, kMaxSize]; `fallback` when missing, required without one.
Index integer(JsonReader& layer, const std::string& key, std::optional<Index> fallback, Index lo) {
  if (!fallback) layer.require(key);
  return layer.optional_integer(key, lo, kMaxSize).value_or(fallback.value_or(0));
}

// One element of "layers": its type and the keys that type takes (anything else is a typo and
// an error).
LayerDescription read_layer(JsonReader& r) {
  static const std::vector<std::string> types{"conv",     "conv_transpose", "max_pool",
                                              "avg_pool", "relu",           "leaky_relu",
                                              "sigmoid",  "tanh",           "dense"};
  r.require("type");
  LayerDescription out;
  out.type = types[*r.optional_choice("type", types, "layer type")];
  if (out.type == "conv" || out.type == "conv_transpose") {
    out.channels = integer(r, "channels", std::nullopt, 1);
    out.kernel = integer(r, "kernel", std::nullopt, 1);
    out.stride = integer(r, "stride", 1, 1);
    out.padding = integer(r, "padding", 0, 0);
  } else if (out.type == "max_pool" || out.type == "avg_pool") {
    out.kernel = integer(r, "kernel", std::nullopt, 1);
    out.stride = integer(r, "stride", out.kernel, 1);
  } else if (out.type == "dense") {
    out.units = integer(r, "units", std::nullopt, 1);
  }
  r.reject_unknown();
  return out;
}

NetworkDescription read_description(const json& j) {
  JsonReader r(j, "");
  NetworkDescription d;
  d.name = r.string_or("name", d.name);
  r.require("input");
  const auto input = r.optional_integers("input", 1, kMaxSize);
  if (input->size() != 3) json_fail("input", "expected [height, width, channels]");
  d.input = {(*input)[0], (*input)[1], (*input)[2]};
  if (auto loss = r.optional_choice("loss", {"cross_entropy", "reconstruction"}, "loss"))
    d.loss = *loss == 0 ? NetworkLoss::kSoftmaxCrossEntropy : NetworkLoss::kReconstruction;
  if (auto norms = r.optional_choice("norms", {"auto", "ghost", "direct"}, "norms")) {
    if (*norms == 1) d.norms = detail::NormMethod::kGhost;
    if (*norms == 2) d.norms = detail::NormMethod::kDirect;
  }
  r.require("layers");
  const json& layers = *r.optional_array("layers");
  if (layers.empty()) json_fail("layers", "expected a non-empty list of layers");
  if (layers.size() > kMaxLayers)
    json_fail("layers", "more than " + std::to_string(kMaxLayers) + " layers");
  for (std::size_t l = 0; l < layers.size(); ++l) {
    JsonReader layer(layers[l], r.element_path("layers", l));
    d.layers.push_back(read_layer(layer));
  }
  r.reject_unknown();
  return d;
}

[[noreturn]] void fail(const std::string& prefix, const std::string& where,
                       const std::string& message) {
  throw InvalidArgument(prefix + where + ": " + message);
}

}  // namespace

std::string builtin_network_json(const std::string& name) {
  if (name == "cnn") return kCnnJson;
  if (name == "conv-autoencoder") return kAutoencoderJson;
  if (name == "wide-cnn") return kWideCnnJson;
  throw InvalidArgument("no built-in network \"" + name +
                        "\" (built-ins: cnn, conv-autoencoder, wide-cnn)");
}

NetworkDescription parse_network_description(const std::string& json_text,
                                             const std::string& prefix) {
  json j;
  try {
    j = parse_json_text(json_text, "network");  // depth-capped; names line, column and byte
  } catch (const ParseError& e) {
    fail(prefix, "(text)", e.what());
  }
  try {
    return read_description(j);
  } catch (const ParseError& e) {
    throw InvalidArgument(prefix + e.what());
  }
}

std::unique_ptr<ConvNetwork> make_network(const std::string& json_text, Index input_dim,
                                          int num_classes, const std::string& prefix) {
  const NetworkDescription d = parse_network_description(json_text, prefix);
  NetworkSpec spec;
  spec.name = d.name;
  spec.input = d.input;
  spec.loss = d.loss;
  if (spec.input.size() != input_dim) {
    fail(prefix, "input",
         "height x width x channels = " + std::to_string(spec.input.size()) +
             " but the data set has " + std::to_string(input_dim) + " features");
  }
  detail::MapShape shape = spec.input;
  for (std::size_t l = 0; l < d.layers.size(); ++l) {
    const LayerDescription& layer = d.layers[l];
    std::unique_ptr<detail::Layer> made;
    try {
      if (layer.type == "conv") {
        made = detail::make_conv(shape, layer.channels, layer.kernel, layer.stride, layer.padding,
                                 d.norms);
      } else if (layer.type == "conv_transpose") {
        made = detail::make_conv_transpose(shape, layer.channels, layer.kernel, layer.stride,
                                           layer.padding, d.norms);
      } else if (layer.type == "max_pool" || layer.type == "avg_pool") {
        made = detail::make_pool(shape, layer.type == "max_pool", layer.kernel, layer.stride);
      } else if (layer.type == "relu") {
        made = detail::make_activation(shape, detail::Activation::kRelu);
      } else if (layer.type == "leaky_relu") {
        made = detail::make_activation(shape, detail::Activation::kLeakyRelu);
      } else if (layer.type == "sigmoid") {
        made = detail::make_activation(shape, detail::Activation::kSigmoid);
      } else if (layer.type == "tanh") {
        made = detail::make_activation(shape, detail::Activation::kTanh);
      } else {
        made = detail::make_dense(shape, layer.units);
      }
    } catch (const InvalidArgument& e) {
      // The layer's own check (e.g. "conv: kernel 5 is larger than the padded input 3x3x8").
      fail(prefix, "layers[" + std::to_string(l) + "]", e.what());
    }
    shape = made->output_shape();
    spec.layers.push_back(std::move(made));
  }
  // The network's own checks (last layer vs classes / input size) name the last layer.
  std::unique_ptr<ConvNetwork> network;
  try {
    network = std::make_unique<ConvNetwork>(std::move(spec), num_classes);
  } catch (const InvalidArgument& e) {
    fail(prefix, "layers[" + std::to_string(d.layers.size() - 1) + "]", e.what());
  }
  network->set_json_text(json_text);
  return network;
}

}  // namespace dplab::models
