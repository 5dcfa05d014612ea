// What tells runs shown together apart: the settings in which their experiments differ, as one
// short label per run ("σ 2 · T 500"). The history's Compare names each overlaid run by it, so
// two runs of the same name, or two runs that differ only in σ, can be told apart in a legend.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "experiment/experiment_config.h"

namespace dplab::experiment {

// One label per config, in order: the settings whose values are not the same in all configs
// (the name excluded: it is a label already), at most `max_settings` of them, then "+N more".
// σ, T, the lot size and δ come first under their symbols; others by their key ("seed 3",
// "dpsgd learning_rate [0.1, 1]"). `epsilons`, when not empty (one per config, NaN where
// unknown), adds "ε ≤ x" (rounded up) when the runs' ε differ. Configs that differ in nothing
// get "same settings". Fewer than two configs: every label is "".
std::vector<std::string> difference_labels(const std::vector<ExperimentConfig>& configs,
                                           const std::vector<double>& epsilons = {},
                                           std::size_t max_settings = 3);

}  // namespace dplab::experiment
