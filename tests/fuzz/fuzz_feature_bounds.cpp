// libFuzzer harness: public feature bounds (data/feature_scaling.h), the --feature-bounds FILE
// door (a JSON object {"name": [low, high], ...} read by the one reader of JSON files) and the
// --feature-range LO:HI text.
//
//   the input's first line   the --feature-range text (empty: none)
//   the rest                 the bounds file
//   the last 12 bytes        also the three rows of features the bounds are applied to
//
// Bounds that are read are what validate_feature_interval allows (finite, low < high); they
// survive feature_bounds_json -> text -> parse unchanged; applying them to a data set whose
// features are the named ones (plus a one-hot "col=level" and, with a range, one unnamed feature)
// maps every finite feature into [0, 1] (a finite float, whatever the bounds' magnitude) or
// throws InvalidArgument.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_text.h"
#include "data/dataset.h"
#include "data/feature_scaling.h"
#include "data/file_reader.h"
#include "fuzz_input_file.h"

namespace {

constexpr std::size_t kMaxFeatures = 64;

void check_interval(const dplab::data::FeatureInterval& i) {
  if (!std::isfinite(i.low) || !std::isfinite(i.high) || !(i.low < i.high)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  const std::string range_text = input.substr(0, newline);
  const std::string file_text = newline == std::string::npos ? "" : input.substr(newline + 1);

  dplab::data::FeatureBounds bounds;
  bounds.field = "--feature-bounds";
  if (!range_text.empty()) {
    try {
      bounds.all = dplab::data::parse_feature_range(range_text, "--feature-range");
      check_interval(*bounds.all);
    } catch (const dplab::Error&) {
    }
  }
  const std::string path = dplab::fuzz::write_input(
      "bounds.json", reinterpret_cast<const std::uint8_t*>(file_text.data()), file_text.size());
  try {
    bounds.by_name =
        dplab::data::parse_feature_bounds(dplab::data::read_json_file(path), "--feature-bounds");
  } catch (const dplab::Error&) {
    if (!bounds.all) return 0;
  }
  for (const auto& [name, interval] : bounds.by_name) check_interval(interval);
  // The bounds as a run records them (summary.json, model.json), read back.
  if (!bounds.by_name.empty()) {
    const std::string text = dplab::json_text(dplab::data::feature_bounds_json(bounds.by_name));
    const auto again = dplab::data::parse_feature_bounds(dplab::parse_json_text(text, "fuzz"), "x");
    if (again.size() != bounds.by_name.size()) __builtin_trap();
    for (const auto& [name, interval] : bounds.by_name) {
      const auto it = again.find(name);
      if (it == again.end() || it->second.low != interval.low || it->second.high != interval.high)
        __builtin_trap();
    }
  }
  (void)dplab::data::describe_feature_bounds(bounds);
  if (bounds.by_name.size() > kMaxFeatures) return 0;

  // A data set with the named features, a one-hot indicator and (with a range) one more.
  dplab::data::Dataset set;
  set.name = "fuzz";
  set.num_classes = 2;
  for (const auto& entry : bounds.by_name) set.feature_names.push_back(entry.first);
  const auto one_hot = static_cast<dplab::Index>(set.feature_names.size());
  if (bounds.by_name.count("col=level") == 0) set.feature_names.push_back("col=level");
  if (bounds.all && bounds.by_name.count("unnamed feature") == 0)
    set.feature_names.push_back("unnamed feature");
  const auto d = static_cast<dplab::Index>(set.feature_names.size());
  set.features.resize(3, d);
  set.targets.resize(3);
  const std::size_t tail = std::min<std::size_t>(size, 12);
  for (dplab::Index i = 0; i < 3; ++i) {
    set.targets(i) = static_cast<float>(i % 2);
    for (dplab::Index j = 0; j < d; ++j) {
      float x = static_cast<float>(j) - 1.5f;
      if (tail >= 4) {
        const auto at = static_cast<std::size_t>(i * 4 + j) % (tail - 3);
        std::memcpy(&x, data + size - tail + at, sizeof x);
      }
      if (!std::isfinite(x)) x = static_cast<float>(j) - 1.5f;
      set.features(i, j) = j == one_hot ? static_cast<float>(i % 2) : x;
    }
  }
  try {
    dplab::data::apply_feature_bounds(set, bounds);
  } catch (const dplab::InvalidArgument&) {
    return 0;
  }
  for (dplab::Index i = 0; i < set.features.rows(); ++i)
    for (dplab::Index j = 0; j < d; ++j) {
      const float x = set.features(i, j);
      if (!std::isfinite(x) || x < 0 || x > 1) {
        std::fprintf(stderr, "fuzz_feature_bounds: feature %ld of row %ld is %g after scaling\n",
                     static_cast<long>(j), static_cast<long>(i), static_cast<double>(x));
        __builtin_trap();
      }
    }
  return 0;
}
