#include "playground/playground_state.h"
#include "core/json_text.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"

namespace dplab::playground {
namespace {

using nlohmann::json;

constexpr std::int64_t kIntMin = std::numeric_limits<int>::min();
constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

// A name looked up by `parse` (shape, activation, optimizer): its error under the key path.
template <typename T, typename Parse>
void read_name(JsonReader& r, const std::string& key, T& out, Parse parse) {
  const auto text = r.optional_string(key);
  if (!text) return;
  try {
    out = parse(*text);
  } catch (const InvalidArgument& e) {
    json_fail(r.key_path(key), e.what());
  }
}

void read_data(JsonReader& r, DataOptions& data) {
  read_name(r, "shape", data.shape, parse_data_shape);
  // Integers are read whole (never truncated); their ranges are validate_data_options's.
  if (auto n = r.optional_integer("num_points")) data.num_points = static_cast<Index>(*n);
  data.label_noise = r.number_or("label_noise", data.label_noise);
  data.test_fraction = r.number_or("test_fraction", data.test_fraction);
  data.minority_fraction = r.number_or("minority_fraction", data.minority_fraction);
  if (auto seed = r.optional_seed("seed")) data.seed = *seed;
  if (const json* o = r.find("outlier")) {
    if (o->is_null()) {
      data.outlier.reset();
    } else {
      JsonReader po(*o, r.key_path("outlier"));
      OutlierPoint point = data.outlier.value_or(OutlierPoint{});
      point.x = po.number_or("x", point.x);
      point.y = po.number_or("y", point.y);
      if (auto label = po.optional_integer("label", kIntMin, kIntMax))
        point.label = static_cast<int>(*label);
      po.reject_unknown();
      data.outlier = point;
    }
  }
  r.reject_unknown();
}

void read_model(JsonReader& r, ModelOptions& model) {
  if (auto hidden = r.optional_integers("hidden", kIntMin, kIntMax))
    model.hidden.assign(hidden->begin(), hidden->end());
  read_name(r, "activation", model.activation, parse_hidden_activation);
  if (const json* f = r.find("features")) {
    JsonReader pf(*f, r.key_path("features"));
    model.features.x_squared = pf.optional_bool("x2").value_or(model.features.x_squared);
    model.features.y_squared = pf.optional_bool("y2").value_or(model.features.y_squared);
    model.features.xy = pf.optional_bool("xy").value_or(model.features.xy);
    pf.reject_unknown();
  }
  r.reject_unknown();
}

void read_training(JsonReader& r, TrainingOptions& t) {
  read_name(r, "optimizer", t.optimizer, parse_optimizer_choice);
  t.is_private = r.optional_bool("private").value_or(t.is_private);
  t.learning_rate = r.number_or("learning_rate", t.learning_rate);
  t.noise_multiplier = r.number_or("noise_multiplier", t.noise_multiplier);
  t.clip = r.number_or("clip", t.clip);
  read_name(r, "clipping", t.automatic_clipping, [](const std::string& text) {
    return models::parse_clipping_mode(text) == models::ClippingMode::kAutomatic;
  });
  t.lot_size = r.number_or("lot_size", t.lot_size);
  if (auto steps = r.optional_integer("steps")) t.steps = *steps;
  t.delta = r.number_or("delta", t.delta);
  if (auto seed = r.optional_seed("seed")) t.seed = *seed;
  r.reject_unknown();
}

}  // namespace

json settings_to_json(const PlaygroundSettings& s) {
  json data{{"shape", to_string(s.data.shape)},
            {"num_points", s.data.num_points},
            {"label_noise", s.data.label_noise},
            {"test_fraction", s.data.test_fraction},
            {"minority_fraction", s.data.minority_fraction},
            {"seed", s.data.seed}};
  if (s.data.outlier) {
    data["outlier"] = {
        {"x", s.data.outlier->x}, {"y", s.data.outlier->y}, {"label", s.data.outlier->label}};
  }
  const json model{{"hidden", s.model.hidden},
                   {"activation", to_string(s.model.activation)},
                   {"features",
                    {{"x2", s.model.features.x_squared},
                     {"y2", s.model.features.y_squared},
                     {"xy", s.model.features.xy}}}};
  const TrainingOptions& t = s.training;
  json training{{"optimizer", to_string(t.optimizer)},
                {"private", t.is_private},
                {"learning_rate", t.learning_rate},
                {"noise_multiplier", t.noise_multiplier},
                {"clip", t.clip},
                {"lot_size", t.lot_size},
                {"steps", t.steps},
                {"delta", t.delta},
                {"seed", t.seed}};
  // Flat clipping writes no key: state files and lessons from before automatic clipping read the
  // same, and so do the ledger's identities.
  if (t.automatic_clipping)
    training["clipping"] = models::to_string(models::ClippingMode::kAutomatic);
  return {{"data", data}, {"model", model}, {"training", training}};
}

PlaygroundSettings settings_from_json(const json& j, const PlaygroundSettings& base,
                                      const std::string& path) {
  PlaygroundSettings s = base;
  JsonReader r(j, path);
  if (const json* data = r.find("data")) {
    JsonReader d(*data, r.key_path("data"));
    read_data(d, s.data);
  }
  if (const json* model = r.find("model")) {
    JsonReader m(*model, r.key_path("model"));
    read_model(m, s.model);
  }
  if (const json* training = r.find("training")) {
    JsonReader t(*training, r.key_path("training"));
    read_training(t, s.training);
  }
  r.reject_unknown();
  try {
    validate_data_options(s.data);
    validate(s);
  } catch (const InvalidArgument& e) {
    throw ParseError((path.empty() ? std::string() : path + ": ") + e.what());
  }
  return s;
}

std::string state_to_text(const PlaygroundState& state) {
  json ledger = json::array();
  for (const auto& [setting, accuracy] : state.ledger) {
    ledger.push_back(
        {{"setting", json::parse(run_identity(setting))}, {"best_test_accuracy", accuracy}});
  }
  const json j{{"dplab_playground_state", 1},
               {"settings", settings_to_json(state.settings)},
               {"steps", state.steps},
               {"projection", {state.projection_a, state.projection_b}},
               {"ledger", ledger}};
  return json_text(j, 2) + "\n";
}

namespace {

PlaygroundState read_state(const json& j) {
  JsonReader r(j, "");
  if (r.optional_integer("dplab_playground_state") != std::int64_t{1})
    json_fail("dplab_playground_state", "missing or not 1 (not a Playground state file)");
  PlaygroundState state;
  if (const json* settings = r.find("settings"))
    state.settings = settings_from_json(*settings, {}, "settings");
  if (auto steps = r.optional_integer("steps")) state.steps = *steps;
  if (state.steps < 0 || state.steps > state.settings.training.steps)
    json_fail("steps", "must be between 0 and training.steps");
  if (auto projection = r.optional_integers("projection", kIntMin, kIntMax)) {
    if (projection->size() != 2) json_fail("projection", "expected two parameter indices");
    state.projection_a = static_cast<int>((*projection)[0]);
    state.projection_b = static_cast<int>((*projection)[1]);
  }
  if (const json* ledger = r.optional_array("ledger")) {
    for (std::size_t i = 0; i < ledger->size(); ++i) {
      JsonReader e((*ledger)[i], r.element_path("ledger", i));
      const PlaygroundSettings setting =
          settings_from_json(e.require("setting"), {}, e.key_path("setting"));
      state.ledger.emplace_back(setting, e.number_or("best_test_accuracy", 0));
      e.reject_unknown();
    }
  }
  r.reject_unknown();
  return state;
}

}  // namespace

PlaygroundState state_from_text(const std::string& text, const std::string& origin) {
  const json j = parse_json_text(text, origin);
  try {
    return read_state(j);
  } catch (const ParseError& e) {
    throw ParseError(origin + ": " + e.what());
  }
}

std::string run_identity(const PlaygroundSettings& settings) {
  json j = settings_to_json(settings);
  j["training"].erase("delta");
  if (!settings.training.is_private) {
    j["training"].erase("noise_multiplier");  // not used without privacy
    j["training"].erase("clip");
    j["training"].erase("clipping");
  }
  // Automatic clipping runs at C = 1 whatever training.clip says: the same run.
  if (settings.training.automatic_clipping) j["training"].erase("clip");
  return json_text(j);
}

std::string data_identity(const DataOptions& data) {
  PlaygroundSettings s;
  s.data = data;
  return json_text(settings_to_json(s)["data"]);
}

}  // namespace dplab::playground
