// Model names as experiment files, the CLI and the GUI write them, and back. Kept apart from the
// factory (model_factory.cpp) so that parsing an experiment needs no model code: the experiment
// parser and its fuzz harness (tests/fuzz) link this file, not every model.
#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "core/json_guard.h"
#include "models/model.h"

namespace dplab::models {

namespace {

constexpr const char* kValidNames = "linear, logistic, tlnn, cnn, conv-autoencoder, custom";

}  // namespace

ModelKind parse_model_kind(const std::string& text) {
  std::string key = text;
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (key == "linear") return ModelKind::kLinearRegression;
  if (key == "logistic") return ModelKind::kLogisticRegression;
  if (key == "tlnn") return ModelKind::kTwoLayerNetwork;
  if (key == "cnn") return ModelKind::kCnn;
  if (key == "conv-autoencoder") return ModelKind::kConvAutoencoder;
  if (key == "custom") return ModelKind::kCustom;
  // The name as a bounded excerpt: a file may hold any string there.
  throw InvalidArgument("model = " + json_excerpt(nlohmann::json(text)) +
                        " is not a known model; valid models: " + kValidNames);
}

std::string to_string(ModelKind kind) {
  switch (kind) {
    case ModelKind::kLinearRegression:
      return "linear";
    case ModelKind::kLogisticRegression:
      return "logistic";
    case ModelKind::kTwoLayerNetwork:
      return "tlnn";
    case ModelKind::kCnn:
      return "cnn";
    case ModelKind::kConvAutoencoder:
      return "conv-autoencoder";
    case ModelKind::kCustom:
      return "custom";
  }
  return "unknown";
}

}  // namespace dplab::models
