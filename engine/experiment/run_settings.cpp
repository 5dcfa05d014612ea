#include "experiment/run_settings.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/limits.h"
#include "core/memory_check.h"
#include "core/message_text.h"
#include "core/validate.h"
#include "data/file_reader.h"
#include "experiment/experiment_config.h"

namespace dplab::experiment {
namespace {

bool is_nonprivate_name(const std::string& name) {
  return name == "sgd" || name == "momentum" || name == "adam";
}

// Maps a non-private baseline to the optimizer it runs with sigma = 0 and no clipping.
std::string optimizer_kind_name(const std::string& name) {
  if (name == "sgd") return "dpsgd";
  if (name == "momentum") return "dpmomentum";
  if (name == "adam") return "dpadam";
  return name;
}

// A JSON file named by setting `field` (the one reader: regular files only, size-capped, UTF-8,
// depth-capped; errors name the setting, the file, line and column).
nlohmann::json read_setting_json_file(const std::string& path, const std::string& field) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InvalidArgument(field + ": '" + path + "' is a directory");
  try {
    return data::read_json_file(path);
  } catch (const Error& e) {
    throw InvalidArgument(field + ": " + e.what());
  }
}

// The learning rate a run of `optimizer` uses when --lr is not given.
double default_learning_rate(const std::string& optimizer) {
  return optim::default_spec(optim::parse_optimizer_kind(optimizer_kind_name(optimizer)))
      .learning_rate;
}

// Markers as --na-values reads them: "NA,,nan,?".
std::string na_values_text(const std::vector<std::string>& markers) {
  std::string list;
  for (std::size_t i = 0; i < markers.size(); ++i) list += (i == 0 ? "" : ",") + markers[i];
  return list;
}

}  // namespace

