// Experiment JSON reading and validation with key-path errors (experiment_config.h). Writing it
// back is experiment_config_json.cpp; expanding it into candidates is experiment_candidates.cpp.
#include "experiment/experiment_config.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "core/limits.h"
#include "core/validate.h"
#include "data/csv_reading.h"
#include "data/file_reader.h"
#include "data/path_beside.h"
#include "experiment/preset_kind.h"
#include "experiment/release_repeats.h"
#include "models/network_description.h"

namespace dplab::experiment {
namespace {

using nlohmann::json;

// Search-size caps: candidates over all optimizers, and (candidate, repeat) jobs.
constexpr std::int64_t kMaxCandidates = 1000000;
constexpr std::int64_t kMaxJobs = kMaxTrainingJobs;
constexpr std::int64_t kJobCountCeiling = std::int64_t{1} << 62;  // "more than this" in counts

// 4611686018427387904 reads badly; say "more than 10^18" once saturated.
std::string count_text(std::int64_t n) {
  return n >= kJobCountCeiling ? "more than 10^18" : std::to_string(n);
}

constexpr const char* kParamNames[kNumParams] = {
    "learning_rate", "clip", "momentum", "beta1", "beta2", "epsilon", "target_quantile"};

// Never value.dump(): a deeply nested value would overflow the stack (json_guard.h).
std::string type_name(const json& value) {
  return json_excerpt(value, 60);
}

void check(bool ok, const std::string& path, const std::string& message) {
  if (!ok) json_fail(path, message);
}

ParamSpec parse_param(const json& v, const std::string& path) {
  ParamSpec spec;
  auto finite_number = [&](const json& x, const std::string& where) {
    if (!x.is_number() || !std::isfinite(x.get<double>())) {
      json_fail(where, "expected a number, got " + type_name(x));
    }
    return x.get<double>();
  };
  if (v.is_number()) {
    spec.values = {finite_number(v, path)};
    return spec;
  }
  if (v.is_array()) {
    check(!v.empty(), path, "the list is empty");
    for (std::size_t i = 0; i < v.size(); ++i) {
      spec.values.push_back(finite_number(v[i], path + "[" + std::to_string(i) + "]"));
    }
    return spec;
  }
  if (!v.is_object()) json_fail(path, "expected a number or list, got " + type_name(v));
  JsonReader r(v, path);
  auto pair = [&](const json& x, const std::string& key) {
    const std::string where = r.key_path(key);
    if (!x.is_array() || x.size() != 2)
      json_fail(where, "expected [low, high], got " + type_name(x));
    const double lo = finite_number(x[0], where + "[0]");
    const double hi = finite_number(x[1], where + "[1]");
    check(lo <= hi, where, "low must be <= high");
    return std::pair{lo, hi};
  };
  int forms = 0;
  if (const json* x = r.find("log10")) {
    ++forms;
    spec.kind = ParamSpec::Kind::kLog10Grid;
    std::tie(spec.low, spec.high) = pair(*x, "log10");
    const auto num = r.optional_integer("num");
    if (!num) json_fail(r.key_path("num"), "missing (required with log10)");
    check(*num >= 1 && *num <= 100000, r.key_path("num"), "must be between 1 and 100000");
    check(*num > 1 || spec.low == spec.high, r.key_path("num"), "must be >= 2 when low < high");
    spec.num = static_cast<int>(*num);
  }
  if (const json* x = r.find("uniform")) {
    ++forms;
    spec.kind = ParamSpec::Kind::kUniform;
    std::tie(spec.low, spec.high) = pair(*x, "uniform");
  }
  if (const json* x = r.find("log_uniform")) {
    ++forms;
    spec.kind = ParamSpec::Kind::kLogUniform;
    std::tie(spec.low, spec.high) = pair(*x, "log_uniform");
    check(spec.low > 0, r.key_path("log_uniform"), "the range must be positive");
  }
  if (forms == 0) {
    r.find("num");
    r.reject_unknown();
    json_fail(path, "expected one of \"log10\", \"uniform\", \"log_uniform\"");
  }
  check(forms == 1, path, "give only one of \"log10\", \"uniform\", \"log_uniform\"");
  r.reject_unknown();
  return spec;
}

}  // namespace

// Which hyperparameters an optimizer has (appendix A.1, J); experiment_config.h.
bool optimizer_takes(optim::OptimizerKind kind, Param p) {
  using K = optim::OptimizerKind;
  switch (p) {
    case Param::kClip:
    case Param::kLearningRate:  // DPAdamWOSM: the alpha of its ESS (Alg. 2 line 3)
      return true;
    case Param::kMomentum:
      return kind == K::kDpMomentum;
    case Param::kBeta1:
      return kind == K::kDpAdam || kind == K::kDpAdamWosm || kind == K::kDpAdamBc;
    case Param::kBeta2:
      return kind == K::kDpAdam || kind == K::kDpAdamBc;
    case Param::kEpsilon:  // xi; DP-AdamBC: its floor gamma'
      return kind == K::kDpAdam || kind == K::kDpAdamWosm || kind == K::kDpAdamBc;
    case Param::kTargetQuantile:
      return kind == K::kFixedQuantile;
  }
  return false;
}

bool entry_takes(const OptimizerConfig& o, Param p) {
  if (p == Param::kClip && o.clipping == models::ClippingMode::kAutomatic) return false;
  return optimizer_takes(o.kind, p);
}

std::string entry_name(const OptimizerConfig& o) {
  const std::string kind = optim::to_string(o.kind);
  return o.clipping == models::ClippingMode::kAutomatic ? kind + " (auto-clip)" : kind;
}

namespace {

// Domain of each hyperparameter, checked on every value a grid or a range can produce.
void check_param_value(Param p, double x, const std::string& path) {
  switch (p) {
    case Param::kLearningRate:
    case Param::kClip:
    case Param::kEpsilon:
      check(x > 0, path, "values must be > 0, got " + format_number(x));
      break;
    case Param::kMomentum:
    case Param::kBeta1:
    case Param::kBeta2:
      check(x >= 0 && x < 1, path, "values must be in [0, 1), got " + format_number(x));
      break;
    case Param::kTargetQuantile:
      check(x > 0 && x < 1, path, "values must be in (0, 1), got " + format_number(x));
      break;
  }
}

OptimizerConfig parse_optimizer(const json& v, const std::string& path) {
  JsonReader r(v, path);
  OptimizerConfig config;
  const std::string name = r.required_string("name");
  try {
    config.kind = optim::parse_optimizer_kind(name);
  } catch (const Error&) {
    json_fail(r.key_path("name"), "unknown optimizer " + json_excerpt(json(name)) +
                                      " (expected dpsgd, dpmomentum, dpadam, adadp, dpadamwosm, "
                                      "oso-dpsgd, fixed-quantile or dpadam-bc)");
  }
  // Before the grid: automatic clipping takes the clip axis away.
  if (auto clipping = r.optional_string("clipping")) {
    try {
      config.clipping = models::parse_clipping_mode(*clipping);
    } catch (const InvalidArgument& e) {
      json_fail(r.key_path("clipping"), e.what());
    }
    if (config.clipping == models::ClippingMode::kAutomatic &&
        !optim::supports_automatic_clipping(config.kind)) {
      json_fail(r.key_path("clipping"),
                "\"automatic\" is not available for " + name +
                    ", which adapts its own flat clip C_t (use dpsgd, dpmomentum, dpadam, "
                    "dpadam-bc, adadp or dpadamwosm)");
    }
  }
  if (auto stability = r.optional_number("clip_stability")) {
    check(config.clipping == models::ClippingMode::kAutomatic, r.key_path("clip_stability"),
          "only used with \"clipping\": \"automatic\" (the gamma of g/(||g|| + gamma))");
    check(std::isfinite(*stability) && *stability > 0, r.key_path("clip_stability"),
          "must be > 0, got " + format_number(*stability));
    config.clip_stability = *stability;
  }
  if (const json* grid = r.find("grid")) {
    JsonReader g(*grid, r.key_path("grid"));
    for (int i = 0; i < kNumParams; ++i) {
      const Param p = static_cast<Param>(i);
      const json* x = g.find(kParamNames[i]);
      if (!x) continue;
      const std::string where = g.key_path(kParamNames[i]);
      if (p == Param::kClip && config.clipping == models::ClippingMode::kAutomatic) {
        json_fail(where,
                  "refused with \"clipping\": \"automatic\": each g_i becomes g_i/(||g_i|| + "
                  "gamma), of norm < 1, so C is 1 (the sensitivity) and there is no C to search; "
                  "remove the clip grid");
      }
      if (!optimizer_takes(config.kind, p)) {
        json_fail(where, std::string("not a hyperparameter of ") + name);
      }
      config.grid[i] = parse_param_spec(*x, p, where);
    }
    g.reject_unknown();
  }
  if (auto count = r.optional_integer("count")) {
    check(*count >= 1 && *count <= 1000000, r.key_path("count"), "must be between 1 and 1000000");
    config.count = static_cast<int>(*count);
  }
  r.reject_unknown();
  return config;
}

Strategy parse_strategy(const std::string& text, const std::string& path) {
  if (text == "grid") return Strategy::kGrid;
  if (text == "random") return Strategy::kRandom;
  if (text == "lt") return Strategy::kLt;
  json_fail(path, "unknown strategy \"" + text + "\" (expected grid, random or lt)");
}

void check_consistency(const ExperimentConfig& config) {
  for (std::size_t i = 0; i < config.optimizers.size(); ++i) {
    const auto& o = config.optimizers[i];
    const std::string path = "optimizers[" + std::to_string(i) + "]";
    if (config.tuning.strategy == Strategy::kRandom) {
      check(o.count.has_value(), path + ".count",
            "missing (required by tuning.strategy \"random\")");
    }
    if (config.tuning.strategy == Strategy::kGrid) {
      check(!o.count.has_value(), path + ".count",
            "only used by tuning.strategy \"random\" or \"lt\"");
    }
    if (!draws_randomly(config, o)) {
      for (int p = 0; p < kNumParams; ++p) {
        const auto& spec = o.grid[p];
        if (spec && (spec->kind == ParamSpec::Kind::kUniform ||
                     spec->kind == ParamSpec::Kind::kLogUniform)) {
          json_fail(
              path + ".grid." + kParamNames[p],
              "a continuous range needs random draws (tuning.strategy \"random\", or a count)");
        }
      }
    }
  }
}

// a * b, saturating at kJobCountCeiling (never overflows: 2^64 -> 0 was a real bug).
std::int64_t saturating_product(std::int64_t a, std::int64_t b) {
  if (a == 0 || b == 0) return 0;
  if (a > kJobCountCeiling / b) return kJobCountCeiling;
  return std::min(a * b, kJobCountCeiling);
}

// Candidates of one optimizer: its grid's Cartesian product, or `count` draws. Saturates.
std::int64_t optimizer_candidates(const ExperimentConfig& config, const OptimizerConfig& o) {
  if (draws_randomly(config, o)) return o.count.value_or(0);
  std::int64_t size = 1;
  for (const auto& spec : o.grid) {
    if (!spec) continue;
    const std::int64_t axis = spec->kind == ParamSpec::Kind::kLog10Grid
                                  ? spec->num
                                  : static_cast<std::int64_t>(spec->values.size());
    size = saturating_product(size, axis);
  }
  return size;
}

}  // namespace

ParamSpec parse_param_spec(const nlohmann::json& value, Param param, const std::string& path) {
  ParamSpec spec = parse_param(value, path);
  if (spec.kind == ParamSpec::Kind::kUniform || spec.kind == ParamSpec::Kind::kLogUniform) {
    check_param_value(param, spec.low, path);
    check_param_value(param, spec.high, path);
  } else {
    for (double x : spec.grid_values()) check_param_value(param, x, path);
  }
  return spec;
}

const char* param_name(Param p) {
  return kParamNames[static_cast<int>(p)];
}

std::string to_string(Strategy s) {
  switch (s) {
    case Strategy::kGrid:
      return "grid";
    case Strategy::kRandom:
      return "random";
    case Strategy::kLt:
      return "lt";
  }
  return "?";
}

bool OptimizerConfig::operator==(const OptimizerConfig& other) const {
  if (kind != other.kind || count != other.count || clipping != other.clipping) return false;
  if (clipping == models::ClippingMode::kAutomatic && clip_stability != other.clip_stability)
    return false;
  for (int i = 0; i < kNumParams; ++i) {
    if (grid[i] != other.grid[i]) return false;
  }
  return true;
}

namespace {

// A custom network (model.kind = "custom"): the description's keys inline in the model object
// (name, input, loss, layers, norms; network_description.h), or "file": a JSON file holding the
// description (a relative path is read from the experiment file's folder, load_experiment_file).
// Returns the description's JSON text after checking it; errors name "model.layers[i].<field>" (or
// the file).
std::string custom_network_json(JsonReader& m) {
  static const char* const kInlineKeys[] = {"name", "input", "loss", "layers", "norms"};
  json description = json::object();
  if (const json* file = m.find("file")) {
    if (!file->is_string()) json_fail("model.file", "expected a path, got " + type_name(*file));
    for (const char* key : kInlineKeys) {
      if (m.find(key))
        json_fail(m.key_path(key), "give the network inline or in \"file\", not both");
    }
    const std::string path = file->get<std::string>();
    std::string text;
    try {
      text = data::read_file_text(path, data::kJsonFile);  // the one reader of user files
    } catch (const Error& e) {
      json_fail("model.file", "cannot read the network description: " + std::string(e.what()));
    }
    try {
      description = parse_json_text(text, path);
    } catch (const Error& e) {
      json_fail("model.file", e.what());
    }
    try {
      (void)models::parse_network_description(description.dump(), path + ": ");
    } catch (const InvalidArgument& e) {
      throw ParseError(std::string("model.file: ") + e.what());
    }
    return description.dump();
  }
  for (const char* key : kInlineKeys) {
    if (const json* v = m.find(key)) description[key] = *v;
  }
  if (!description.contains("layers")) {
    json_fail("model.layers", "missing (a custom network needs \"layers\", or \"file\")");
  }
  try {
    (void)models::parse_network_description(description.dump(), "model.");
  } catch (const InvalidArgument& e) {
    throw ParseError(e.what());
  }
  return description.dump();
}

}  // namespace

ExperimentConfig parse_experiment(const json& j) {
  JsonReader r(j, "");
  ExperimentConfig config;
  config.name = r.string_or("name", "experiment");
  config.description = r.string_or("description", "");
  if (auto seed = r.optional_seed("seed")) config.seed = *seed;
  if (auto repeats = r.optional_integer("repeats")) {
    check(*repeats >= 1 && *repeats <= 1000, "repeats", "must be between 1 and 1000");
    config.repeats = static_cast<int>(*repeats);
  }
  if (auto every = r.optional_integer("eval_every")) {
    check(*every >= 1, "eval_every", "must be >= 1");
    config.eval_every = *every;
  }

  {
    JsonReader d(r.require("dataset"), "dataset");
    config.dataset.source = d.required_string("source");
    check(!config.dataset.source.empty(), "dataset.source", "must not be empty");
    config.dataset.format = d.string_or("format", "auto");
    static const std::set<std::string> formats{"auto", "idx", "csv", "libsvm"};
    check(formats.count(config.dataset.format) > 0, "dataset.format",
          "unknown format \"" + config.dataset.format + "\" (expected auto, idx, csv or libsvm)");
    if (const json* label = d.find("label_column")) {
      if (label->is_string())
        config.dataset.label_column = label->get<std::string>();
      else if (label->is_number_unsigned())
        config.dataset.label_column = std::to_string(label->get<std::uint64_t>());
      else
        json_fail("dataset.label_column",
                  "expected a column name or index, got " + type_name(*label));
    }
    if (const json* columns = d.find("categorical")) {
      if (!columns->is_array())
        json_fail("dataset.categorical",
                  "expected an array of column names, got " + type_name(*columns));
      for (std::size_t i = 0; i < columns->size(); ++i) {
        const json& column = (*columns)[i];
        const std::string field = "dataset.categorical[" + std::to_string(i) + "]";
        if (!column.is_string())
          json_fail(field, "expected a column name, got " + type_name(column));
        check(!column.get<std::string>().empty(), field, "must not be empty");
        config.dataset.categorical.push_back(column.get<std::string>());
      }
    }
    try {
      if (auto policy = d.optional_string("na_policy"))
        config.dataset.csv.na_policy = data::parse_na_policy(*policy, "dataset.na_policy");
      if (auto delimiter = d.optional_string("delimiter"))
        config.dataset.csv.delimiter = data::parse_delimiter(*delimiter, "dataset.delimiter");
      if (const json* markers = d.find("na_values")) {
        if (!markers->is_array())
          json_fail("dataset.na_values",
                    "expected an array of markers (strings), got " + type_name(*markers));
        config.dataset.csv.na_values.clear();
        for (std::size_t i = 0; i < markers->size(); ++i) {
          const json& marker = (*markers)[i];
          if (!marker.is_string())
            json_fail("dataset.na_values[" + std::to_string(i) + "]",
                      "expected a marker (a string), got " + type_name(marker));
          config.dataset.csv.na_values.push_back(marker.get<std::string>());
        }
        data::check_na_values(config.dataset.csv.na_values, "dataset.na_values");
      }
    } catch (const InvalidArgument& e) {
      throw ParseError(e.what());  // the message names the key (dataset.na_...)
    }
    config.dataset.validation_fraction = d.number_or("validation_fraction", 0.2);
    check(config.dataset.validation_fraction > 0 && config.dataset.validation_fraction < 1,
          "dataset.validation_fraction",
          "must be strictly between 0 and 1, got " +
              format_number(config.dataset.validation_fraction));
    config.dataset.split_seed = d.optional_seed("split_seed");
    config.dataset.path = d.string_or("path", "");
    config.dataset.num_samples = d.optional_integer("num_samples");
    if (config.dataset.num_samples) {
      check(*config.dataset.num_samples >= 2, "dataset.num_samples", "must be >= 2");
    }
    config.dataset.dim = d.optional_integer("dim");
    if (config.dataset.dim) check(*config.dataset.dim >= 1, "dataset.dim", "must be >= 1");
    config.dataset.feature_bounds.field = "dataset.feature_bounds";
    try {
      if (const json* range = d.find("feature_range")) {
        if (range->is_string()) {
          config.dataset.feature_bounds.all =
              data::parse_feature_range(range->get<std::string>(), "dataset.feature_range");
        } else if (range->is_array() && range->size() == 2 && (*range)[0].is_number() &&
                   (*range)[1].is_number()) {
          config.dataset.feature_bounds.all = {(*range)[0].get<double>(),
                                               (*range)[1].get<double>()};
          data::validate_feature_interval("dataset.feature_range",
                                          *config.dataset.feature_bounds.all);
        } else {
          json_fail("dataset.feature_range",
                    "expected \"LO:HI\" or [low, high] (two numbers), got " + type_name(*range));
        }
      }
      if (const json* bounds = d.find("feature_bounds")) {
        config.dataset.feature_bounds.by_name =
            data::parse_feature_bounds(*bounds, "dataset.feature_bounds");
      }
    } catch (const InvalidArgument& e) {
      throw ParseError(e.what());  // the message names the key (dataset.feature_...)
    }
    d.reject_unknown();
  }
  {
    JsonReader m(r.require("model"), "model");
    const std::string kind = m.required_string("kind");
    try {
      config.model.kind = models::parse_model_kind(kind);
    } catch (const Error&) {
      json_fail("model.kind", "unknown model " + json_excerpt(json(kind)) + " (expected " +
                                  models::model_kind_names(", ") + ")");
    }
    if (auto hidden = m.optional_integer("hidden_units")) {
      check(*hidden >= 1 && *hidden <= 100000, "model.hidden_units",
            "must be between 1 and 100000");
      config.model.hidden_units = static_cast<int>(*hidden);
    }
    if (config.model.kind == models::ModelKind::kCustom) {
      config.model.network = custom_network_json(m);  // reads (and so accepts) its keys
    }
    m.reject_unknown();
  }
  {
    JsonReader p(r.require("privacy"), "privacy");
    config.privacy.noise_multiplier = p.required_number("noise_multiplier");
    check(config.privacy.noise_multiplier > 0, "privacy.noise_multiplier",
          "must be > 0, got " + format_number(config.privacy.noise_multiplier));
    config.privacy.lot_size = p.required_number("lot_size");
    check(config.privacy.lot_size >= 1, "privacy.lot_size",
          "must be >= 1, got " + format_number(config.privacy.lot_size));
    const auto steps = p.optional_integer("steps");
    if (!steps) json_fail("privacy.steps", "missing (required)");
    check(*steps >= 1 && *steps <= kMaxTrainingSteps, "privacy.steps",
          "must be in [1, " + std::to_string(kMaxTrainingSteps) +
              "] (the run-size cap every command shares), got " + std::to_string(*steps));
    config.privacy.steps = *steps;
    config.privacy.delta = p.optional_number("delta");
    if (config.privacy.delta) {
      check(*config.privacy.delta > 0 && *config.privacy.delta < 1, "privacy.delta",
            "must be strictly between 0 and 1, got " + format_number(*config.privacy.delta));
    }
    config.privacy.sampling_rate = p.optional_number("sampling_rate");
    if (config.privacy.sampling_rate) {
      check(*config.privacy.sampling_rate > 0 && *config.privacy.sampling_rate <= 1,
            "privacy.sampling_rate",
            "must be in (0, 1], got " + format_number(*config.privacy.sampling_rate));
    }
    p.reject_unknown();
  }
  {
    const json& list = r.require("optimizers");
    if (!list.is_array()) json_fail("optimizers", "expected a list, got " + type_name(list));
    check(!list.empty(), "optimizers", "the list is empty");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = "optimizers[" + std::to_string(i) + "]";
      if (is_objpert_entry(list[i])) {  // objective perturbation (objpert_entry.h)
        config.objective_perturbation.push_back(parse_objpert_entry(list[i], path));
        continue;
      }
      config.optimizers.push_back(parse_optimizer(list[i], path));
    }
    check(!config.optimizers.empty(), "optimizers",
          "needs at least one DP-SGD optimizer (objpert entries are searched next to them; "
          "`dplab-cli objpert` runs objective perturbation alone)");
  }
  if (const json* t = r.find("tuning")) {
    JsonReader tr(*t, "tuning");
    config.tuning.strategy = parse_strategy(tr.string_or("strategy", "grid"), "tuning.strategy");
    config.tuning.gamma = tr.optional_number("gamma");
    if (config.tuning.gamma) {
      check(*config.tuning.gamma > 0 && *config.tuning.gamma <= 1, "tuning.gamma",
            "must be in (0, 1], got " + format_number(*config.tuning.gamma));
    }
    config.tuning.delta2 = tr.number_or("delta2", 1e-20);
    check(config.tuning.delta2 > 0 && config.tuning.delta2 < 1, "tuning.delta2",
          "must be strictly between 0 and 1, got " + format_number(config.tuning.delta2));
    tr.reject_unknown();
  }
  if (const json* rel = r.find("release")) config.release = parse_release(*rel);
  if (const json* var = r.find("variants")) config.variants = parse_variants(*var);
  if (config.model.kind != models::ModelKind::kLogisticRegression) {
    check(config.variants.binary_output == models::BinaryOutput::kSigmoid &&
              config.variants.linear_init == models::LinearInit::kZeros,
          "variants", "binary_output and linear_init apply to model.kind \"logistic\" only");
  }
  check(!(config.variants.divide_by_realized_lot && config.release.mode == ReleaseMode::kPrivate),
        "variants.lot_normalization",
        "\"realized\" is not covered by the accountant, so it is refused in release mode "
        "\"private\" (use it in explore mode, for the reproduction study)");
  check_release_repeats(config.release, config.repeats, "repeats");
  if (const json* acc = r.find("accounting")) config.accounting = parse_accounting(*acc);
  r.reject_unknown();
  check_consistency(config);
  // Caps on the search size, counted without overflow (saturating at kJobCountCeiling).
  std::int64_t total_candidates = 0;
  for (std::size_t i = 0; i < config.optimizers.size(); ++i) {
    const std::int64_t k = optimizer_candidates(config, config.optimizers[i]);
    if (!draws_randomly(config, config.optimizers[i])) {
      check(k <= kMaxCandidates, "optimizers[" + std::to_string(i) + "].grid",
            "the grid has " + count_text(k) + " candidates; at most " + count_text(kMaxCandidates) +
                " are allowed");
    }
    total_candidates = std::min(total_candidates + k, kJobCountCeiling);
  }
  check(total_candidates <= kMaxCandidates, "optimizers",
        count_text(total_candidates) + " candidates over all optimizers; at most " +
            count_text(kMaxCandidates) + " are allowed");
  const std::int64_t jobs = saturating_product(total_candidates, config.repeats);
  check(jobs <= kMaxJobs, "repeats",
        count_text(total_candidates) + " candidates x " + std::to_string(config.repeats) +
            " repeats = " + count_text(jobs) + " training jobs; at most " + count_text(kMaxJobs) +
            " are allowed (fewer grid points or repeats)");
  return config;
}

