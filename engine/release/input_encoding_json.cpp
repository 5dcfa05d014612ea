// model.json's "input" object (see input_encoding_json.h), apart from the rest of model.json so
// that the run history (store/) reads and writes it without the model files' code.
#include "release/input_encoding_json.h"

#include <memory>

#include "core/json_reader.h"
#include "data/csv_loader.h"

namespace dplab::release {
namespace {

const char* feature_map_kind(data::FeatureMap::Kind kind) {
  switch (kind) {
    case data::FeatureMap::Kind::kNone:
      return "none";
    case data::FeatureMap::Kind::kMinMax:
      return "min-max";
    case data::FeatureMap::Kind::kBounds:
      return "public bounds";
  }
  return "none";
}

bool fitted_scaling(const data::InputEncoding& input) {
  return input.feature_map.kind == data::FeatureMap::Kind::kMinMax;
}

nlohmann::json scaling_json(const data::FeatureMap& map, const std::string& description) {
  nlohmann::json j{{"kind", feature_map_kind(map.kind)}, {"description", description}};
  if (map.kind == data::FeatureMap::Kind::kMinMax) {
    j["low"] = map.low;
    j["range"] = map.range;
    j["formula"] = "x' = (x - low) / range in float32; 0 where range = 0";
  } else if (map.kind == data::FeatureMap::Kind::kBounds) {
    j["low"] = map.low;
    j["high"] = map.high;
    j["formula"] = "x' = (clamp(x, low, high) - low) / (high - low); kept where low = high";
  }
  return j;
}

}  // namespace

nlohmann::json input_json(const data::InputEncoding& in, Index size) {
  nlohmann::json input{{"format", in.csv_encoder ? "csv"
                                  : in.pixels    ? "pixels"
                                                 : "features"},
                       {"size", size}};
  if (in.csv_encoder) {
    input["encoding"] = in.csv_encoder->to_json();  // levels and classes: from the private file
  } else {
    input["features"] = in.feature_names;
    if (!in.class_names.empty()) input["classes"] = in.class_names;
  }
  if (in.pixels) input["pixels"] = "feature = byte / 255 (public bounds 0..255)";
  (fitted_scaling(in) ? input["fitted_scaling"] : input["scaling"]) =
      scaling_json(in.feature_map, in.preprocessing);
  return input;
}

namespace {

data::FeatureMap read_feature_map(const nlohmann::json& j, const std::string& path) {
  JsonReader r(j, path);
  data::FeatureMap map;
  const auto kind = r.optional_choice("kind", {"none", "min-max", "public bounds"}, "scaling");
  map.kind = static_cast<data::FeatureMap::Kind>(kind.value_or(0));
  r.optional_string("description");
  r.optional_string("formula");
  map.low = r.optional_numbers("low").value_or(std::vector<double>{});
  map.range = r.optional_numbers("range").value_or(std::vector<double>{});
  map.high = r.optional_numbers("high").value_or(std::vector<double>{});
  r.reject_unknown();
  const std::size_t d = map.low.size();
  if (map.kind == data::FeatureMap::Kind::kMinMax && map.range.size() != d) {
    json_fail(r.key_path("range"), "needs one entry per 'low' entry");
  }
  if (map.kind == data::FeatureMap::Kind::kBounds && map.high.size() != d) {
    json_fail(r.key_path("high"), "needs one entry per 'low' entry");
  }
  map.fitted_on_private_data = map.kind == data::FeatureMap::Kind::kMinMax;
  return map;
}

}  // namespace

data::InputEncoding read_input_json(const nlohmann::json& j, const std::string& path) {
  JsonReader in(j, path);
  data::InputEncoding input;
  const auto format = in.optional_choice("format", {"csv", "pixels", "features"}, "format");
  in.optional_integer("size");
  input.pixels = format.value_or(2) == 1;
  in.optional_string("pixels");
  if (format.value_or(2) == 0) {
    const auto encoder = std::make_shared<data::CsvEncoder>(
        data::CsvEncoder::from_json(in.require("encoding"), in.key_path("encoding")));
    input.feature_names = encoder->feature_names();
    input.class_names = encoder->class_names();
    input.csv_encoder = encoder;
  } else {
    input.feature_names = in.optional_strings("features").value_or(std::vector<std::string>{});
    input.class_names = in.optional_strings("classes").value_or(std::vector<std::string>{});
  }
  for (const char* key : {"scaling", "fitted_scaling"}) {
    if (const auto* scaling = in.find(key)) {
      input.feature_map = read_feature_map(*scaling, in.key_path(key));
      input.preprocessing = scaling->value("description", "");
    }
  }
  in.reject_unknown();
  return input;
}

}  // namespace dplab::release
