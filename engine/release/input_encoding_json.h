// model.json's "input" object (release/model_artefact.h): how a data set's rows became a model's
// features — the CSV encoding, the feature names and classes, the scaling — as JSON and back.
// The run history stores the same object (store/, schema v6) so that a run read back releases
// the same model files as the run itself.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/types.h"
#include "data/dataset.h"

namespace dplab::release {

// The object for an encoding of a model taking `size` features (0: not known yet).
nlohmann::json input_json(const data::InputEncoding& input, Index size);
// Its inverse; ParseError naming `path` and the key.
data::InputEncoding read_input_json(const nlohmann::json& j, const std::string& path);

}  // namespace dplab::release