namespace {

// The file paths an experiment file names (dataset.source unless a built-in name, dataset.path,
// model.file), resolved against the file's folder (data/path_beside.h). Values that are not
// strings are left for parse_experiment to refuse.
void resolve_paths_beside(json& j, const std::string& file) {
  if (!j.is_object()) return;
  auto resolve = [&](const char* section, const char* key, bool source) {
    const auto s = j.find(section);
    if (s == j.end() || !s->is_object()) return;
    const auto v = s->find(key);
    if (v == s->end() || !v->is_string()) return;
    const std::string text = v->get<std::string>();
    *v = source ? data::source_beside(file, text) : data::path_beside(file, text);
  };
  resolve("dataset", "source", true);
  resolve("dataset", "path", false);
  resolve("model", "file", false);
}

// parse_experiment_text's work; `file` (when not empty) is the file the text came from, the
// folder its relative paths are read from.
ExperimentConfig parse_experiment_json_text(const std::string& text, const std::string& origin,
                                            const std::string& file) {
  // Depth-capped parse; errors name line, column and key path (json_guard.h).
  json j = parse_json_text(text, origin);
  // A comparison or protocol preset given as an experiment: name the command that runs it,
  // rather than the first key the experiment schema does not know.
  if (const auto hint = other_preset_hint(preset_kind(j), origin))
    throw ParseError(origin + ": " + *hint);
  if (!file.empty()) resolve_paths_beside(j, file);
  try {
    return parse_experiment(j);
  } catch (const ParseError& e) {
    throw ParseError(origin + ": " + e.what());
  }
}

}  // namespace

ExperimentConfig parse_experiment_text(const std::string& text, const std::string& origin) {
  return parse_experiment_json_text(text, origin, "");
}

ExperimentConfig load_experiment_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw IoError(path + ": is a directory, not an experiment file");
  std::string text;
  try {
    // The one reader: regular files only (a FIFO or /dev/zero would be read for ever),
    // size-capped, UTF-8, within the memory budget.
    text = data::read_file_text(path, data::kJsonFile);
  } catch (const IoError& e) {
    throw IoError(std::string(e.what()) + " (the experiment file)");
  }
  return parse_experiment_json_text(text, path, path);
}

}  // namespace dplab::experiment
