// Network descriptions (see network_description.h): JSON -> layers, and the two built-ins.
#include "models/network_description.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "core/error.h"
#include "core/json_guard.h"

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

[[noreturn]] void fail(const std::string& prefix, const std::string& where,
                       const std::string& message) {
  throw InvalidArgument(prefix + where + ": " + message);
}

// An integer field of a layer: missing -> fallback (or an error if none), else in [lo, 100000].
Index integer(const json& layer, const std::string& key, const std::string& prefix,
              const std::string& where, std::optional<Index> fallback, Index lo) {
  const auto it = layer.find(key);
  if (it == layer.end()) {
    if (!fallback) fail(prefix, where, "missing \"" + key + "\"");
    return *fallback;
  }
  if (!it->is_number_integer())
    fail(prefix, where + "." + key, "expected an integer, got " + json_excerpt(*it));
  const auto value = it->get<std::int64_t>();
  if (value < lo || value > 100000)
    fail(prefix, where + "." + key,
         json_excerpt(*it) + " is out of range [" + std::to_string(lo) + ", 100000]");
  return static_cast<Index>(value);
}

// The keys each layer type takes (besides "type"); anything else is a typo and an error.
const std::set<std::string>& keys_of(const std::string& type) {
  static const std::set<std::string> conv{"channels", "kernel", "stride", "padding"};
  static const std::set<std::string> pool{"kernel", "stride"};
  static const std::set<std::string> dense{"units"};
  static const std::set<std::string> none;
  if (type == "conv" || type == "conv_transpose") return conv;
  if (type == "max_pool" || type == "avg_pool") return pool;
  if (type == "dense") return dense;
  return none;
}

}  // namespace

std::string builtin_network_json(const std::string& name) {
  if (name == "cnn") return kCnnJson;
  if (name == "conv-autoencoder") return kAutoencoderJson;
  throw InvalidArgument("no built-in network \"" + name + "\" (built-ins: cnn, conv-autoencoder)");
}

NetworkDescription parse_network_description(const std::string& json_text,
                                             const std::string& prefix) {
  json j;
  try {
    j = parse_json_text(json_text, "network");  // depth-capped; names line, column and byte
  } catch (const ParseError& e) {
    fail(prefix, "(text)", e.what());
  }
  if (!j.is_object()) fail(prefix, "(top level)", "expected an object");
  static const std::set<std::string> top_keys{"name", "input", "loss", "layers", "norms"};
  for (const auto& item : j.items()) {
    if (!top_keys.count(item.key())) {
      fail(prefix, item.key(), "unknown key (expected name, input, loss, layers, norms)");
    }
  }
  NetworkDescription d;
  const auto name = j.find("name");
  if (name != j.end()) {
    if (!name->is_string()) fail(prefix, "name", "expected a string, got " + json_excerpt(*name));
    d.name = name->get<std::string>();
  }
  const auto input = j.find("input");
  if (input == j.end() || !input->is_array() || input->size() != 3) {
    fail(prefix, "input", "expected [height, width, channels]");
  }
  for (const auto& v : *input) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > 100000)
      fail(prefix, "input", "entries must be integers in [1, 100000], got " + json_excerpt(*input));
  }
  d.input = {(*input)[0].get<Index>(), (*input)[1].get<Index>(), (*input)[2].get<Index>()};
  const auto loss = j.find("loss");
  if (loss != j.end()) {
    const std::string text = loss->is_string() ? loss->get<std::string>() : json_excerpt(*loss);
    if (text == "cross_entropy")
      d.loss = NetworkLoss::kSoftmaxCrossEntropy;
    else if (text == "reconstruction")
      d.loss = NetworkLoss::kReconstruction;
    else
      fail(prefix, "loss",
           "expected \"cross_entropy\" or \"reconstruction\", got " + json_excerpt(*loss));
  }
  const auto norms = j.find("norms");
  if (norms != j.end()) {
    const std::string text = norms->is_string() ? norms->get<std::string>() : json_excerpt(*norms);
    if (text == "ghost")
      d.norms = detail::NormMethod::kGhost;
    else if (text == "direct")
      d.norms = detail::NormMethod::kDirect;
    else if (text != "auto")
      fail(prefix, "norms",
           "expected \"auto\", \"ghost\" or \"direct\", got " + json_excerpt(*norms));
  }
  const auto layers = j.find("layers");
  if (layers == j.end() || !layers->is_array() || layers->empty()) {
    fail(prefix, "layers", "expected a non-empty list of layers");
  }
  if (layers->size() > 1000) fail(prefix, "layers", "more than 1000 layers");
  static const std::set<std::string> types{"conv",     "conv_transpose", "max_pool",
                                           "avg_pool", "relu",           "leaky_relu",
                                           "sigmoid",  "tanh",           "dense"};
  for (std::size_t l = 0; l < layers->size(); ++l) {
    const json& layer = (*layers)[l];
    const std::string where = "layers[" + std::to_string(l) + "]";
    if (!layer.is_object()) fail(prefix, where, "expected an object, got " + json_excerpt(layer));
    const auto type = layer.find("type");
    if (type == layer.end() || !type->is_string()) {
      fail(prefix, where + ".type",
           "missing (a string: conv, conv_transpose, max_pool, "
           "avg_pool, relu, leaky_relu, sigmoid, tanh, dense)");
    }
    LayerDescription out;
    out.type = type->get<std::string>();
    if (!types.count(out.type)) {
      fail(prefix, where + ".type",
           "unknown layer type \"" + out.type +
               "\" (conv, conv_transpose, max_pool, avg_pool, relu, "
               "leaky_relu, sigmoid, tanh, dense)");
    }
    const auto& allowed = keys_of(out.type);
    for (const auto& item : layer.items()) {
      if (item.key() != "type" && !allowed.count(item.key())) {
        fail(prefix, where + "." + item.key(), "unknown key for a " + out.type + " layer");
      }
    }
    if (out.type == "conv" || out.type == "conv_transpose") {
      out.channels = integer(layer, "channels", prefix, where, std::nullopt, 1);
      out.kernel = integer(layer, "kernel", prefix, where, std::nullopt, 1);
      out.stride = integer(layer, "stride", prefix, where, 1, 1);
      out.padding = integer(layer, "padding", prefix, where, 0, 0);
    } else if (out.type == "max_pool" || out.type == "avg_pool") {
      out.kernel = integer(layer, "kernel", prefix, where, std::nullopt, 1);
      out.stride = integer(layer, "stride", prefix, where, out.kernel, 1);
    } else if (out.type == "dense") {
      out.units = integer(layer, "units", prefix, where, std::nullopt, 1);
    }
    d.layers.push_back(out);
  }
  return d;
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
