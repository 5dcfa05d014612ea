#include "experiment/objpert_entry.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <type_traits>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/validate.h"

namespace dplab::experiment {
namespace {

using nlohmann::json;

// The smoothness of the logistic loss on the GLM design (rows of norm sqrt 2): f''_max ||x||^2 =
// 1/4 * 2 (objective_perturbation/algorithm1.h, smoothness_of). lambda must exceed it.
constexpr double kLogisticSmoothness = 0.5;

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw ParseError(path + ": " + message);
}

void check_keys(const json& object, const std::string& path, const std::set<std::string>& keys) {
  if (!object.is_object()) fail(path, "expected an object, got " + json_excerpt(object));
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (!keys.count(it.key())) fail(path + "." + it.key(), "unknown key");
  }
}

double number(const json& object, const std::string& key, const std::string& path,
              std::optional<double> fallback) {
  const std::string where = path + "." + key;
  if (!object.contains(key)) {
    if (!fallback) fail(where, "missing (required)");
    return *fallback;
  }
  const json& v = object[key];
  if (!v.is_number() || !std::isfinite(v.get<double>())) {
    fail(where, "expected a number, got " + json_excerpt(v));
  }
  return v.get<double>();
}

// number | [numbers], each checked by `ok` (described by `what`).
template <typename T, typename Ok>
std::vector<T> list(const json& v, const std::string& where, Ok ok, const std::string& what) {
  std::vector<json> items;
  if (v.is_array()) {
    if (v.empty()) fail(where, "the list is empty");
    items.assign(v.begin(), v.end());
  } else {
    items.push_back(v);
  }
  std::vector<T> out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string at = v.is_array() ? where + "[" + std::to_string(i) + "]" : where;
    const json& x = items[i];
    if (!x.is_number() || !std::isfinite(x.get<double>())) {
      fail(at, "expected " + what + ", got " + json_excerpt(x));
    }
    const double value = x.get<double>();
    if constexpr (std::is_integral_v<T>) {
      if (value != std::floor(value) || std::abs(value) > 9e15) {
        fail(at, "expected " + what + ", got " + json_excerpt(x));
      }
    }
    if (!ok(value)) fail(at, "expected " + what + ", got " + json_excerpt(x));
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
  check_keys(element, path, {"name", "privacy", "grid"});
  ObjpertEntry e;
  if (!element.contains("privacy")) fail(path + ".privacy", "missing (required)");
  const std::string p = path + ".privacy";
  const json& privacy = element["privacy"];
  check_keys(privacy, p, {"noise_std", "regularization", "output_noise_std", "tau", "clip"});
  e.noise_std = number(privacy, "noise_std", p, std::nullopt);
  if (!(e.noise_std > 0)) fail(p + ".noise_std", "must be > 0, got " + format_number(e.noise_std));
  e.clip = number(privacy, "clip", p, e.clip);
  if (!(e.clip > 0)) fail(p + ".clip", "must be > 0, got " + format_number(e.clip));
  e.regularization = number(privacy, "regularization", p, std::nullopt);
  if (!(e.regularization > kLogisticSmoothness)) {
    fail(p + ".regularization",
         "must be > 0.5 (the logistic loss's smoothness beta on unit-norm rows plus a bias; "
         "Theorem 4.1 needs lambda > beta), got " +
             format_number(e.regularization));
  }
  e.tau = number(privacy, "tau", p, e.tau);
  if (!(e.tau > 0)) fail(p + ".tau", "must be > 0, got " + format_number(e.tau));
  e.output_noise_std = number(privacy, "output_noise_std", p, std::nullopt);
  if (!(e.output_noise_std > 0)) {
    fail(p + ".output_noise_std",
         "must be > 0 (Algorithm 1 releases its approximate minimiser with output noise), got " +
             format_number(e.output_noise_std));
  }
  if (element.contains("grid")) {
    const std::string g = path + ".grid";
    const json& grid = element["grid"];
    check_keys(grid, g, {"learning_rate", "max_iterations"});
    if (grid.contains("learning_rate")) {
      e.learning_rates = list<double>(
          grid["learning_rate"], g + ".learning_rate", [](double x) { return x > 0 && x <= 2; },
          "a learning rate in (0, 2] (x 1/smoothness)");
    }
    if (grid.contains("max_iterations")) {
      e.max_iterations = list<std::int64_t>(
          grid["max_iterations"], g + ".max_iterations",
          [](double x) { return x >= 1 && x <= 1e7; }, "an integer between 1 and 10^7");
    }
  }
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
