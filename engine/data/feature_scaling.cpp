// Public-bounds feature scaling (see feature_scaling.h).
#include "data/feature_scaling.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/validate.h"
#include "data/text_number.h"

namespace dplab::data {
namespace {

std::string join(std::string_view field, std::string_view key) {
  return std::string(field) + "." + std::string(key);
}

// "column=value": a one-hot indicator of the CSV encoding (csv_loader.h), {0, 1} by construction.
bool is_one_hot(const std::string& name) {
  return name.find('=') != std::string::npos;
}

}  // namespace

void validate_feature_interval(std::string_view field, const FeatureInterval& interval) {
  require_finite(join(field, "low"), interval.low);
  require_finite(join(field, "high"), interval.high);
  if (!(interval.low < interval.high)) {
    throw InvalidArgument(std::string(field) + " = [" + format_number(interval.low) + ", " +
                          format_number(interval.high) + "] must have low < high");
  }
}

FeatureInterval parse_feature_range(const std::string& text, std::string_view field) {
  const auto colon = text.find(':');
  const auto low = colon == std::string::npos
                       ? std::nullopt
                       : parse_number(trim(std::string_view(text).substr(0, colon)));
  const auto high = colon == std::string::npos
                        ? std::nullopt
                        : parse_number(trim(std::string_view(text).substr(colon + 1)));
  if (!low || !high) {
    throw InvalidArgument(std::string(field) + " = '" + text +
                          "': expected LO:HI with two finite numbers, e.g. 0:255");
  }
  const FeatureInterval interval{*low, *high};
  validate_feature_interval(field, interval);
  return interval;
}

std::map<std::string, FeatureInterval> parse_feature_bounds(const nlohmann::json& object,
                                                            std::string_view field) {
  if (!object.is_object()) {
    throw InvalidArgument(std::string(field) +
                          ": expected an object {\"feature name\": [low, high], ...}, got " +
                          json_excerpt(object));
  }
  std::map<std::string, FeatureInterval> out;
  for (const auto& [name, value] : object.items()) {
    const std::string key = join(field, name);
    if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number()) {
      throw InvalidArgument(key + ": expected [low, high] (two numbers), got " +
                            json_excerpt(value));
    }
    const FeatureInterval interval{value[0].get<double>(), value[1].get<double>()};
    validate_feature_interval(key, interval);
    out[name] = interval;
  }
  return out;
}

nlohmann::json feature_bounds_json(const std::map<std::string, FeatureInterval>& by_name) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, interval] : by_name) out[name] = {interval.low, interval.high};
  return out;
}

std::string describe_feature_bounds(const FeatureBounds& bounds) {
  std::string text = "public feature bounds, clamped then mapped to [0, 1]: ";
  if (!bounds.by_name.empty()) {
    // Appends, not operator+ chains: GCC 12 warns falsely (-Wrestrict) on "[" + std::string.
    text.append("per-feature bounds for ").append(std::to_string(bounds.by_name.size()));
    text.append(bounds.by_name.size() == 1 ? " feature" : " features");
    if (bounds.all) text.append(", ");
  }
  if (bounds.all) {
    text.append("[").append(format_number(bounds.all->low)).append(", ");
    text.append(format_number(bounds.all->high)).append("]");
    text.append(bounds.by_name.empty() ? " for every feature" : " for the others");
  }
  text.append(" (one-hot indicators keep their 0/1 values); data-independent");
  return text;
}

void apply_feature_bounds(Dataset& data, const FeatureBounds& bounds) {
  const std::string& field = bounds.field;
  if (data.stores_pixels()) {
    throw InvalidArgument(field + ": " + data.name +
                          " is image data, already scaled by the public bounds 0..255 "
                          "(pixel / 255); drop the feature bounds");
  }
  const Index d = data.dim();
  const bool named = static_cast<Index>(data.feature_names.size()) == d;
  std::set<std::string> unused;
  for (const auto& entry : bounds.by_name) unused.insert(entry.first);
  // The interval of each feature; nullopt = keep the value (a one-hot indicator).
  std::vector<std::optional<FeatureInterval>> interval(static_cast<std::size_t>(d));
  for (Index j = 0; j < d; ++j) {
    const std::string name =
        named ? data.feature_names[static_cast<std::size_t>(j)] : std::string();
    auto& slot = interval[static_cast<std::size_t>(j)];
    if (const auto it = bounds.by_name.find(name); named && it != bounds.by_name.end()) {
      slot = it->second;
      unused.erase(name);
    } else if (named && is_one_hot(name)) {
      slot = std::nullopt;
    } else if (bounds.all) {
      slot = bounds.all;
    } else {
      throw InvalidArgument(field + ": feature " + std::to_string(j) +
                            (named ? " '" + name + "'" : std::string()) + " of " + data.name +
                            " has no public bound; name it in the per-feature bounds or give a "
                            "range for all features");
    }
  }
  if (!unused.empty()) {
    throw InvalidArgument(field + ": '" + *unused.begin() + "': " + data.name +
                          " has no feature of that name");
  }
  if (!data.feature_map.empty()) {
    throw InvalidArgument(field + ": " + data.name + " was already scaled");
  }
  FeatureMap map;
  map.kind = FeatureMap::Kind::kBounds;
  for (const auto& bound : interval) {  // low = high: kept as it is (one-hot)
    map.low.push_back(bound ? bound->low : 0.0);
    map.high.push_back(bound ? bound->high : 0.0);
  }
  map.apply(data.features);
  data.feature_map = std::move(map);
}

}  // namespace dplab::data
