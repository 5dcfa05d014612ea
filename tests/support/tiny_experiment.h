// A tiny, fast experiment for tuning tests: synthetic binary data (600 rows), logistic model,
// a 2x2 DPSGD grid plus one DPAdam candidate, 2 repeats, 50 steps, a point every 10 steps.
#pragma once

#include <string>

#include "experiment/experiment_config.h"

namespace dplab::testing {

inline std::string tiny_experiment_json(int steps = 50, int repeats = 2) {
  return R"({
    "name": "tiny",
    "dataset": {"source": "synthetic-binary", "num_samples": 600, "dim": 5},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1.0, "lot_size": 50, "steps": )" +
         std::to_string(steps) + R"(},
    "optimizers": [
      {"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5], "clip": [0.5, 1]}},
      {"name": "dpadam", "grid": {"clip": 1}}
    ],
    "repeats": )" +
         std::to_string(repeats) + R"(,
    "eval_every": 10,
    "seed": 42
  })";
}

inline experiment::ExperimentConfig tiny_experiment(int steps = 50, int repeats = 2) {
  return experiment::parse_experiment_text(tiny_experiment_json(steps, repeats), "tiny");
}

}  // namespace dplab::testing
