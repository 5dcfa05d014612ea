// `tune --dataset FILE [--label-column COL]`: the experiment's search on the user's own data
// (a new user's first private search: `tune --config quick-demo --dataset mine.csv --release
// private`), replacing the experiment file's "dataset" source. The experiment's split
// (validation_fraction, split_seed) stays; its synthetic-only settings (num_samples, dim) and a
// built-in's folder are dropped; the data's columns are read as `train --dataset` reads them.
#pragma once

#include "cli/arguments.h"
#include "experiment/experiment_config.h"

namespace dplab::cli {

// Declares --dataset and --label-column on `tune`.
void add_tune_dataset_flags(CLI::App& command, Arguments& args);

// Applies them to `config`; UsageError with --resume (the run keeps its data) or --plan (a
// plan's shards read the experiment file itself), or --label-column without --dataset.
void apply_tune_dataset_flags(const Arguments& args, experiment::ExperimentConfig& config);

}  // namespace dplab::cli
