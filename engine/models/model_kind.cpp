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

struct KindName {
  ModelKind kind;
  const char* name;
};

// The one list of model names: parsing, printing and every listing of the valid names use it.
constexpr KindName kKinds[] = {
    {ModelKind::kLinearRegression, "linear"},
    {ModelKind::kLogisticRegression, "logistic"},
    {ModelKind::kTwoLayerNetwork, "tlnn"},
    {ModelKind::kCnn, "cnn"},
    {ModelKind::kConvAutoencoder, "conv-autoencoder"},
    {ModelKind::kWideCnn, "wide-cnn"},
    {ModelKind::kCustom, "custom"},
};

}  // namespace

std::string model_kind_names(const std::string& separator, bool include_custom) {
  std::string out;
  for (const KindName& k : kKinds) {
    if (k.kind == ModelKind::kCustom && !include_custom) continue;
    out += (out.empty() ? "" : separator) + std::string(k.name);
  }
  return out;
}

ModelKind parse_model_kind(const std::string& text) {
  std::string key = text;
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const KindName& k : kKinds) {
    if (key == k.name) return k.kind;
  }
  // The name as a bounded excerpt: a file may hold any string there.
  throw InvalidArgument("model = " + json_excerpt(nlohmann::json(text)) +
                        " is not a known model; valid models: " + model_kind_names(", "));
}

std::string to_string(ModelKind kind) {
  for (const KindName& k : kKinds) {
    if (k.kind == kind) return k.name;
  }
  return "unknown";
}

}  // namespace dplab::models
