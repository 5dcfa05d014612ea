// ExperimentConfig: the JSON description of an honest hyperparameter search (data, model,
// privacy mechanism, optimizers with their hyperparameter grids, tuning strategy, seed), and its
// expansion into candidates.
//
// Schema (all keys checked; an unknown key is an error so that typos cannot pass silently):
//   name, description (free text: e.g. how a preset differs from the paper), seed, repeats (1),
//   eval_every (100)
//   dataset   {source, format: auto|idx|csv|libsvm, label_column, categorical, delimiter
//              (,|;|tab|auto), na_values (["NA", "", "nan", "?"]), na_policy
//              (drop|impute-mean|fail), validation_fraction (0.2),
//              split_seed (default: seed), path (folder of a built-in such as "adult"),
//              num_samples, dim (synthetic generators), feature_range ("LO:HI" or [lo, hi]: public
//              bounds for every feature) and feature_bounds ({"name": [lo, hi]}: per feature);
//              either makes scaling data-independent (data/feature_scaling.h); without them CSV,
//              LIBSVM and Adult are min-max scaled on the data, labelled "not covered"}
//   model     {kind: models::model_kind_names (linear|...|custom), hidden_units (100)}
//             custom: the network inline {input, loss, layers, name, norms} or {file: path}
//             (models/network_description.h); errors name model.layers[i].<field>
//   privacy   {noise_multiplier sigma, lot_size L, steps T, delta (default 1/n rounded down to a
//              power of ten, main paper appendix A), sampling_rate q (default L/n; set, L is only
//              the public constant the noisy sum is divided by: the private-subsampled phases)}
//   optimizers[] {name: dpsgd|dpmomentum|dpadam|adadp|dpadamwosm|oso-dpsgd|fixed-quantile|
//                 dpadam-bc|objpert (objpert: objective perturbation, its own schema in
//                 objpert_entry.h), grid: {param: spec}, count,
//                 clipping: flat|automatic (flat), clip_stability (automatic only; 0.01)}
//                 (oso-dpsgd / fixed-quantile: clip is C_0, clipping flat only; fixed-quantile
//                 also has target_quantile, gamma in (0, 1); dpadam-bc: epsilon is the floor
//                 gamma' of max(v^ - Phi, gamma')). clipping "automatic" (Bu et al. 2023,
//                 models/clipping.h): g_i -> g_i / (||g_i|| + clip_stability), sensitivity 1, so
//                 the candidates' C is 1 and a grid over clip is refused (there is no C to search)
//              param: learning_rate, clip, momentum, beta1, beta2, epsilon
//              spec: number | [numbers] | {"log10": [lo, hi], "num": n} |
//                    {"uniform": [lo, hi]} | {"log_uniform": [lo, hi]}
//   tuning    {strategy: grid|random|lt, gamma (LT; default 1/K), delta2 (1e-20)}
//   release   {mode: explore|private, selection: ma|lt|ps, validation, ...} (release_config.h)
//   variants  {lot_normalization, adam_xi, binary_output, linear_init, pixel_range}: reproduction
//             switches (reproduction_variants.h, docs/reproduction.md); absent = dplab's defaults
//   accounting {conversion: improved|classic, lt_log_base: e|2} (accounting_config.h)
// A relative dataset.source, dataset.path or model.file in a file is read from the file's folder
// (load_experiment_file; data/path_beside.h).
// Errors name the key path, e.g. `optimizers[1].grid.learning_rate: expected a number or list,
// got "abc"`; file errors also name the file (and line/column for JSON syntax errors).
//
// Candidates: grid strategy => the Cartesian product of each optimizer's grid (paper appendix C,
// Table 3), parameters in the fixed order learning_rate, clip, momentum, beta1, beta2, epsilon
// (the last varies fastest); random strategy => `count` seeded draws per optimizer; lt => the
// grid (or `count` random draws when given) is the pool the LT algorithm samples from (appendix E).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "data/csv_reading.h"
#include "data/feature_scaling.h"
#include "experiment/accounting_config.h"
#include "experiment/objpert_entry.h"
#include "experiment/release_config.h"
#include "experiment/reproduction_variants.h"
#include "models/model.h"
#include "optim/optimizer.h"

