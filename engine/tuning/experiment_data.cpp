// load_experiment_data: maps an experiment's `dataset` section onto the data catalog and the
// paper's preprocessing (seeded 80/20 split, features in [0, 1]; appendix H).
#include "tuning/experiment_data.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"
#include "tuning/runner.h"

namespace dplab::tuning {

data::DatasetSource dataset_source(const experiment::ExperimentConfig& config) {
  const auto& d = config.dataset;
  data::DatasetSource source = data::source_for(d.source);
  if (!source.name.empty()) source.path = d.path;  // a built-in's folder ("adult")
  source.format = data::parse_data_format(d.format);
  source.label_column = d.label_column;
  source.categorical_columns = d.categorical;
  source.csv = d.csv;
  // A linear model is a regression: CSV/LIBSVM targets are then real-valued.
  source.regression = config.model.kind == models::ModelKind::kLinearRegression;
  if (d.num_samples) source.num_samples = *d.num_samples;
  if (d.dim) source.dim = *d.dim;
  const std::uint64_t split_seed = d.split_seed.value_or(config.seed);
  source.seed = split_seed;
  source.feature_bounds = d.feature_bounds;
  return source;
}

std::shared_ptr<const data::TrainValidationSplit> load_experiment_data(
    const experiment::ExperimentConfig& config) {
  return split_experiment_data(config, data::load_dataset(dataset_source(config)));
}

std::shared_ptr<const data::TrainValidationSplit> split_experiment_data(
    const experiment::ExperimentConfig& config, const data::Dataset& all) {
  const auto& d = config.dataset;
  const std::uint64_t split_seed = d.split_seed.value_or(config.seed);
  data::TrainValidationSplit split = data::prepare_split(all, d.validation_fraction, split_seed);
  experiment::apply_data_variants(config.variants, split);  // e.g. pixels in [-1, 1]
  return std::make_shared<const data::TrainValidationSplit>(std::move(split));
}

}  // namespace dplab::tuning
