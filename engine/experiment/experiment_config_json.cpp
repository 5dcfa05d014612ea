// An experiment as JSON (experiment_config.h): to_json(parse_experiment(j)) parses back to the
// same config (the round trip the store and the cluster plans rely on).
#include <nlohmann/json.hpp>

#include "data/feature_scaling.h"
#include "experiment/experiment_config.h"

namespace dplab::experiment {
namespace {

using nlohmann::json;

json param_to_json(const ParamSpec& spec) {
  switch (spec.kind) {
    case ParamSpec::Kind::kValues:
      return spec.values.size() == 1 ? json(spec.values[0]) : json(spec.values);
    case ParamSpec::Kind::kLog10Grid:
      return {{"log10", {spec.low, spec.high}}, {"num", spec.num}};
    case ParamSpec::Kind::kUniform:
      return {{"uniform", {spec.low, spec.high}}};
    case ParamSpec::Kind::kLogUniform:
      return {{"log_uniform", {spec.low, spec.high}}};
  }
  return {};
}

}  // namespace

json to_json(const ExperimentConfig& config) {
  json dataset{{"source", config.dataset.source},
               {"format", config.dataset.format},
               {"validation_fraction", config.dataset.validation_fraction}};
  if (!config.dataset.label_column.empty()) dataset["label_column"] = config.dataset.label_column;
  if (!config.dataset.categorical.empty()) dataset["categorical"] = config.dataset.categorical;
  // How a CSV is read: written only when not the defaults (older files and runs read the same).
  const data::CsvReading& csv = config.dataset.csv;
  if (csv.delimiter != data::kDetectDelimiter)
    dataset["delimiter"] = data::delimiter_setting(csv.delimiter);
  if (csv.na_values != data::default_na_values()) dataset["na_values"] = csv.na_values;
  if (csv.na_policy != data::MissingValues::drop_row)
    dataset["na_policy"] = data::to_string(csv.na_policy);
  if (config.dataset.split_seed) dataset["split_seed"] = *config.dataset.split_seed;
  if (!config.dataset.path.empty()) dataset["path"] = config.dataset.path;
  if (config.dataset.num_samples) dataset["num_samples"] = *config.dataset.num_samples;
  if (config.dataset.dim) dataset["dim"] = *config.dataset.dim;
  if (const auto& range = config.dataset.feature_bounds.all) {
    dataset["feature_range"] = {range->low, range->high};
  }
  if (!config.dataset.feature_bounds.by_name.empty()) {
    dataset["feature_bounds"] = data::feature_bounds_json(config.dataset.feature_bounds.by_name);
  }
  json model{{"kind", models::to_string(config.model.kind)}};
  if (config.model.kind == models::ModelKind::kTwoLayerNetwork)
    model["hidden_units"] = config.model.hidden_units;
  if (config.model.kind == models::ModelKind::kCustom) {
    // Inline, even when it came from a file: a stored run carries its whole network.
    const json network = json::parse(config.model.network);
    for (const auto& item : network.items()) model[item.key()] = item.value();
  }
  json privacy{{"noise_multiplier", config.privacy.noise_multiplier},
               {"lot_size", config.privacy.lot_size},
               {"steps", config.privacy.steps}};
  if (config.privacy.delta) privacy["delta"] = *config.privacy.delta;
  if (config.privacy.sampling_rate) privacy["sampling_rate"] = *config.privacy.sampling_rate;
  json optimizers = json::array();
  for (const auto& o : config.optimizers) {
    json grid = json::object();
    for (int i = 0; i < kNumParams; ++i) {
      if (o.grid[i]) grid[param_name(static_cast<Param>(i))] = param_to_json(*o.grid[i]);
    }
    json entry{{"name", optim::to_string(o.kind)}, {"grid", grid}};
    if (o.count) entry["count"] = *o.count;
    // Flat clipping writes no key: files and stored configs from before automatic clipping
    // stay equal.
    if (o.clipping == models::ClippingMode::kAutomatic) {
      entry["clipping"] = models::to_string(o.clipping);
      entry["clip_stability"] = o.clip_stability;
    }
    optimizers.push_back(entry);
  }
  for (const auto& e : config.objective_perturbation)
    optimizers.push_back(objpert_entry_to_json(e));
  json tuning{{"strategy", to_string(config.tuning.strategy)}, {"delta2", config.tuning.delta2}};
  if (config.tuning.gamma) tuning["gamma"] = *config.tuning.gamma;
  json out{{"name", config.name},
           {"dataset", dataset},
           {"model", model},
           {"privacy", privacy},
           {"optimizers", optimizers},
           {"repeats", config.repeats},
           {"eval_every", config.eval_every},
           {"tuning", tuning},
           {"seed", config.seed}};
  // Default release: no key, so files and stored configs from before release modes stay equal.
  if (canonical_release(config.release) != ReleaseConfig{})
    out["release"] = release_to_json(config.release);
  if (!config.variants.is_default()) out["variants"] = variants_to_json(config.variants);
  if (!config.description.empty()) out["description"] = config.description;
  if (config.accounting != AccountingConfig{})
    out["accounting"] = accounting_to_json(config.accounting);
  // Secure mode writes no seed anywhere (the seed came from the OS and must stay secret).
  if (config.release.secure) out.erase("seed");
  return out;
}

}  // namespace dplab::experiment
