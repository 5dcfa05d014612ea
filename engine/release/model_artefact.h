// The trained model as a released artefact: a folder with
//   model.npz   one float32 array per parameter tensor (NumPy's format, data/npz_file.h), named
//               as in model.json's layers ("layer0.weight", "hidden.bias", ...);
//   model.json  schema "dplab.model/1": the architecture (the layers in order with their shapes,
//               models/model_graph.h gives the exact formulas), the output head, the input
//               encoding (feature order, one-hot levels, scaling and whether it was fitted on
//               private data) and the privacy card of the release the model belongs to;
//   model.onnx  the same forward pass and parameters as an ONNX graph (release/onnx_model.h),
//               written beside them by release_writer.
// The model's parameters are the output of the DP training, so they are covered by the card's ε
// (charged). The encoding is not always: a CSV's one-hot levels and class labels are read from
// the private file, and min-max ranges fitted on private rows are statistics of them; model.json
// writes those under their own keys (input.encoding, input.fitted_scaling), which the field table
// classes "not covered", and release.json's not_covered lists them.
//
// read_model_folder is the inverse: it rebuilds the model (models::import_model) and the input
// encoding, so that `dplab-cli predict` applies the model to a new file exactly as to its own data.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/types.h"
#include "data/dataset.h"
#include "models/model_export.h"

namespace dplab::release {

inline constexpr const char* kModelSchema = "dplab.model/1";
inline constexpr const char* kModelFolder = "model";  // a release's model: <out>/model/

struct ReleasedModel {
  std::string folder = kModelFolder;  // relative to the release folder
  std::shared_ptr<const models::ExportedModel> model;
  data::InputEncoding input;
};

// model.json's object (without checks against the field table; release_writer does that).
nlohmann::json model_json(const ReleasedModel& model, const nlohmann::json& privacy_card,
                          const std::string& dplab_version);

// The not-covered entries a model adds to release.json's not_covered list.
nlohmann::json model_not_covered(const ReleasedModel& model);

// A model folder read back: the model ready to predict, its input encoding and model.json.
struct LoadedModel {
  models::ExportedModel exported;
  std::unique_ptr<models::Model> model;
  data::InputEncoding input;
  nlohmann::json json;
};

// Reads <directory>/model.json and model.npz (or, given a release folder, its model/ folder).
// ParseError naming the file and the key, or the array, that does not fit.
LoadedModel read_model_folder(const std::string& directory);

// Loads a file for prediction: a CSV through the model's CSV encoding (columns matched by name,
// the label column optional) then its feature map; other formats by the data set loaders,
// checked against the model's input size. InvalidArgument naming the column or the size.
// `lines` (optional): a CSV's line number of each row. `labelled` (optional): whether the rows
// carry their own labels (a CSV without the label column gets placeholder targets: false).
data::Dataset load_model_input(const LoadedModel& model, const std::string& path,
                               std::vector<long>* lines = nullptr, bool* labelled = nullptr);

}  // namespace dplab::release
