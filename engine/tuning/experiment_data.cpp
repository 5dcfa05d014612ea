// load_experiment_data: maps an experiment's `dataset` section onto the data catalog and the
// paper's preprocessing (seeded 80/20 split, features in [0, 1]; appendix H).
#include "tuning/experiment_data.h"
#include "core/memory_check.h"
#include "data/dataset_catalog.h"
#include "data/feature_rows.h"
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

namespace {

// Every job evaluates the validation rows every eval_every steps; from pixel storage each pass
// converted every byte to a float again (a quarter of a Table 3 search's CPU was evaluating, a
// third of that the conversion: docs/performance.md). Stored once as floats (the same floats,
// pixel_feature), a pass reads them in place. The training rows stay bytes (a lot gathers 250 of
// them per step, and they are the big part). Only while the floats take at most a quarter of the
// memory budget beside the data; else the validation stays bytes, as before.
void keep_validation_as_floats(data::TrainValidationSplit& split) {
  data::Dataset& v = split.validation;
  if (!v.stores_pixels()) return;
  const double floats = static_cast<double>(v.pixels.size()) * sizeof(float);
  const double held = static_cast<double>(split.train.feature_bytes() + v.feature_bytes());
  if (floats + held <= 0.25 * memory_budget_bytes()) data::store_as_floats(v);
}

}  // namespace

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
  keep_validation_as_floats(split);
  return std::make_shared<const data::TrainValidationSplit>(std::move(split));
}

}  // namespace dplab::tuning
