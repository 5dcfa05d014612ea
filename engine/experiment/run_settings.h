// RunSettings: everything one training run needs (`dplab-cli train`, audit and label-canary; the
// Python module's dplab.train), read from named settings (core/settings.h): the commands' flags,
// a JSON file's keys, or Python keyword arguments, one set of rules for all of them. Every
// problem names the setting as the caller spells it ("--steps = 0 must be ..." / "steps = 0 must
// be ..."; InvalidArgument).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/settings.h"
#include "data/dataset_catalog.h"
#include "data/feature_scaling.h"
#include "training/trainer.h"

namespace dplab::experiment {

struct RunSettings {
  std::string dataset = "fashion-mnist";  // built-in name or a path
  std::string format = "auto";            // auto | idx | csv | libsvm
  std::string label_column;               // CSV only; default: last column
  // feature-range LO:HI / feature-bounds FILE: public bounds instead of a min-max fit on the
  // data (data/feature_scaling.h). The file's path is kept for to_json.
  data::FeatureBounds feature_bounds;
  std::string feature_range_text, feature_bounds_file;
  std::vector<std::string> categorical;  // CSV columns one-hot encoded whatever their values
  data::CsvReading csv;                  // CSV delimiter, na-values, na-policy
  double max_memory = 0;                 // bytes; 0 = the default budget (core/memory_check.h)
  double validation_fraction = 0.2;      // paper appendix H: 80/20
  std::string model = "logistic";        // models::model_kind_names (no custom)
  int hidden_units = 100;
  std::string optimizer = "dpsgd";  // dpsgd ... | sgd | momentum | adam (non-private)
  // alpha; empty => the optimizer's paper default (optim::default_spec: 0.01 for DPSGD and
  // DPMomentum, 1e-3 for DPAdam, ADADP's eta_0 and DPAdamWOSM's ESS), as in tune.
  std::optional<double> learning_rate;
  double clip = 1.0;
  // flat | automatic (models/clipping.h, Bu et al. 2023): automatic runs at C = 1 (sensitivity).
  models::ClippingMode clipping = models::ClippingMode::kFlat;
  double clip_stability = models::kDefaultClipStability;  // gamma of automatic clipping
  double noise_multiplier = 1.0;
  double lot_size = 250;
  std::int64_t steps = 1000;
  double momentum = 0.9;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double target_quantile = 0.5;  // FixedQuantile's gamma
  std::int64_t eval_every = 100;
  std::uint64_t seed = 0;
  double delta = 0;  // 0: 1/n rounded down to a power of ten
  std::string out;

  bool is_private() const;  // false for the non-private baselines sgd | momentum | adam
  // The trainer's config (for non-private baselines: sigma = 0 and no clipping).
  training::TrainingConfig training_config() const;
  double effective_learning_rate() const;  // learning_rate or the optimizer's default
  nlohmann::json to_json() const;
  // categorical, delimiter, na-values and na-policy into `source`, and max-memory into the
  // process's memory budget: the one place a run that loads data applies them.
  void apply_data_limits(data::DatasetSource& source) const;
};

// The settings of a run (their names; the JSON keys of a run file are the same with '_' for
// '-'), with the --help line of each.
struct RunSettingInfo {
  const char* name;
  const char* value_name;
  std::string help;  // its "(default X)" from RunSettings' own initial values
};
const std::vector<RunSettingInfo>& run_setting_list();
const std::set<std::string>& run_setting_names();

// "4G", "512M", "2GiB", bytes; InvalidArgument "<field> = X must be a size ..." otherwise.
double parse_max_memory(const std::string& text, const std::string& field);

// Reads every run setting given in `settings` (others are the caller's) and checks each value
// and how they combine (the checks that need no data; L <= n comes after loading).
RunSettings parse_run_settings(const Settings& settings);

}  // namespace dplab::experiment
