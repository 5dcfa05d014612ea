// The rule tying a release mode to the experiment's `repeats` (one implementation, used by the
// experiment file parser, `dplab-cli tune --repeats` and the GUI form).
#pragma once

#include <string>

#include "experiment/release_config.h"

namespace dplab::experiment {

// Throws ParseError (path `path`) when `repeats` does not fit the mode. private-subsampled: each
// of the R replicates is one whole two-phase procedure (tuning/subsampled_search.h) and the
// epsilon composes over the R (tuning/release_cost.h), so any R >= 1 is allowed where the
// caller shows R released final runs; the GUI's run view shows one final run, so it passes
// one_procedure_only = true and R must be 1 there.
void check_release_repeats(const ReleaseConfig& release, int repeats,
                           const std::string& path = "repeats", bool one_procedure_only = false);

}  // namespace dplab::experiment
