// The Playground's settings as JSON, for the state file a teacher saves and reopens exactly, for
// lesson files (resources/lessons/*.json) and as the ledger's identity of a setting:
//   {"data": {"shape": "circles", "num_points": 400, "label_noise": 0, "test_fraction": 0.3,
//             "minority_fraction": 0, "seed": 1, "outlier": {"x": .., "y": .., "label": 1}},
//    "model": {"hidden": [4, 4], "activation": "tanh",
//              "features": {"x2": false, "y2": false, "xy": false}},
//    "training": {"optimizer": "dpsgd", "private": true, "learning_rate": 0.5,
//                 "noise_multiplier": 1, "clip": 1, "lot_size": 50, "steps": 300,
//                 "delta": 1e-5, "seed": 1}}
// Every key is optional when reading (a lesson states only what it sets; the rest keeps `base`);
// unknown keys and mistyped values throw ParseError naming the key path ("training.clip: ...").
// Doubles are written as the shortest text that reads back to the same double (nlohmann::json),
// so write -> read is exact.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "playground/playground_session.h"

namespace dplab::playground {

nlohmann::json settings_to_json(const PlaygroundSettings& settings);
// Reads `j` over `base` (missing keys keep base's values); validates the result.
PlaygroundSettings settings_from_json(const nlohmann::json& j, const PlaygroundSettings& base = {},
                                      const std::string& path = "");

// The state file a teacher saves (File → Save state) and reopens exactly:
//   {"dplab_playground_state": 1, "settings": {...}, "steps": 120, "projection": [0, 1],
//    "ledger": [{"setting": {...run_identity...}, "best_test_accuracy": 0.93}, ...]}
// Reopening retrains the setting to `steps` (deterministic: the same parameters) and restores the
// ledger, so the epsilon charged for the settings tried survives the file.
struct PlaygroundState {
  PlaygroundSettings settings;
  std::int64_t steps = 0;
  int projection_a = 0, projection_b = 1;
  std::vector<std::pair<PlaygroundSettings, double>> ledger;  // setting, best test accuracy
};
std::string state_to_text(const PlaygroundState& state);
// Throws ParseError naming `origin` and the key.
PlaygroundState state_from_text(const std::string& text, const std::string& origin);

// What decides a trained run (everything but delta, which only changes the epsilon shown): the
// ledger's identity of a setting. And the identity of the data set alone.
std::string run_identity(const PlaygroundSettings& settings);
std::string data_identity(const DataOptions& data);

}  // namespace dplab::playground
