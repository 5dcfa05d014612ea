// Size caps shared by every command and every search dplab runs (train, tune, label-canary,
// sparse-train, oso-protocol, experiment grids): a run or a search larger than this is refused
// up front with a message naming the field and the cap, instead of failing for memory or taking
// years after it started. One rule, checked by the engine where each run is built.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/validate.h"

namespace dplab {

// Training jobs one search may run: (candidate, repeat) jobs of an experiment, runs of a protocol.
inline constexpr std::int64_t kMaxTrainingJobs = 1000000;

// Optimizer steps (noisy-gradient queries T) of one training run. The papers' longest runs take
// about 1e5 steps; 1e8 is already hours for the smallest model (logistic, a few microseconds a
// step) and weeks for a TLNN, so a larger T is a typo (1e15), not an experiment.
inline constexpr std::int64_t kMaxTrainingSteps = 100000000;

// Passes over the training data of one run (sparse-train --epochs; the paper uses 20). The steps
// an epoch count gives are also held to kMaxTrainingSteps.
inline constexpr double kMaxEpochs = 100000;

// Throws InvalidArgument "<field> = <value> must be in [<lowest>, <cap>] (the run-size cap of
// core/limits.h)" when value is not a finite number in that range.
inline void require_run_size(std::string_view field, double value, double lowest, double cap) {
  if (!(value >= lowest && value <= cap)) {
    fail_field(field, value,
               "must be in [" + format_number(lowest) + ", " + format_number(cap) +
                   "] (the run-size cap every command shares)");
  }
}

}  // namespace dplab
