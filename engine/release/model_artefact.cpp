// model.npz + model.json: writing the parts, reading a folder back (model_artefact.h).
#include "release/model_artefact.h"

#include "release/input_encoding_json.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "core/error.h"
#include "core/json_reader.h"
#include "data/csv_loader.h"
#include "data/dataset_catalog.h"
#include "data/feature_rows.h"
#include "data/file_reader.h"
#include "data/npz_file.h"
#include "data/text_number.h"
#include "release/field_class.h"

namespace dplab::release {
namespace {

namespace fs = std::filesystem;
using models::GraphOp;
using models::GraphOpKind;
using models::GraphShape;

nlohmann::json shape_json(GraphShape s) {
  return {s.height, s.width, s.channels};
}

const char* binary_output_text(models::BinaryOutput o) {
  return o == models::BinaryOutput::kSigmoid ? "sigmoid" : "softmax";
}
const char* linear_init_text(models::LinearInit i) {
  return i == models::LinearInit::kZeros ? "zeros" : "uniform_fan_in";
}

bool fitted_scaling(const data::InputEncoding& input) {
  return input.feature_map.kind == data::FeatureMap::Kind::kMinMax;
}

}  // namespace

nlohmann::json model_json(const ReleasedModel& released, const nlohmann::json& privacy_card,
                          const std::string& dplab_version) {
  const models::ExportedModel& m = *released.model;
  const models::ModelGraph& g = m.graph;
  nlohmann::json spec{{"kind", models::to_string(m.spec.kind)}};
  if (m.spec.kind == models::ModelKind::kTwoLayerNetwork)
    spec["hidden_units"] = m.spec.hidden_units;
  if (m.spec.kind == models::ModelKind::kCustom)
    spec["network"] = nlohmann::json::parse(m.spec.network);
  if (m.spec.kind == models::ModelKind::kLogisticRegression) {
    spec["binary_output"] = binary_output_text(m.spec.binary_output);
    spec["linear_init"] = linear_init_text(m.spec.linear_init);
  }
  nlohmann::json layers = nlohmann::json::array();
  for (const GraphOp& op : g.ops) {
    nlohmann::json layer{{"op", models::to_string(op.kind)},
                         {"input", shape_json(op.input)},
                         {"output", shape_json(op.output)}};
    if (op.kernel > 0) {
      layer["kernel"] = op.kernel;
      layer["stride"] = op.stride;
      layer["padding"] = op.padding;
    }
    if (op.kind == GraphOpKind::kLeakyRelu) layer["slope"] = op.slope;
    if (op.weight >= 0) layer["weight"] = g.tensors[static_cast<std::size_t>(op.weight)].name;
    if (op.bias >= 0) layer["bias"] = g.tensors[static_cast<std::size_t>(op.bias)].name;
    layers.push_back(std::move(layer));
  }
  Index parameters = 0;
  for (const auto& t : g.tensors) parameters += static_cast<Index>(t.values.size());
  const nlohmann::json input = input_json(released.input, g.input.size());
  return {{"schema", kModelSchema},
          {"dplab_version", dplab_version},
          {"model",
           {{"kind", g.kind},
            {"description", g.description},
            {"spec", spec},
            {"input_shape", shape_json(g.input)},
            {"num_classes", g.num_classes},
            {"output", models::to_string(g.output)},
            {"parameters", parameters},
            {"arrays", "model.npz"}}},
          {"layers", layers},
          {"input", input},
          {"privacy", privacy_card}};
}

nlohmann::json model_not_covered(const ReleasedModel& released) {
  nlohmann::json list = nlohmann::json::array();
  const std::string file = released.folder + "/model.json";
  const auto add = [&](const char* field) {
    list.push_back({{"file", file},
                    {"field", field},
                    {"reason", std::string(field_rule("model.json", field).reason)}});
  };
  if (released.input.csv_encoder) {
    add("input.encoding");
  } else if (!released.input.class_names.empty()) {
    add("input.classes");
  }
  if (fitted_scaling(released.input)) add("input.fitted_scaling");
  return list;
}

// ------------------------------------------------------------------------------- reading
namespace {

GraphShape read_shape(const nlohmann::json& j, const std::string& path) {
  if (!j.is_array() || j.size() != 3 || !j[0].is_number_integer() || !j[1].is_number_integer() ||
      !j[2].is_number_integer()) {
    json_fail(path, "expected [height, width, channels]");
  }
  const GraphShape s{j[0].get<Index>(), j[1].get<Index>(), j[2].get<Index>()};
  if (s.height < 1 || s.width < 1 || s.channels < 1) json_fail(path, "extents must be >= 1");
  return s;
}

GraphOpKind read_op_kind(JsonReader& r) {
  static const std::vector<std::string> names = {"dense",      "conv",     "conv_transpose",
                                                 "max_pool",   "avg_pool", "relu",
                                                 "leaky_relu", "sigmoid",  "tanh"};
  const auto index = r.optional_choice("op", names, "op");
  if (!index) json_fail(r.key_path("op"), "missing (required)");
  return static_cast<GraphOpKind>(*index);
}

}  // namespace

LoadedModel read_model_folder(const std::string& directory) {
  fs::path dir(directory);
  if (!fs::exists(dir / "model.json") && fs::exists(dir / kModelFolder / "model.json")) {
    dir /= kModelFolder;
  }
  const std::string json_path = (dir / "model.json").string();
  LoadedModel loaded;
  loaded.json = data::read_json_file(json_path);
  JsonReader top(loaded.json, json_path);
  if (top.required_string("schema") != kModelSchema) {
    json_fail(top.key_path("schema"), std::string("expected \"") + kModelSchema + "\"");
  }
  top.optional_string("dplab_version");
  top.find("privacy");

  // model: the spec make_model builds from.
  JsonReader m(top.require("model"), top.key_path("model"));
  models::ExportedModel& exported = loaded.exported;
  models::ModelGraph& g = exported.graph;
  g.kind = m.required_string("kind");
  g.description = m.string_or("description", g.kind);
  {
    JsonReader s(m.require("spec"), m.key_path("spec"));
    exported.spec.kind = models::parse_model_kind(s.required_string("kind"));
    if (auto h = s.optional_integer("hidden_units", 1, 1 << 20)) {
      exported.spec.hidden_units = static_cast<int>(*h);
    }
    if (const auto* network = s.find("network")) exported.spec.network = network->dump();
    if (auto o = s.optional_choice("binary_output", {"sigmoid", "softmax"})) {
      exported.spec.binary_output =
          *o == 0 ? models::BinaryOutput::kSigmoid : models::BinaryOutput::kTwoClassSoftmax;
    }
    if (auto i = s.optional_choice("linear_init", {"zeros", "uniform_fan_in"})) {
      exported.spec.linear_init =
          *i == 0 ? models::LinearInit::kZeros : models::LinearInit::kUniformFanIn;
    }
    s.reject_unknown();
  }
  g.input = read_shape(m.require("input_shape"), m.key_path("input_shape"));
  exported.input_dim = g.input.size();
  exported.num_classes =
      static_cast<int>(m.optional_integer("num_classes", 0, 1 << 24).value_or(0));
  g.num_classes = exported.num_classes;
  const auto output = m.optional_choice("output", {"sigmoid", "softmax", "identity"}, "output");
  g.output = static_cast<models::OutputKind>(output.value_or(2));
  m.optional_integer("parameters");
  m.optional_string("arrays");
  m.reject_unknown();

  // The arrays, by name.
  const std::string npz_path = (dir / "model.npz").string();
  std::map<std::string, data::NpyArray> arrays;
  for (auto& array : data::read_npz(npz_path)) arrays.emplace(array.name, std::move(array));
  const auto take_tensor = [&](const std::string& name, const std::string& key) {
    const auto it = arrays.find(name);
    if (it == arrays.end()) {
      json_fail(key, "'" + name + "' is not an array of " + npz_path);
    }
    models::GraphTensor t{name, {}, std::move(it->second.values)};
    for (auto extent : it->second.shape) t.shape.push_back(static_cast<Index>(extent));
    arrays.erase(it);
    g.tensors.push_back(std::move(t));
    return static_cast<int>(g.tensors.size() - 1);
  };

  const nlohmann::json* layers = top.optional_array("layers");
  if (!layers || layers->empty()) json_fail(top.key_path("layers"), "missing or empty");
  for (std::size_t i = 0; i < layers->size(); ++i) {
    JsonReader l((*layers)[i], top.element_path("layers", i));
    GraphOp op;
    op.kind = read_op_kind(l);
    op.input = read_shape(l.require("input"), l.key_path("input"));
    op.output = read_shape(l.require("output"), l.key_path("output"));
    op.kernel = l.optional_integer("kernel", 1, 1 << 16).value_or(0);
    op.stride = l.optional_integer("stride", 1, 1 << 16).value_or(0);
    op.padding = l.optional_integer("padding", 0, 1 << 16).value_or(0);
    op.slope = static_cast<float>(l.number_or("slope", 0));
    if (auto w = l.optional_string("weight")) op.weight = take_tensor(*w, l.key_path("weight"));
    if (auto b = l.optional_string("bias")) op.bias = take_tensor(*b, l.key_path("bias"));
    l.reject_unknown();
    g.ops.push_back(op);
  }
  if (!arrays.empty()) {
    throw ParseError(npz_path + ": array '" + arrays.begin()->first +
                     "' is not used by any layer of " + json_path);
  }
  loaded.model = models::import_model(exported);  // checks the graph against the spec

  loaded.input = read_input_json(top.require("input"), top.key_path("input"));
  top.reject_unknown();
  if (!loaded.input.feature_map.empty() &&
      static_cast<Index>(loaded.input.feature_map.low.size()) != exported.input_dim) {
    json_fail(top.key_path("input"),
              "scales " + std::to_string(loaded.input.feature_map.low.size()) +
                  " features, the model takes " + std::to_string(exported.input_dim));
  }
  return loaded;
}

namespace {

bool is_csv_name(const std::string& path) {
  for (const char* ending : {".csv", ".csv.gz", ".tsv", ".tsv.gz"}) {
    const std::string e(ending);
    if (path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0)
      return true;
  }
  return false;
}

// A CSV for a model trained on data without a CSV encoding (synthetic or array data: features
// named x1..xd, or the names the arrays came with): its columns matched to the model's features
// by name, in any order, other columns ignored, no label (nothing to score against).
data::Dataset features_by_name(const LoadedModel& loaded, const std::string& path,
                               std::vector<long>* lines) {
  const auto& names = loaded.input.feature_names;
  const data::CsvTable table = data::read_csv_table(path, data::kDetectDelimiter, ',');
  std::vector<Index> columns;
  for (const auto& name : names) {
    const auto it = std::find(table.header.begin(), table.header.end(), name);
    if (it == table.header.end()) {
      throw InvalidArgument(path + ": no column '" + name +
                            "', which the model's input needs (its features: " + names.front() +
                            " .. " + names.back() + ", " + std::to_string(names.size()) +
                            " columns, matched by name)");
    }
    columns.push_back(static_cast<Index>(it - table.header.begin()));
  }
  data::Dataset data;
  data.name = path;
  data.features.resize(table.rows(), static_cast<Index>(names.size()));
  for (Index r = 0; r < table.rows(); ++r) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string& cell = table.cell(r, columns[c]);
      const auto value = data::parse_number(cell);
      if (!value || !std::isfinite(*value)) {
        throw ParseError(path + ":" +
                         std::to_string(table.line_numbers[static_cast<std::size_t>(r)]) +
                         ": column '" + names[c] + "': expected a number, got '" + cell + "'");
      }
      data.features(r, static_cast<Index>(c)) = static_cast<float>(*value);
    }
  }
  data.targets = Vector::Zero(table.rows());
  data.num_classes = static_cast<int>(loaded.input.class_names.size());
  data.feature_names = names;
  if (lines) *lines = table.line_numbers;
  return data;
}

}  // namespace