namespace dplab::experiment {

struct DatasetConfig {
  std::string source;           // built-in catalog name or a file path
  std::string format = "auto";  // auto | idx | csv | libsvm
  std::string label_column;     // CSV: name or 0-based index; empty = last column
  // CSV: columns one-hot encoded whatever their values or number of levels (dplab-cli
  // --categorical; data/csv_loader.h refuses an ID-like text column unless it is named here).
  std::vector<std::string> categorical;
  // CSV: delimiter, missing-value markers and policy (delimiter, na_values, na_policy;
  // data/csv_reading.h).
  data::CsvReading csv;
  double validation_fraction = 0.2;
  std::optional<std::uint64_t> split_seed;  // empty => the experiment seed
  std::string path;                         // built-ins that read files ("adult"): their folder
  std::optional<std::int64_t> num_samples;  // synthetic generators: n (default 10,000)
  std::optional<std::int64_t> dim;          // synthetic generators: d (default 10)
  data::FeatureBounds feature_bounds;       // public bounds (feature_range / feature_bounds)
};

struct ModelConfig {
  models::ModelKind kind = models::ModelKind::kLogisticRegression;
  int hidden_units = 100;
  std::string network;  // kind = custom: the network description's JSON text
  models::ModelSpec spec() const { return {kind, hidden_units, network}; }
};

struct PrivacyConfig {
  double noise_multiplier = 1.0;  // sigma (noise std on the clipped sum is sigma * C)
  double lot_size = 250;          // L, expected lot size; q = L / n
  std::int64_t steps = 1000;      // T, noisy-gradient queries per run
  std::optional<double> delta;    // empty => default_delta(n)
  // empty => q = L / n. Set: the Poisson rate q in (0, 1] itself (privacy::DpSettings::
  // sampling_rate), L then only the public normaliser. tuning/subsampled_search.h sets it for the
  // private-subsampled phases: rates and L from the public L, n and q, never the realised |X1|.
  std::optional<double> sampling_rate;
};

// How one hyperparameter is searched.
struct ParamSpec {
  enum class Kind { kValues, kLog10Grid, kUniform, kLogUniform };
  Kind kind = Kind::kValues;
  std::vector<double> values;  // kValues
  double low = 0, high = 0;    // kLog10Grid: exponents; kUniform/kLogUniform: the range
  int num = 0;                 // kLog10Grid: number of points (>= 1)

