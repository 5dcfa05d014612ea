#include "experiment/objpert_entry.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "core/validate.h"

namespace dplab::experiment {
namespace {

using nlohmann::json;

// The smoothness of the logistic loss on the GLM design (rows of norm sqrt 2): f''_max ||x||^2 =
// 1/4 * 2 (objective_perturbation/algorithm1.h, smoothness_of). lambda must exceed it.
constexpr double kLogisticSmoothness = 0.5;

// number | [numbers], each checked by `ok` (described by `what`).
template <typename T, typename Ok>
std::vector<T> list(const json& v, const std::string& where, Ok ok, const std::string& what) {
  std::vector<json> items;
  if (v.is_array()) {
    if (v.empty()) json_fail(where, "the list is empty");
    items.assign(v.begin(), v.end());
  } else {
    items.push_back(v);
  }
  std::vector<T> out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string at = v.is_array() ? where + "[" + std::to_string(i) + "]" : where;
    const json& x = items[i];
    if (!x.is_number() || !std::isfinite(x.get<double>())) {
      json_fail(at, "expected " + what + ", got " + json_excerpt(x));
    }
    const double value = x.get<double>();
    if constexpr (std::is_integral_v<T>) {
      if (value != std::floor(value) || std::abs(value) > 9e15) {
        json_fail(at, "expected " + what + ", got " + json_excerpt(x));
      }
    }
    if (!ok(value)) json_fail(at, "expected " + what + ", got " + json_excerpt(x));
    out.push_back(static_cast<T>(value));
  }
  return out;
}

}  // namespace

bool is_objpert_entry(const json& element) {
  return element.is_object() && element.contains("name") && element["name"].is_string() &&
         element["name"].get<std::string>() == "objpert";
}

ObjpertEntry parse_objpert_entry(const json& element, const std::string& path) {
  JsonReader entry(element, path);
  entry.find("name");  // "objpert" (is_objpert_entry)
  ObjpertEntry e;
  JsonReader privacy(entry.require("privacy"), entry.key_path("privacy"));
  const std::string p = privacy.path();
  e.noise_std = privacy.required_number("noise_std");
  if (!(e.noise_std > 0))
    json_fail(p + ".noise_std", "must be > 0, got " + format_number(e.noise_std));
  e.clip = privacy.number_or("clip", e.clip);
  if (!(e.clip > 0)) json_fail(p + ".clip", "must be > 0, got " + format_number(e.clip));
  e.regularization = privacy.required_number("regularization");
  if (!(e.regularization > kLogisticSmoothness)) {
    json_fail(p + ".regularization",
              "must be > 0.5 (the logistic loss's smoothness beta on unit-norm rows plus a bias; "
              "Theorem 4.1 needs lambda > beta), got " +
                  format_number(e.regularization));
  }
  e.tau = privacy.number_or("tau", e.tau);
  if (!(e.tau > 0)) json_fail(p + ".tau", "must be > 0, got " + format_number(e.tau));
  e.output_noise_std = privacy.required_number("output_noise_std");
  if (!(e.output_noise_std > 0)) {
    json_fail(
        p + ".output_noise_std",
        "must be > 0 (Algorithm 1 releases its approximate minimiser with output noise), got " +
            format_number(e.output_noise_std));
  }
  privacy.reject_unknown();
  if (const json* grid_json = entry.find("grid")) {
    JsonReader grid(*grid_json, entry.key_path("grid"));
    if (const json* rates = grid.find("learning_rate")) {
      e.learning_rates = list<double>(
          *rates, grid.key_path("learning_rate"), [](double x) { return x > 0 && x <= 2; },
          "a learning rate in (0, 2] (x 1/smoothness)");
    }
    if (const json* iterations = grid.find("max_iterations")) {
      e.max_iterations = list<std::int64_t>(
          *iterations, grid.key_path("max_iterations"), [](double x) { return x >= 1 && x <= 1e7; },
          "an integer between 1 and 10^7");
    }
    grid.reject_unknown();
  }
  entry.reject_unknown();
  return e;
}

json objpert_entry_to_json(const ObjpertEntry& e) {
  json lr = e.learning_rates.size() == 1 ? json(e.learning_rates[0]) : json(e.learning_rates);
  json it = e.max_iterations.size() == 1 ? json(e.max_iterations[0]) : json(e.max_iterations);
  return {{"name", "objpert"},
          {"privacy",
           {{"noise_std", e.noise_std},
            {"regularization", e.regularization},
            {"output_noise_std", e.output_noise_std},
            {"tau", e.tau},
            {"clip", e.clip}}},
          {"grid", {{"learning_rate", lr}, {"max_iterations", it}}}};
}

}  // namespace dplab::experiment
