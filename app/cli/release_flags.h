// The flags that choose a search's release (engine/experiment/release_config.h): declared on
// `tune`, `slurm` and `audit --tuning`, applied over the experiment file's "release" block.
#pragma once

#include "cli/arguments.h"
#include "experiment/experiment_config.h"

namespace dplab::cli {

// Declares --release, --strategy, --validation, --validation-noise, --ps-* and --secure on `tune`.
void add_release_flags(CLI::App& command, Arguments& args);

// --release explore|private, --strategy grid|ma|lt|ps, --validation public|private,
// --validation-noise S, --ps-distribution/--ps-mu/--ps-eta/--ps-gamma, --secure: override the
// experiment's "release". Throws UsageError naming the flag.
void apply_release_flags(const Arguments& args, experiment::ExperimentConfig& config);

}  // namespace dplab::cli
