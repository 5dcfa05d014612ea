#include "objective_perturbation/comparison_preset.h"

#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "core/validate.h"
#include "data/dataset_catalog.h"
#include "data/file_reader.h"
#include "data/path_beside.h"
#include "objective_perturbation/synthetic_glm.h"

namespace dplab::objpert {
namespace {

using nlohmann::json;

// Counts held in an int: read whole (never truncated); their rules are run_comparison's.
constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

// The preset's keys (a missing key keeps its default). Throws ParseError "<key path>: <what>".
ComparisonPreset read_preset(const json& j) {
  JsonReader r(j, "");
  r.require("experiment");
  r.optional_choice("experiment", {"objpert-vs-dpsgd"}, "experiment");
  ComparisonPreset p;
  ComparisonConfig& c = p.config;
  p.name = r.string_or("name", p.name);
  if (const json* dataset = r.find("dataset")) {
    JsonReader d(*dataset, "dataset");
    p.dataset_source = d.string_or("source", p.dataset_source);
    p.dataset_path = d.string_or("path", p.dataset_path);
    c.test_fraction = d.number_or("test_fraction", c.test_fraction);
    c.split_seed = d.optional_seed("split_seed").value_or(0);
    d.reject_unknown();
  }
  if (auto epsilons = r.optional_numbers("epsilons")) {
    if (epsilons->empty()) json_fail("epsilons", "the list is empty");
    for (std::size_t i = 0; i < epsilons->size(); ++i) {
      if (!((*epsilons)[i] > 0))
        json_fail(r.element_path("epsilons", i),
                  "must be > 0, got " + format_number((*epsilons)[i]));
    }
    c.epsilons = *epsilons;
  }
  c.delta = r.number_or("delta", c.delta);
  if (auto trials = r.optional_integer("trials", 0, kIntMax)) c.trials = static_cast<int>(*trials);
  c.seed = r.optional_seed("seed").value_or(0);
  if (const json* dpsgd = r.find("dpsgd")) {
    JsonReader d(*dpsgd, "dpsgd");
    c.lot_size = d.number_or("lot_size", c.lot_size);
    c.epochs = d.number_or("epochs", c.epochs);
    c.clip = d.number_or("clip", c.clip);
    if (auto s = d.optional_integer("grid_size", 0, kIntMax)) c.grid_size = static_cast<int>(*s);
    c.prob_more_than_grid = d.number_or("prob_more_than_grid", c.prob_more_than_grid);
    if (auto range = d.optional_low_high("learning_rate_range"))
      std::tie(c.learning_rate_low, c.learning_rate_high) = *range;
    d.reject_unknown();
  }
  if (const json* algorithm1 = r.find("algorithm1")) {
    JsonReader a(*algorithm1, "algorithm1");
    c.tau = a.number_or("tau", c.tau);
    c.output_noise_std = a.number_or("output_noise_std", c.output_noise_std);
    c.noise_factor = a.number_or("noise_factor", c.noise_factor);
    if (auto solver = a.optional_string("solver")) {
      try {
        c.solver = parse_solver(*solver);
      } catch (const InvalidArgument& e) {
        json_fail(a.key_path("solver"), e.what());
      }
    }
    a.reject_unknown();
  }
  r.reject_unknown();
  return p;
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
  try {
    return read_preset(j);
  } catch (const ParseError& e) {
    throw ParseError(origin + ": " + e.what());
  }
}

ComparisonPreset load_comparison_preset(const std::string& path) {
  // The one reader (regular files only, size-capped, UTF-8, within the memory budget);
  // depth-capped, and a syntax error names its line, column and byte.
  const json j = data::read_json_file(path);
  ComparisonPreset p = parse_comparison_preset(j, path);
  p.dataset_path = data::path_beside(path, p.dataset_path);
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
