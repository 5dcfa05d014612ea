#include "objective_perturbation/comparison_preset.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/error.h"
#include "core/json_guard.h"
#include "data/dataset_catalog.h"
#include "data/file_reader.h"
#include "objective_perturbation/synthetic_glm.h"

namespace dplab::objpert {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& origin, const std::string& key, const std::string& what) {
  throw ParseError(origin + ": " + key + " " + what);
}

void check_keys(const json& object, const std::string& origin, const std::string& path,
                const std::set<std::string>& allowed) {
  if (!object.is_object()) fail(origin, path.empty() ? "top level" : path, "must be an object");
  for (const auto& [key, value] : object.items()) {
    if (!allowed.count(key))
      fail(origin, path + (path.empty() ? "" : ".") + key, "is not a known key");
  }
}

double number(const json& object, const char* key, const std::string& origin,
              const std::string& path, double fallback) {
  if (!object.contains(key)) return fallback;
  if (!object[key].is_number()) fail(origin, path + key, "must be a number");
  return object[key].get<double>();
}

}  // namespace

data::Dataset load_comparison_dataset(const std::string& source, const std::string& path,
                                      std::uint64_t seed) {
  SyntheticGlmOptions synthetic;
  synthetic.seed = seed;
  if (synthetic_glm_preset(source, synthetic)) return make_synthetic_glm(synthetic, source);
  data::DatasetSource catalog = data::source_for(source);
  if (!path.empty()) catalog.path = path;
  return data::load_dataset(catalog);
}

ComparisonPreset parse_comparison_preset(const json& j, const std::string& origin) {
  check_keys(j, origin, "",
             {"experiment", "name", "dataset", "epsilons", "delta", "trials", "seed", "dpsgd",
              "algorithm1"});
  if (!j.contains("experiment") || j["experiment"] != "objpert-vs-dpsgd") {
    fail(origin, "experiment", "must be \"objpert-vs-dpsgd\"");
  }
  ComparisonPreset p;
  ComparisonConfig& c = p.config;
  if (j.contains("name")) {
    if (!j["name"].is_string()) fail(origin, "name", "must be a string");
    p.name = j["name"];
  }
  if (j.contains("dataset")) {
    const json& d = j["dataset"];
    check_keys(d, origin, "dataset", {"source", "path", "test_fraction", "split_seed"});
    if (d.contains("source")) {
      if (!d["source"].is_string()) fail(origin, "dataset.source", "must be a string");
      p.dataset_source = d["source"];
    }
    if (d.contains("path")) {
      if (!d["path"].is_string()) fail(origin, "dataset.path", "must be a string");
      p.dataset_path = d["path"];
    }
    c.test_fraction = number(d, "test_fraction", origin, "dataset.", c.test_fraction);
    c.split_seed = static_cast<std::uint64_t>(number(d, "split_seed", origin, "dataset.", 0));
  }
  if (j.contains("epsilons")) {
    if (!j["epsilons"].is_array() || j["epsilons"].empty()) {
      fail(origin, "epsilons", "must be a non-empty array of numbers");
    }
    c.epsilons.clear();
    for (const json& e : j["epsilons"]) {
      if (!e.is_number() || !(e.get<double>() > 0))
        fail(origin, "epsilons", "entries must be numbers > 0");
      c.epsilons.push_back(e.get<double>());
    }
  }
  c.delta = number(j, "delta", origin, "", c.delta);
  c.trials = static_cast<int>(number(j, "trials", origin, "", c.trials));
  c.seed = static_cast<std::uint64_t>(number(j, "seed", origin, "", 0));
  if (j.contains("dpsgd")) {
    const json& d = j["dpsgd"];
    check_keys(
        d, origin, "dpsgd",
        {"lot_size", "epochs", "clip", "grid_size", "learning_rate_range", "prob_more_than_grid"});
    c.lot_size = number(d, "lot_size", origin, "dpsgd.", c.lot_size);
    c.epochs = number(d, "epochs", origin, "dpsgd.", c.epochs);
    c.clip = number(d, "clip", origin, "dpsgd.", c.clip);
    c.grid_size = static_cast<int>(number(d, "grid_size", origin, "dpsgd.", c.grid_size));
    c.prob_more_than_grid =
        number(d, "prob_more_than_grid", origin, "dpsgd.", c.prob_more_than_grid);
    if (d.contains("learning_rate_range")) {
      const json& r = d["learning_rate_range"];
      if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number()) {
        fail(origin, "dpsgd.learning_rate_range", "must be [low, high]");
      }
      c.learning_rate_low = r[0];
      c.learning_rate_high = r[1];
    }
  }
  if (j.contains("algorithm1")) {
    const json& a = j["algorithm1"];
    check_keys(a, origin, "algorithm1", {"tau", "output_noise_std", "noise_factor", "solver"});
    c.tau = number(a, "tau", origin, "algorithm1.", c.tau);
    c.output_noise_std = number(a, "output_noise_std", origin, "algorithm1.", c.output_noise_std);
    c.noise_factor = number(a, "noise_factor", origin, "algorithm1.", c.noise_factor);
    if (a.contains("solver")) {
      if (!a["solver"].is_string()) fail(origin, "algorithm1.solver", "must be a string");
      try {
        c.solver = parse_solver(a["solver"]);
      } catch (const InvalidArgument& e) {
        fail(origin, "algorithm1.solver", e.what());
      }
    }
  }
  return p;
}

ComparisonPreset load_comparison_preset(const std::string& path) {
  // Regular files only, within the memory budget; depth-capped, and a syntax error names its
  // line, column and byte.
  const json j = parse_json_text(data::read_file_text(path), path);
  ComparisonPreset p = parse_comparison_preset(j, path);
  if (!p.dataset_path.empty() && std::filesystem::path(p.dataset_path).is_relative()) {
    p.dataset_path =
        (std::filesystem::path(path).parent_path() / p.dataset_path).lexically_normal().string();
  }
  return p;
}

json comparison_to_json(const ComparisonPreset& preset, const ComparisonResult& result) {
  const ComparisonConfig& c = preset.config;
  json rows = json::array();
  auto method = [](const MethodSummary& m) {
    return json{{"accuracy_mean", m.mean},          {"accuracy_half_width_95", m.half_width},
                {"accuracy_per_trial", m.accuracy}, {"epsilon", m.epsilon},
                {"epsilon_covers", m.accounting},   {"noise_multiplier", m.noise_multiplier},
                {"runs_per_trial", m.runs}};
  };
  for (const ComparisonRow& r : result.rows) {
    json a1 = method(r.algorithm1);
    a1["regularization"] = r.algorithm1.regularization;
    a1["noise_factor"] = r.algorithm1.noise_factor;
    rows.push_back({{"epsilon_target", r.epsilon},
                    {"dishonest_dpsgd", method(r.dishonest)},
                    {"algorithm1", a1},
                    {"honest_dpsgd", method(r.honest)}});
  }
  return json{{"experiment", "objpert-vs-dpsgd"},
              {"name", preset.name},
              {"dataset", preset.dataset_source},
              {"train_size", result.train_size},
              {"test_size", result.test_size},
              {"dim", result.dim},
              {"delta", c.delta},
              {"trials", c.trials},
              {"seed", c.seed},
              {"dpsgd_steps", result.dpsgd_steps},
              {"honest_poisson_mean", result.poisson_mean},
              {"selection_note", "best test accuracy per method, as the paper's Figure 2"},
              {"rows", rows},
              {"wall_seconds", result.wall_seconds}};
}

}  // namespace dplab::objpert
