// An experiment's preprocessing of data it did not load itself (the Python module's
// dplab.tune(experiment, X, y)): the same seeded train/validation split and data variants as
// load_experiment_data (runner.h) applies to the data set its `dataset` section names.
#pragma once

#include <memory>

#include "data/dataset.h"
#include "experiment/experiment_config.h"

namespace dplab::tuning {

// prepare_split(all, dataset.validation_fraction, dataset.split_seed or the experiment seed),
// then the experiment's data variants (e.g. pixels in [-1, 1]).
std::shared_ptr<const data::TrainValidationSplit> split_experiment_data(
    const experiment::ExperimentConfig& config, const data::Dataset& all);

}  // namespace dplab::tuning
