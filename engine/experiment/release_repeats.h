// The rule tying a release mode to the experiment's `repeats` (one implementation, used by the
// experiment file parser, `dplab-cli tune --repeats` and the GUI form).
#pragma once

#include <string>

#include "experiment/release_config.h"

namespace dplab::experiment {

// Throws ParseError (path `path`) when `repeats` does not fit the mode: private-subsampled runs
// one tuning search and one final run (replicate searches are not implemented for it).
void check_release_repeats(const ReleaseConfig& release, int repeats,
                           const std::string& path = "repeats");

}  // namespace dplab::experiment
