#include "playground/playground_state.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "core/json_guard.h"

namespace dplab::playground {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw ParseError(path + ": " + what);
}

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// An object whose keys are all in `allowed`.
void check_object(const json& j, const std::string& path, const std::set<std::string>& allowed) {
  if (!j.is_object())
    fail(path.empty() ? "playground" : path, "expected an object, got " + json_excerpt(j));
  for (const auto& item : j.items()) {
    if (!allowed.count(item.key())) fail(join(path, item.key()), "unknown key");
  }
}

void read(const json& j, const std::string& key, const std::string& path, double& out) {
  const auto it = j.find(key);
  if (it == j.end()) return;
  if (!it->is_number()) fail(join(path, key), "expected a number, got " + json_excerpt(*it));
  out = it->get<double>();
  if (!std::isfinite(out)) fail(join(path, key), "must be finite");
}

template <typename Int>
void read_integer(const json& j, const std::string& key, const std::string& path, Int& out) {
  const auto it = j.find(key);
  if (it == j.end()) return;
  if (!it->is_number_integer()) {
    fail(join(path, key), "expected an integer, got " + json_excerpt(*it));
  }
  if (it->is_number_unsigned()) {
    out = static_cast<Int>(it->get<std::uint64_t>());
  } else {
    const auto v = it->get<std::int64_t>();
    if (v < 0 && std::is_unsigned_v<Int>) fail(join(path, key), "must be >= 0");
    out = static_cast<Int>(v);
  }
}

void read(const json& j, const std::string& key, const std::string& path, bool& out) {
  const auto it = j.find(key);
  if (it == j.end()) return;
  if (!it->is_boolean()) fail(join(path, key), "expected true or false, got " + json_excerpt(*it));
  out = it->get<bool>();
}

bool read_string(const json& j, const std::string& key, const std::string& path, std::string& out) {
  const auto it = j.find(key);
  if (it == j.end()) return false;
  if (!it->is_string()) fail(join(path, key), "expected a string, got " + json_excerpt(*it));
  out = it->get<std::string>();
  return true;
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
  const json training{{"optimizer", to_string(t.optimizer)},
                      {"private", t.is_private},
                      {"learning_rate", t.learning_rate},
                      {"noise_multiplier", t.noise_multiplier},
                      {"clip", t.clip},
                      {"lot_size", t.lot_size},
                      {"steps", t.steps},
                      {"delta", t.delta},
                      {"seed", t.seed}};
  return {{"data", data}, {"model", model}, {"training", training}};
}

PlaygroundSettings settings_from_json(const json& j, const PlaygroundSettings& base,
                                      const std::string& path) {
  PlaygroundSettings s = base;
  check_object(j, path, {"data", "model", "training"});
  if (const auto it = j.find("data"); it != j.end()) {
    const std::string p = join(path, "data");
    check_object(*it, p,
                 {"shape", "num_points", "label_noise", "test_fraction", "minority_fraction",
                  "seed", "outlier"});
    std::string shape;
    if (read_string(*it, "shape", p, shape)) {
      try {
        s.data.shape = parse_data_shape(shape);
      } catch (const InvalidArgument& e) {
        fail(join(p, "shape"), e.what());
      }
    }
    read_integer(*it, "num_points", p, s.data.num_points);
    read(*it, "label_noise", p, s.data.label_noise);
    read(*it, "test_fraction", p, s.data.test_fraction);
    read(*it, "minority_fraction", p, s.data.minority_fraction);
    read_integer(*it, "seed", p, s.data.seed);
    if (const auto o = it->find("outlier"); o != it->end()) {
      if (o->is_null()) {
        s.data.outlier.reset();
      } else {
        const std::string po = join(p, "outlier");
        check_object(*o, po, {"x", "y", "label"});
        OutlierPoint point = s.data.outlier.value_or(OutlierPoint{});
        read(*o, "x", po, point.x);
        read(*o, "y", po, point.y);
        read_integer(*o, "label", po, point.label);
        s.data.outlier = point;
      }
    }
  }
  if (const auto it = j.find("model"); it != j.end()) {
    const std::string p = join(path, "model");
    check_object(*it, p, {"hidden", "activation", "features"});
    if (const auto h = it->find("hidden"); h != it->end()) {
      if (!h->is_array()) fail(join(p, "hidden"), "expected a list of unit counts");
      s.model.hidden.clear();
      for (std::size_t l = 0; l < h->size(); ++l) {
        if (!(*h)[l].is_number_integer()) {
          fail(join(p, "hidden[" + std::to_string(l) + "]"), "expected an integer");
        }
        s.model.hidden.push_back((*h)[l].get<int>());
      }
    }
    std::string activation;
    if (read_string(*it, "activation", p, activation)) {
      try {
        s.model.activation = parse_hidden_activation(activation);
      } catch (const InvalidArgument& e) {
        fail(join(p, "activation"), e.what());
      }
    }
    if (const auto f = it->find("features"); f != it->end()) {
      const std::string pf = join(p, "features");
      check_object(*f, pf, {"x2", "y2", "xy"});
      read(*f, "x2", pf, s.model.features.x_squared);
      read(*f, "y2", pf, s.model.features.y_squared);
      read(*f, "xy", pf, s.model.features.xy);
    }
  }
  if (const auto it = j.find("training"); it != j.end()) {
    const std::string p = join(path, "training");
    check_object(*it, p,
                 {"optimizer", "private", "learning_rate", "noise_multiplier", "clip", "lot_size",
                  "steps", "delta", "seed"});
    std::string optimizer;
    if (read_string(*it, "optimizer", p, optimizer)) {
      try {
        s.training.optimizer = parse_optimizer_choice(optimizer);
      } catch (const InvalidArgument& e) {
        fail(join(p, "optimizer"), e.what());
      }
    }
    read(*it, "private", p, s.training.is_private);
    read(*it, "learning_rate", p, s.training.learning_rate);
    read(*it, "noise_multiplier", p, s.training.noise_multiplier);
    read(*it, "clip", p, s.training.clip);
    read(*it, "lot_size", p, s.training.lot_size);
    read_integer(*it, "steps", p, s.training.steps);
    read(*it, "delta", p, s.training.delta);
    read_integer(*it, "seed", p, s.training.seed);
  }
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
  return j.dump(2) + "\n";
}