data::Dataset load_model_input(const LoadedModel& loaded, const std::string& path,
                               std::vector<long>* lines, bool* labelled) {
  if (labelled) *labelled = true;  // IDX / LIBSVM rows always carry their labels
  data::Dataset data;
  if (loaded.input.csv_encoder) {
    const data::CsvEncoder& encoder = *loaded.input.csv_encoder;
    // The training file's delimiter when it splits this file too, else the one detected.
    const data::CsvTable table =
        data::read_csv_table(path, data::kDetectDelimiter, encoder.delimiter());
    std::vector<long> kept_lines;  // the training policy may drop a row with a missing value
    data = encoder.encode_for_prediction(encoder.align(table, labelled), &kept_lines);
    if (lines) *lines = std::move(kept_lines);
  } else if (is_csv_name(path) && !loaded.input.feature_names.empty() && !loaded.input.pixels) {
    if (labelled) *labelled = false;
    data = features_by_name(loaded, path, lines);
  } else {
    data::DatasetSource source;
    source.path = path;
    source.min_max_scale = false;
    data = data::load_dataset(source);
    data.feature_map = {};
  }
  if (data.dim() != loaded.exported.input_dim) {
    throw InvalidArgument(
        path + ": rows have " + std::to_string(data.dim()) + " features, the model takes " +
        std::to_string(loaded.exported.input_dim) + (loaded.input.pixels ? " pixels" : ""));
  }
  if (!loaded.input.feature_map.empty()) {
    data::store_as_floats(data);
    loaded.input.feature_map.apply(data.features);
    data.feature_map = loaded.input.feature_map;
  }
  return data;
}

}  // namespace dplab::release
