// RunConfig: everything `dplab-cli train` needs for one run, from flags and/or a JSON file
// (`--config FILE`, keys = the flag names with '_' for '-'; flags override the file).
// Every problem names the flag or key (UsageError → exit status 2).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "data/dataset_catalog.h"
#include "data/feature_scaling.h"
#include "training/trainer.h"

namespace dplab::cli {

struct RunConfig {
  std::string dataset = "fashion-mnist";  // built-in name or a path
  std::string format = "auto";            // auto | idx | csv | libsvm
  std::string label_column;               // CSV only; default: last column
  // --feature-range LO:HI / --feature-bounds FILE: public bounds instead of a min-max fit on the
  // data (data/feature_scaling.h). The file's path is kept for to_json.
  data::FeatureBounds feature_bounds;
  std::string feature_range_text, feature_bounds_file;
  std::vector<std::string> categorical;  // CSV columns one-hot encoded whatever their values
  double max_memory = 0;                 // bytes; 0 = the default budget (core/memory_check.h)
  double validation_fraction = 0.2;      // paper appendix H: 80/20
  std::string model = "logistic";        // linear | logistic | tlnn | cnn | conv-autoencoder
  int hidden_units = 100;
  std::string optimizer = "dpsgd";  // dpsgd ... | sgd | momentum | adam (non-private)
  // alpha; empty => the optimizer's paper default (optim::default_spec: 0.01 for DPSGD and
  // DPMomentum, 1e-3 for DPAdam, ADADP's eta_0 and DPAdamWOSM's ESS), as in tune.
  std::optional<double> learning_rate;
  double clip = 1.0;
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
  // --categorical into `source`, and --max-memory into the process's memory budget: the one
  // place a command that loads data applies them.
  void apply_data_limits(data::DatasetSource& source) const;
};

// --max-memory for commands whose settings are not a RunConfig (tune): declares the flag, and
// sets the process's memory budget from it (UsageError naming the flag for a bad size).
// --config FILE and every run_config_flag_list() flag: the settings of one training run, for
// the commands that train one (train, label-canary, audit).
void add_run_config_flags(CLI::App& command, Arguments& args);
void add_max_memory_flag(CLI::App& command, Arguments& args);
void apply_max_memory_flag(const Arguments& args);
// "4G", "512M", "2GiB", bytes; UsageError "--max-memory = X must be a size ..." otherwise.
double parse_max_memory(const std::string& text);

// The flags `train` accepts (and the JSON keys, with '_' for '-'), with their --help lines.
struct RunConfigFlag {
  const char* name;
  const char* value_name;
  const char* help;
};
const std::vector<RunConfigFlag>& run_config_flag_list();
const std::set<std::string>& run_config_flags();

// Reads --config (if any), then applies the flags; checks every value and names the flag.
RunConfig parse_run_config(const Arguments& args);

}  // namespace dplab::cli
