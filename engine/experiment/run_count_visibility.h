// Who may see how many runs a search trained. A private Liu-Talwar or Papernot-Steinke selection
// (and private-subsampled, a PS search) draws its number of runs K at random, and its epsilon
// covers only the winner with K integrated out (Liu & Talwar 2019, Thm 3.4; Papernot & Steinke
// 2022, Thm 2): K itself is not covered. So every front end shows no job or step count, no
// throughput, ETA or wall time of such a run (each reveals K: the steps total is K T), and
// curator-only.json is the one place K lives. Explore (every run is shown) and MA (K = the
// candidate count, public) keep their counts. The one rule every door applies
// (docs/privacy-model.md).
#pragma once

#include <string>

#include "experiment/release_config.h"

namespace dplab::experiment {

bool hides_run_count(const ReleaseConfig& release);

// The same rule for a run known only by its describe_release text (the run history's
// release_mode): counts are shown for "explore" and "private ma" only, hidden for every other
// text (an unknown one included).
bool described_release_hides_run_count(const std::string& described_release);

}  // namespace dplab::experiment