const std::vector<RunSettingInfo>& run_setting_list() {
  // The "(default X)" of every help line is the value a RunSettings starts with: the one the run
  // uses when the setting is not given (one source; tests/cli/test_cli_help_defaults.cpp).
  static const std::vector<RunSettingInfo> settings = [] {
    const RunSettings d;
    const auto n = [](double value) { return format_number(value); };
    const auto i = [](std::int64_t value) { return std::to_string(value); };
    return std::vector<RunSettingInfo>{
        {"dataset", "NAME|PATH",
         "a built-in data set (fashion-mnist, synthetic-linear, synthetic-binary, ...) or a file "
         "(default " +
             d.dataset + ")"},
        {"format", "F", "auto | idx | csv | libsvm (for a PATH; default " + d.format + ")"},
        {"label-column", "NAME", "CSV label column (default: the last column)"},
        {"feature-range", "LO:HI",
         "public bounds for every feature: clamp to [LO, HI], then map to [0, 1] (default: CSV, "
         "LIBSVM and Adult are min-max scaled on the data itself, which eps does not cover)"},
        {"feature-bounds", "FILE",
         "JSON object {\"feature name\": [lo, hi], ...}: public bounds per feature, clamped; "
         "wins over --feature-range (one-hot column=value features keep 0/1)"},
        {"categorical", "COLS",
         "CSV columns to one-hot encode even if numeric or identifier-like (more than 1000 "
         "levels in more than half of the rows is refused otherwise); comma-separated (default "
         "none)"},
        {"delimiter", "D",
         "CSV field delimiter: ',' | ';' | tab (default: detected among them from the header "
         "and the first lines)"},
        {"na-values", "LIST",
         "CSV missing-value markers, comma-separated, an empty item for the empty field "
         "(default " +
             na_values_text(d.csv.na_values) + "), in numeric and text columns alike"},
        {"na-policy", "P",
         "drop | impute-mean | fail: a row with a missing value is dropped, or the value "
         "replaced by the training file's column mean (text columns: its most frequent level), "
         "or loading stops naming FILE:LINE and the column (default " +
             std::string(data::to_string(d.csv.na_policy)) + ")"},
        {"max-memory", "SIZE",
         "memory budget for loading and encoding data, checked before allocating, e.g. 4G, 512M "
         "(default: half of the memory available when dplab-cli started, fixed for the run; the "
         "value is printed as a note)"},
        {"validation-fraction", "F",
         "share held out for validation (default " + n(d.validation_fraction) +
             ", paper appendix H)"},
        {"model", "M", models::model_kind_names(" | ", false) + " (default " + d.model + ")"},
        {"hidden-units", "H", "TLNN hidden layer width (default " + i(d.hidden_units) + ")"},
        {"optimizer", "O",
         "dpsgd | dpmomentum | dpadam | adadp | dpadamwosm | oso-dpsgd | fixed-quantile (--clip "
         "is then C_0) | dpadam-bc, or the non-private baselines sgd | momentum | adam (sigma = "
         "0, no clipping) (default " +
             d.optimizer + ")"},
        {"lr", "A",
         "learning rate alpha (ADADP: initial; DPAdamWOSM: the alpha of its ESS) (default: the "
         "optimizer's paper default, " +
             n(default_learning_rate("dpsgd")) + " for dpsgd/dpmomentum, " +
             n(default_learning_rate("dpadam")) +
             " for dpadam/adadp/dpadamwosm/dpadam-bc, as in tune)"},
        {"clip", "C", "per-example clipping norm C (default " + n(d.clip) + ")"},
        {"clipping", "MODE",
         "flat: g min(1, C/||g||); automatic: g/(||g|| + gamma) (Bu et al. 2023), C is then 1 "
         "(the sensitivity) and --clip is refused; not for oso-dpsgd, fixed-quantile (default " +
             models::to_string(d.clipping) + ")"},
        {"clip-stability", "G",
         "gamma of automatic clipping (default " + n(d.clip_stability) + ")"},
        {"noise-multiplier", "S",
         "sigma; noise std on the clipped sum is sigma*C (default " + n(d.noise_multiplier) + ")"},
        {"lot-size", "L",
         "expected lot size; each example joins a lot with q = L/n (default " + n(d.lot_size) +
             ")"},
        {"steps", "T", "noisy-gradient queries (default " + i(d.steps) + ")"},
        {"momentum", "M", "DPMomentum (default " + n(d.momentum) + ")"},
        {"beta1", "B1", "DPAdam (default " + n(d.beta1) + ")"},
        {"beta2", "B2", "DPAdam (default " + n(d.beta2) + ")"},
        {"target-quantile", "G",
         "FixedQuantile's target quantile gamma of the gradient norms (default " +
             n(d.target_quantile) + ")"},
        {"eval-every", "K", "a curve point every K queries (default " + i(d.eval_every) + ")"},
        {"seed", "N",
         "seed of initialisation, sampling and noise (default " + std::to_string(d.seed) + ")"},
        {"delta", "D", "delta for the epsilon column (default 1/n rounded down to a power of 10)"},
        {"out", "DIR", "output folder (created); required, on the command line or in --config"}};
  }();
  return settings;
}

const std::set<std::string>& run_setting_names() {
  static const std::set<std::string> names = [] {
    std::set<std::string> set;
    for (const auto& setting : run_setting_list()) set.insert(setting.name);
    return set;
  }();
  return names;
}

bool RunSettings::is_private() const {
  return !is_nonprivate_name(optimizer);
}

double RunSettings::effective_learning_rate() const {
  if (learning_rate) return *learning_rate;
  return default_learning_rate(optimizer);
}

training::TrainingConfig RunSettings::training_config() const {
  training::TrainingConfig config;
  config.model.kind = models::parse_model_kind(model);
  config.model.hidden_units = hidden_units;
  config.optimizer.kind = optim::parse_optimizer_kind(optimizer_kind_name(optimizer));
  config.optimizer.learning_rate = effective_learning_rate();
  config.optimizer.momentum = momentum;
  config.optimizer.beta1 = beta1;
  config.optimizer.beta2 = beta2;
  config.optimizer.target_quantile = target_quantile;
  config.dp.lot_size = lot_size;
  config.dp.clip = is_private() ? clip : models::kNoClipping;
  if (clipping == models::ClippingMode::kAutomatic) {  // parse_run_settings: private only
    config.dp.clip = 1.0;                              // the sensitivity
    config.dp.clipping = clipping;
    config.dp.clip_stability = clip_stability;
  }
  config.dp.noise_multiplier = is_private() ? noise_multiplier : 0.0;
  config.steps = steps;
  config.eval_every = eval_every;
  config.seed = seed;
  return config;
}

