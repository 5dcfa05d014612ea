// Whether two experiment configs describe the same run: equal in every field that changes what
// is trained, sampled or released — everything but the name, which is a label. The GUI marks
// "form modified since this run" with it.
#pragma once

#include "experiment/experiment_config.h"

namespace dplab::experiment {

bool same_run_settings(const ExperimentConfig& a, const ExperimentConfig& b);

}  // namespace dplab::experiment