PlaygroundState state_from_text(const std::string& text, const std::string& origin) {
  const json j = parse_json_text(text, origin);
  const auto prefixed = [&](const std::string& key, const std::string& what) -> ParseError {
    return ParseError(origin + ": " + key + ": " + what);
  };
  if (!j.is_object() || j.value("dplab_playground_state", 0) != 1) {
    throw ParseError(origin + ": not a Playground state file (\"dplab_playground_state\": 1)");
  }
  for (const auto& item : j.items()) {
    static const std::set<std::string> keys{"dplab_playground_state", "settings", "steps",
                                            "projection", "ledger"};
    if (!keys.count(item.key())) throw prefixed(item.key(), "unknown key");
  }
  PlaygroundState state;
  try {
    if (j.contains("settings")) state.settings = settings_from_json(j["settings"], {}, "settings");
  } catch (const ParseError& e) {
    throw ParseError(origin + ": " + e.what());
  }
  read_integer(j, "steps", "", state.steps);
  if (state.steps < 0 || state.steps > state.settings.training.steps) {
    throw prefixed("steps", "must be between 0 and training.steps");
  }
  if (const auto p = j.find("projection"); p != j.end()) {
    if (!p->is_array() || p->size() != 2 || !(*p)[0].is_number_integer() ||
        !(*p)[1].is_number_integer()) {
      throw prefixed("projection", "expected two parameter indices");
    }
    state.projection_a = (*p)[0].get<int>();
    state.projection_b = (*p)[1].get<int>();
  }
  if (const auto l = j.find("ledger"); l != j.end()) {
    if (!l->is_array()) throw prefixed("ledger", "expected a list");
    for (std::size_t i = 0; i < l->size(); ++i) {
      const std::string key = "ledger[" + std::to_string(i) + "]";
      const json& e = (*l)[i];
      if (!e.is_object() || !e.contains("setting"))
        throw prefixed(key, "expected {\"setting\": ...}");
      double accuracy = 0;
      read(e, "best_test_accuracy", key, accuracy);
      try {
        state.ledger.emplace_back(settings_from_json(e["setting"], {}, key + ".setting"), accuracy);
      } catch (const ParseError& err) {
        throw ParseError(origin + ": " + err.what());
      }
    }
  }
  return state;
}

std::string run_identity(const PlaygroundSettings& settings) {
  json j = settings_to_json(settings);
  j["training"].erase("delta");
  if (!settings.training.is_private) {
    j["training"].erase("noise_multiplier");  // not used without privacy
    j["training"].erase("clip");
  }
  return j.dump();
}

std::string data_identity(const DataOptions& data) {
  PlaygroundSettings s;
  s.data = data;
  return settings_to_json(s)["data"].dump();
}

}  // namespace dplab::playground