nlohmann::json RunSettings::to_json() const {
  nlohmann::json j;
  j["dataset"] = dataset;
  j["format"] = format;
  if (!label_column.empty()) j["label_column"] = label_column;
  if (feature_bounds.all) j["feature_range"] = feature_range_text;
  if (!feature_bounds_file.empty()) j["feature_bounds"] = feature_bounds_file;
  if (!categorical.empty()) {
    std::string list;
    for (const auto& column : categorical) list += (list.empty() ? "" : ",") + column;
    j["categorical"] = list;
  }
  if (csv.delimiter != data::kDetectDelimiter)
    j["delimiter"] = data::delimiter_setting(csv.delimiter);
  if (csv.na_values != data::default_na_values()) j["na_values"] = na_values_text(csv.na_values);
  if (csv.na_policy != data::MissingValues::drop_row)
    j["na_policy"] = data::to_string(csv.na_policy);
  if (max_memory > 0) j["max_memory"] = max_memory;
  j["validation_fraction"] = validation_fraction;
  j["model"] = model;
  if (model == "tlnn") j["hidden_units"] = hidden_units;
  j["optimizer"] = optimizer;
  j["lr"] = effective_learning_rate();
  j["clip"] = is_private() ? nlohmann::json(clip) : nlohmann::json("none");
  if (clipping == models::ClippingMode::kAutomatic) {
    j["clip"] = 1.0;  // the sensitivity
    j["clipping"] = models::to_string(clipping);
    j["clip_stability"] = clip_stability;
  }
  j["noise_multiplier"] = is_private() ? noise_multiplier : 0.0;
  j["lot_size"] = lot_size;
  j["steps"] = steps;
  if (optimizer == "dpmomentum" || optimizer == "momentum") j["momentum"] = momentum;
  if (optimizer == "dpadam" || optimizer == "adam" || optimizer == "dpadamwosm" ||
      optimizer == "dpadam-bc")
    j["beta1"] = beta1;
  if (optimizer == "dpadam" || optimizer == "adam" || optimizer == "dpadam-bc") j["beta2"] = beta2;
  if (optimizer == "fixed-quantile") j["target_quantile"] = target_quantile;
  j["eval_every"] = eval_every;
  j["seed"] = seed;
  return j;
}

void RunSettings::apply_data_limits(data::DatasetSource& source) const {
  source.categorical_columns = categorical;
  source.csv = csv;
  set_memory_limit_bytes(max_memory);
}

double parse_max_memory(const std::string& text, const std::string& field) {
  const auto bytes = parse_memory_size(text);
  if (!bytes) {
    throw InvalidArgument(field + " = " + text +
                          " must be a size such as 4G, 512M, 2GiB or a number of bytes (>= 1)");
  }
  return *bytes;
}

