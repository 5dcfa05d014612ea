// The preset file of the objective-perturbation vs DP-SGD comparison (honest_comparison.h), e.g.
// resources/presets/objpert-vs-dpsgd-adult.json (the paper's Table 2). Its own small schema, not
// the `tune` experiment schema: it holds no optimizer grid to expand but three fixed methods with
// their own privacy calibrations. Every key is checked (an unknown key is an error naming it):
//   experiment "objpert-vs-dpsgd" (required), name,
//   dataset   {source (built-in name, "synthetic-l"/"synthetic-h", or a file), path (folder for
//              "adult"; relative paths are relative to the preset file), test_fraction,
//              split_seed},
//   epsilons [..], delta, trials, seed,
//   dpsgd     {lot_size, epochs, clip, grid_size, learning_rate_range [lo, hi],
//   prob_more_than_grid}, algorithm1 {tau, output_noise_std, noise_factor, solver "lbfgs"|"gd"}.
// Parse errors are ParseError naming the key path and the origin (file).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "data/dataset.h"
#include "objective_perturbation/honest_comparison.h"

namespace dplab::objpert {

struct ComparisonPreset {
  std::string name;
  std::string dataset_source = "adult";
  std::string dataset_path;  // resolved against the preset's folder when relative
  ComparisonConfig config;
};

ComparisonPreset parse_comparison_preset(const nlohmann::json& j, const std::string& origin);
// Reads the file; relative dataset paths are resolved against its folder.
ComparisonPreset load_comparison_preset(const std::string& path);

// The data set of a comparison: "synthetic-l" / "synthetic-h" (synthetic_glm.h, seeded by
// `seed`) or the data set catalog (data/dataset_catalog.h; `path`, when not empty, overrides a
// built-in's folder). Throws the catalog's errors (IoError, ParseError, InvalidArgument).
data::Dataset load_comparison_dataset(const std::string& source, const std::string& path,
                                      std::uint64_t seed);

// The JSON summary of a run: per epsilon, each method's mean, 1.96 SE half width, per-trial
// accuracies, certified epsilon and what it covers.
nlohmann::json comparison_to_json(const ComparisonPreset& preset, const ComparisonResult& result);

}  // namespace dplab::objpert
