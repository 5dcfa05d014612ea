// The three kinds of JSON file under resources/presets/, told apart in this one place by the keys
// only one kind has, so that a file given to the wrong command says which command runs it:
//   objective-perturbation comparison  "experiment": "objpert-vs-dpsgd" (or an "algorithm1"
//     block): objective_perturbation/comparison_preset.h, `dplab-cli objpert --compare FILE`;
//   OSO grid protocol                  "protocol": "oso" (or "granularities"):
//     tuning/oso_protocol.h, `dplab-cli oso-protocol --preset FILE`;
//   tuning experiment                  anything else: experiment_config.h, `tune --config FILE`.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace dplab::experiment {

enum class PresetKind { kExperiment, kObjpertComparison, kOsoProtocol };

PresetKind preset_kind(const nlohmann::json& file);

// For a file that is not a tuning experiment: "this is an objpert --compare preset: run
// `dplab-cli objpert --compare PATH`"; nullopt for an experiment.
std::optional<std::string> other_preset_hint(PresetKind kind, const std::string& path);

}  // namespace dplab::experiment