RunSettings parse_run_settings(const Settings& s) {
  auto text = [&](const char* name) { return s.text(name); };
  auto number = [&](const char* name, const std::string& value) {
    return parse_setting_number(s.field(name), value);
  };
  auto integer = [&](const char* name, const std::string& value) {
    return parse_setting_integer(s.field(name), value);
  };

  RunSettings config;
  if (auto v = text("dataset")) config.dataset = *v;
  if (auto v = text("format")) config.format = *v;
  if (auto v = text("label-column")) config.label_column = *v;
  if (auto v = text("feature-range")) {
    config.feature_range_text = *v;
    config.feature_bounds.all = data::parse_feature_range(*v, s.field("feature-range"));
  }
  if (auto v = text("feature-bounds")) {
    config.feature_bounds_file = *v;
    config.feature_bounds.by_name = data::parse_feature_bounds(
        read_setting_json_file(*v, s.field("feature-bounds")), s.field("feature-bounds"));
  }
  config.feature_bounds.field =
      s.field(config.feature_bounds.by_name.empty() ? "feature-range" : "feature-bounds");
  if (auto v = text("categorical")) config.categorical = setting_items(s.field("categorical"), *v);
  if (auto v = text("delimiter"))
    config.csv.delimiter = data::parse_delimiter(*v, s.field("delimiter"));
  if (auto v = text("na-values"))
    config.csv.na_values = data::parse_na_values(*v, s.field("na-values"));
  if (auto v = text("na-policy"))
    config.csv.na_policy = data::parse_na_policy(*v, s.field("na-policy"));
  if (auto v = text("max-memory")) config.max_memory = parse_max_memory(*v, s.field("max-memory"));
  if (auto v = text("model")) config.model = *v;
  if (auto v = text("optimizer")) config.optimizer = *v;
  if (auto v = text("out")) {
    // An empty out used to read as "not given" (audit then wrote nothing, silently).
    if (v->empty())
      throw InvalidArgument(s.field("out") + ": the folder name is empty (give a folder)");
    config.out = *v;
  }
  if (auto v = text("validation-fraction"))
    config.validation_fraction = number("validation-fraction", *v);
  if (auto v = text("hidden-units")) {
    // Range-check before narrowing: 4294967297 used to become 1.
    const std::int64_t hidden = integer("hidden-units", *v);
    if (hidden < 1 || hidden > 100000)
      throw InvalidArgument(s.field("hidden-units") + " = " + *v + " must be between 1 and 100000");
    config.hidden_units = static_cast<int>(hidden);
  }
  if (auto v = text("lr")) config.learning_rate = number("lr", *v);
  if (auto v = text("clip")) config.clip = number("clip", *v);
  if (auto v = text("clipping")) {
    try {
      config.clipping = models::parse_clipping_mode(*v);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(s.field("clipping") + ": " + e.what());
    }
  }
  if (auto v = text("clip-stability")) config.clip_stability = number("clip-stability", *v);
  if (auto v = text("noise-multiplier")) config.noise_multiplier = number("noise-multiplier", *v);
  if (auto v = text("lot-size")) config.lot_size = number("lot-size", *v);
  if (auto v = text("steps")) config.steps = integer("steps", *v);
  if (auto v = text("momentum")) config.momentum = number("momentum", *v);
  if (auto v = text("beta1")) config.beta1 = number("beta1", *v);
  if (auto v = text("beta2")) config.beta2 = number("beta2", *v);
  if (auto v = text("target-quantile")) config.target_quantile = number("target-quantile", *v);
  if (auto v = text("eval-every")) config.eval_every = integer("eval-every", *v);
  if (auto v = text("delta")) {
    config.delta = number("delta", *v);
    // 0 used to mean "the default" silently; a given delta must be a real one.
    if (!(config.delta > 0 && config.delta < 1)) {
      throw InvalidArgument(s.field("delta") + " = " + *v +
                            " must be strictly between 0 and 1 (omit it for the default 1/n)");
    }
  }
  if (auto v = text("seed")) {
    const std::int64_t seed = integer("seed", *v);
    if (seed < 0) throw InvalidArgument(s.field("seed") + " = " + *v + " must be >= 0");
    config.seed = static_cast<std::uint64_t>(seed);
  }

  // Checks that need no data; the data-dependent ones (L <= n) happen after loading. The message
  // quotes the value as given ("--steps = 18446744073709551615 must be ..."), cut if long.
  auto bad = [&](const char* name, const std::string& rule) {
    const std::optional<std::string> given = text(name);
    throw InvalidArgument(s.field(name) +
                          (given ? " = " + cut_for_message(*given) : std::string()) + " " + rule);
  };
  models::ModelKind model_kind{};
  try {
    model_kind = models::parse_model_kind(config.model);
  } catch (const Error& e) {
    throw InvalidArgument(s.field("model") + ": " + e.what());
  }
  if (model_kind == models::ModelKind::kCustom) {
    bad("model",
        "custom: a custom network is described in an experiment file "
        "(\"model\": {\"kind\": \"custom\", ...}; run it with dplab-cli tune); "
        "train takes " +
            models::model_kind_names(", ", false));
  }
  if (!is_nonprivate_name(config.optimizer)) {
    try {
      (void)optim::parse_optimizer_kind(config.optimizer);
    } catch (const Error& e) {
      throw InvalidArgument(s.field("optimizer") + ": " + e.what() +
                            " (or a non-private baseline: sgd, momentum, adam)");
    }
  }
  if (config.learning_rate && !(*config.learning_rate > 0)) bad("lr", "must be > 0");
  // One rule with tune's grids (optimizer_takes): a setting for a hyperparameter the optimizer
  // does not have is an error, not silently ignored.
  {
    const auto kind = optim::parse_optimizer_kind(optimizer_kind_name(config.optimizer));
    static const std::pair<const char*, Param> kTuned[] = {
        {"lr", Param::kLearningRate},
        {"momentum", Param::kMomentum},
        {"beta1", Param::kBeta1},
        {"beta2", Param::kBeta2},
        {"target-quantile", Param::kTargetQuantile}};
    for (const auto& [name, param] : kTuned) {
      if (text(name) && !optimizer_takes(kind, param)) {
        bad(name, std::string("is not a hyperparameter of ") + config.optimizer + " (" +
                      param_name(param) +
                      " is not in its update rule; tune's grids "
                      "follow the same rule)");
      }
    }
  }
  if (!(config.clip > 0)) bad("clip", "must be > 0");
  if (config.clipping == models::ClippingMode::kAutomatic) {
    if (text("clip"))
      bad("clip",
          "is not used with automatic clipping (each g becomes g/(||g|| + gamma): C is 1, the "
          "sensitivity)");
    if (!config.is_private()) bad("clipping", "automatic needs a private optimizer");
    if (!optim::supports_automatic_clipping(
            optim::parse_optimizer_kind(optimizer_kind_name(config.optimizer))))
      bad("clipping",
          "is not available for " + config.optimizer + ", which adapts its own flat C_t");
  } else if (text("clip-stability")) {
    bad("clip-stability", "is only used with --clipping automatic");
  }
  if (!(std::isfinite(config.clip_stability) && config.clip_stability > 0))
    bad("clip-stability", "must be > 0");
  if (config.noise_multiplier < 0) bad("noise-multiplier", "must be >= 0");
  if (config.is_private() && !(config.noise_multiplier > 0)) {
    bad("noise-multiplier",
        "must be > 0 for a private optimizer (use sgd/momentum/adam for a non-private baseline)");
  }
  if (!(config.lot_size >= 1)) bad("lot-size", "must be >= 1");
  if (config.steps < 1 || config.steps > kMaxTrainingSteps) {
    bad("steps", "must be in [1, " + std::to_string(kMaxTrainingSteps) +
                     "] (the run-size cap every command shares)");
  }
  if (config.eval_every < 1) bad("eval-every", "must be >= 1");
  if (!(config.momentum >= 0 && config.momentum < 1)) bad("momentum", "must be in [0, 1)");
  if (!(config.beta1 >= 0 && config.beta1 < 1)) bad("beta1", "must be in [0, 1)");
  if (!(config.beta2 >= 0 && config.beta2 < 1)) bad("beta2", "must be in [0, 1)");
  if (!(config.target_quantile > 0 && config.target_quantile < 1))
    bad("target-quantile", "must be in (0, 1)");
  if (!(config.validation_fraction > 0 && config.validation_fraction < 1)) {
    bad("validation-fraction", "must be strictly between 0 and 1");
  }
  if (config.hidden_units < 1) bad("hidden-units", "must be >= 1");
  if (config.delta != 0 && !(config.delta > 0 && config.delta < 1)) {
    bad("delta", "must be strictly between 0 and 1");
  }
  static const std::set<std::string> formats = {"auto", "idx", "csv", "libsvm"};
  if (!formats.count(config.format)) bad("format", "must be one of auto, idx, csv, libsvm");
  return config;
}

}  // namespace dplab::experiment