  // The finite list a grid search walks (kValues, kLog10Grid); throws for continuous ranges.
  std::vector<double> grid_values() const;
  bool operator==(const ParamSpec&) const = default;
};

// The hyperparameters dplab tunes, in their canonical order.
enum class Param { kLearningRate, kClip, kMomentum, kBeta1, kBeta2, kEpsilon, kTargetQuantile };
inline constexpr int kNumParams = 7;
const char* param_name(Param p);  // "learning_rate", "clip", ...

// One hyperparameter's spec in its JSON form (number | [numbers] | {"log10": …} | …), with every
// value it can produce checked against the hyperparameter's domain (C > 0, β ∈ [0, 1), …).
// Throws ParseError naming `path`. Files and the GUI's text form (param_text.h) both use it.
ParamSpec parse_param_spec(const nlohmann::json& value, Param param, const std::string& path);
// Whether `kind` has hyperparameter `p` (main paper appendix A.1, J): the one rule behind the
// experiment grids (tune, GUI) and `train`'s flags. Every optimizer has a learning rate and C;
// for DPAdamWOSM the learning rate is the alpha of its ESS alpha / (sigma C / L + xi) (Alg. 2
// line 3 fixes 1e-3, the default). Momentum: DPMomentum; beta1: DPAdam, DPAdamWOSM, DP-AdamBC;
// beta2: DPAdam, DP-AdamBC; epsilon (xi): DPAdam, DPAdamWOSM, (gamma') DP-AdamBC; target_quantile:
// FixedQuantile.
bool optimizer_takes(optim::OptimizerKind kind, Param p);

struct OptimizerConfig {
  optim::OptimizerKind kind = optim::OptimizerKind::kDpSgd;
  // One optional spec per Param (index = static_cast<int>(Param)); unset => the default value.
  std::optional<ParamSpec> grid[kNumParams];
  std::optional<int> count;  // random draws (random strategy, or lt with a random pool)
  // Per-example clipping (models/clipping.h): automatic (Bu et al. 2023) fixes C = 1 and takes
  // gamma = clip_stability; only for optim::supports_automatic_clipping(kind).
  models::ClippingMode clipping = models::ClippingMode::kFlat;
  double clip_stability = models::kDefaultClipStability;
  bool operator==(const OptimizerConfig& other) const;
};

// optimizer_takes(o.kind, p), except that automatic clipping has no C to search: the one rule
// behind the grids a file may give, the GUI's fields and the final run of a private release.
bool entry_takes(const OptimizerConfig& o, Param p);
// The name reports give an optimizer entry: its kind ("dpsgd"), and " (auto-clip)" after it
// under automatic clipping, so that a search can hold both and tell them apart.
std::string entry_name(const OptimizerConfig& o);

enum class Strategy { kGrid, kRandom, kLt };
std::string to_string(Strategy s);

struct TuningConfig {
  Strategy strategy = Strategy::kGrid;
  std::optional<double> gamma;  // LT stopping probability; empty => 1/K
  double delta2 = 1e-20;        // LT delta_2 (main paper section 3.1)
};

struct ExperimentConfig {
  std::string name;
  std::string description;  // free text (a preset says what differs from the paper)
  DatasetConfig dataset;
  ModelConfig model;
  PrivacyConfig privacy;
  std::vector<OptimizerConfig> optimizers;
  int repeats = 1;
  std::int64_t eval_every = 100;
  TuningConfig tuning;
  std::uint64_t seed = 0;
  ReleaseConfig release;          // what the search releases (release_config.h); "release" in JSON
  ReproductionVariants variants;  // reproduction switches (reproduction_variants.h); "variants"
  // {"name": "objpert", ...} elements of "optimizers" (objpert_entry.h), in file order; their
  // candidates come after the DP-SGD candidates (tuning/objpert_search.h).
  std::vector<ObjpertEntry> objective_perturbation;
  AccountingConfig accounting;  // planning figures' conversion / LT log (accounting_config.h)
};

// One point of the search: an optimizer with concrete hyperparameters.
struct Candidate {
  int index = 0;               // global, 0..K_total-1, in expansion order
  int optimizer_index = 0;     // into ExperimentConfig::optimizers
  int index_in_optimizer = 0;  // 0..K_opt-1
  optim::OptimizerSpec optimizer;
  double clip = 1.0;  // C (automatic clipping: 1, the sensitivity)
  // The optimizer entry's clipping (OptimizerConfig::clipping, clip_stability).
  models::ClippingMode clipping = models::ClippingMode::kFlat;
  double clip_stability = models::kDefaultClipStability;
  double value(Param p) const;  // the candidate's value of a hyperparameter
  std::string label() const;    // "dpsgd lr=0.01 C=0.5"; automatic clipping: "... C=auto"
};

// JSON <-> config. parse_experiment throws ParseError naming the key path; to_json(parse(j)) is
// a fixed point of parse (round trip).
ExperimentConfig parse_experiment(const nlohmann::json& j);
nlohmann::json to_json(const ExperimentConfig& config);
// Reads and parses a file; errors name the file (and line/column for syntax errors). Its
// relative file paths (dataset.source when not a built-in name, dataset.path, model.file) are
// read from the file's folder, not the working directory; the config holds them so resolved.
ExperimentConfig load_experiment_file(const std::string& path);
// Parses JSON text; `origin` names the source in error messages.
ExperimentConfig parse_experiment_text(const std::string& text,
                                       const std::string& origin = "<text>");

// Whether optimizer `o`'s candidates are random draws under the tuning strategy (random, or LT
// with a count) rather than its grid's Cartesian product.
bool draws_randomly(const ExperimentConfig& config, const OptimizerConfig& o);
// Expands the optimizers' grids (or random draws, seeded by config.seed) into candidates.
std::vector<Candidate> expand_candidates(const ExperimentConfig& config);

// The indices of the candidates that belong to optimizer `optimizer_index`.
std::vector<int> candidates_of(const std::vector<Candidate>& candidates, int optimizer_index);

}  // namespace dplab::experiment
