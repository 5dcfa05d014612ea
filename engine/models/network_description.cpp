// Network descriptions (see network_description.h): JSON -> layers, and the two built-ins.
#include "models/network_description.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "core/error.h"

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

[[noreturn]] void fail(const std::string& where, const std::string& message) {
  throw InvalidArgument("network description: " + where + ": " + message);
}

Index integer(const json& layer, const std::string& key, const std::string& where,
              std::optional<Index> fallback) {
  const auto it = layer.find(key);
  if (it == layer.end()) {
    if (!fallback) fail(where, "missing \"" + key + "\"");
    return *fallback;
  }
  if (!it->is_number_integer()) fail(where + "." + key, "expected an integer, got " + it->dump());
  const auto value = it->get<std::int64_t>();
  if (value < 0 || value > 100000) fail(where + "." + key, "out of range: " + it->dump());
  return static_cast<Index>(value);
}

}  // namespace

std::string builtin_network_json(const std::string& name) {
  if (name == "cnn") return kCnnJson;
  if (name == "conv-autoencoder") return kAutoencoderJson;
  throw InvalidArgument("no built-in network \"" + name + "\" (built-ins: cnn, conv-autoencoder)");
}

std::unique_ptr<ConvNetwork> make_network(const std::string& json_text, Index input_dim,
                                          int num_classes) {
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::parse_error& e) {
    fail("(text)", std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object()) fail("(top level)", "expected an object");
  static const std::set<std::string> top_keys{"name", "input", "loss", "layers", "norms"};
  for (const auto& item : j.items()) {
    if (!top_keys.count(item.key())) fail(item.key(), "unknown key");
  }
  NetworkSpec spec;
  spec.name = j.value("name", std::string("network"));
  const auto input = j.find("input");
  if (input == j.end() || !input->is_array() || input->size() != 3) {
    fail("input", "expected [height, width, channels]");
  }
  for (const auto& v : *input) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1)
      fail("input", "entries must be integers >= 1");
  }
  spec.input = {(*input)[0].get<Index>(), (*input)[1].get<Index>(), (*input)[2].get<Index>()};
  if (spec.input.size() != input_dim) {
    fail("input", "height x width x channels = " + std::to_string(spec.input.size()) +
                      " but the data set has " + std::to_string(input_dim) + " features");
  }
  const std::string loss = j.value("loss", std::string("cross_entropy"));
  if (loss == "cross_entropy")
    spec.loss = NetworkLoss::kSoftmaxCrossEntropy;
  else if (loss == "reconstruction")
    spec.loss = NetworkLoss::kReconstruction;
  else
    fail("loss", "expected \"cross_entropy\" or \"reconstruction\", got \"" + loss + "\"");
  const std::string norms = j.value("norms", std::string("auto"));
  detail::NormMethod method = detail::NormMethod::kAuto;
  if (norms == "ghost")
    method = detail::NormMethod::kGhost;
  else if (norms == "direct")
    method = detail::NormMethod::kDirect;
  else if (norms != "auto")
    fail("norms", "expected \"auto\", \"ghost\" or \"direct\"");

  const auto layers = j.find("layers");
  if (layers == j.end() || !layers->is_array() || layers->empty()) {
    fail("layers", "expected a non-empty list of layers");
  }
  detail::MapShape shape = spec.input;
  for (std::size_t l = 0; l < layers->size(); ++l) {
    const json& layer = (*layers)[l];
    const std::string where = "layers[" + std::to_string(l) + "]";
    if (!layer.is_object() || !layer.contains("type") || !layer["type"].is_string()) {
      fail(where, "expected an object with a \"type\"");
    }
    const std::string type = layer["type"].get<std::string>();
    std::unique_ptr<detail::Layer> made;
    try {
      if (type == "conv" || type == "conv_transpose") {
        const Index channels = integer(layer, "channels", where, std::nullopt);
        const Index kernel = integer(layer, "kernel", where, std::nullopt);
        const Index stride = integer(layer, "stride", where, 1);
        const Index padding = integer(layer, "padding", where, 0);
        made = type == "conv"
                   ? detail::make_conv(shape, channels, kernel, stride, padding, method)
                   : detail::make_conv_transpose(shape, channels, kernel, stride, padding, method);
      } else if (type == "max_pool" || type == "avg_pool") {
        const Index kernel = integer(layer, "kernel", where, std::nullopt);
        made = detail::make_pool(shape, type == "max_pool", kernel,
                                 integer(layer, "stride", where, kernel));
      } else if (type == "relu") {
        made = detail::make_activation(shape, detail::Activation::kRelu);
      } else if (type == "leaky_relu") {
        made = detail::make_activation(shape, detail::Activation::kLeakyRelu);
      } else if (type == "sigmoid") {
        made = detail::make_activation(shape, detail::Activation::kSigmoid);
      } else if (type == "dense") {
        made = detail::make_dense(shape, integer(layer, "units", where, std::nullopt));
      } else {
        fail(where + ".type", "unknown layer type \"" + type +
                                  "\" (conv, conv_transpose, max_pool, avg_pool, relu, "
                                  "leaky_relu, sigmoid, dense)");
      }
    } catch (const InvalidArgument& e) {
      const std::string message = e.what();
      if (message.rfind("network description:", 0) == 0) throw;
      fail(where, message);
    }
    shape = made->output_shape();
    spec.layers.push_back(std::move(made));
  }
  auto network = std::make_unique<ConvNetwork>(std::move(spec), num_classes);
  network->set_json_text(json_text);
  return network;
}

}  // namespace dplab::models
