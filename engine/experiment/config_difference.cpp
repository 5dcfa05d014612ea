// Flattens each config's canonical JSON (to_json, the form the store keeps) into key paths and
// compares the values per path; a path missing in one config counts as a difference.
#include "experiment/config_difference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "privacy/accounting/epsilon_display.h"

namespace dplab::experiment {
namespace {

using nlohmann::json;
using Flat = std::map<std::string, json>;

// Objects are walked key by key; arrays of objects (the optimizers) by index; other arrays and
// scalars are leaves compared as a whole.
void flatten(const json& j, const std::string& path, Flat& out) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      flatten(value, path.empty() ? key : path + "." + key, out);
    }
    return;
  }
  if (j.is_array() && !j.empty() && j.front().is_object()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      flatten(j[i], path + "[" + std::to_string(i) + "]", out);
    }
    return;
  }
  out[path] = j;
}

// The symbols the papers and the GUI's form use; they are listed first, in this order.
const std::vector<std::pair<std::string, std::string>>& symbols() {
  static const std::vector<std::pair<std::string, std::string>> s = {
      {"privacy.noise_multiplier", "σ"},
      {"privacy.steps", "T"},
      {"privacy.lot_size", "L"},
      {"privacy.delta", "δ"},
  };
  return s;
}

std::string value_text(const json& v) {
  if (v.is_null()) return "—";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v.get<double>());
    return buf;
  }
  if (v.is_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + value_text(v[i]);
    s += "]";
    return s.size() > 28 ? s.substr(0, 25) + "…]" : s;
  }
  return v.dump();
}

// "optimizers[0].grid.learning_rate" → "dpsgd learning_rate" (the optimizer's name from the
// same config); "tuning.strategy" → "strategy".
std::string setting_name(const std::string& path, const Flat& flat) {
  for (const auto& [p, symbol] : symbols()) {
    if (p == path) return symbol;
  }
  const std::string leaf = path.substr(path.find_last_of('.') + 1);
  if (path.rfind("optimizers[", 0) == 0) {
    const std::string prefix = path.substr(0, path.find(']') + 1);
    const auto name = flat.find(prefix + ".name");
    if (leaf == "name") return "optimizer " + std::to_string(std::stoi(path.substr(11)) + 1);
    if (name != flat.end() && name->second.is_string()) {
      return name->second.get<std::string>() + " " + leaf;
    }
  }
  return leaf;
}

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : " · ") + p;
  return s;
}

}  // namespace

std::vector<std::string> difference_labels(const std::vector<ExperimentConfig>& configs,
                                           const std::vector<double>& epsilons,
                                           std::size_t max_settings) {
  if (!epsilons.empty() && epsilons.size() != configs.size()) {
    throw InvalidArgument("difference_labels: one epsilon per config is needed");
  }
  std::vector<std::string> labels(configs.size());
  if (configs.size() < 2) return labels;

  std::vector<Flat> flats(configs.size());
  std::set<std::string> paths;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    json j = to_json(configs[i]);
    j.erase("name");
    flatten(j, "", flats[i]);
    for (const auto& [p, v] : flats[i]) paths.insert(p);
  }
  std::vector<std::string> differing;
  for (const auto& [p, symbol] : symbols()) {
    if (paths.count(p)) differing.push_back(p);
  }
  for (const std::string& p : paths) {
    if (std::find(differing.begin(), differing.end(), p) == differing.end()) differing.push_back(p);
  }
  auto value_at = [&](std::size_t i, const std::string& p) {
    const auto it = flats[i].find(p);
    return it == flats[i].end() ? json() : it->second;
  };
  std::erase_if(differing, [&](const std::string& p) {
    for (std::size_t i = 1; i < configs.size(); ++i) {
      if (value_at(i, p) != value_at(0, p)) return false;
    }
    return true;
  });

  std::vector<std::string> eps_text(configs.size());
  bool eps_differ = false;
  if (!epsilons.empty()) {
    for (std::size_t i = 0; i < configs.size(); ++i) {
      eps_text[i] =
          std::isfinite(epsilons[i]) ? "ε ≤ " + privacy::format_epsilon_up(epsilons[i]) : "ε —";
      eps_differ = eps_differ || eps_text[i] != eps_text[0];
    }
  }
  for (std::size_t i = 0; i < configs.size(); ++i) {
    std::vector<std::string> parts;
    for (std::size_t k = 0; k < differing.size() && k < max_settings; ++k) {
      const std::string& p = differing[k];
      parts.push_back(setting_name(p, flats[i]) + " " + value_text(value_at(i, p)));
    }
    if (differing.size() > max_settings) {
      parts.push_back("+" + std::to_string(differing.size() - max_settings) + " more");
    }
    if (eps_differ) parts.push_back(eps_text[i]);
    labels[i] = parts.empty() ? "same settings" : join(parts);
  }
  return labels;
}

}  // namespace dplab::experiment
