// The OSO protocol's preset, rules, grids and plan (oso_protocol.h): what a preset, dplab-cli's
// flags and the GUI check before anything trains, apart from running the protocol
// (oso_protocol.cpp), so that the preset reader is fuzzed without the training code.
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "core/limits.h"
#include "tuning/oso_protocol.h"

namespace dplab::tuning {
namespace {

using nlohmann::json;

// Runs a name lookup (model, optimizer) and reports its error under the key path.
template <class F>
void named(const std::string& path, F lookup) {
  try {
    lookup();
  } catch (const Error& e) {
    json_fail(path, e.what());
  }
}

// The preset's keys into `c` (a missing key keeps its default); the rules are
// invalid_oso_field's. Throws ParseError "<key>: <what>".
void read_preset(const json& j, OsoProtocolConfig& c) {
  // Counts held in an int: read whole (never truncated), their rules checked afterwards.
  constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
  JsonReader r(j, "");
  r.optional_choice("protocol", {"oso"}, "protocol");
  c.name = r.string_or("name", c.name);
  c.dataset = r.string_or("dataset", c.dataset);
  c.validation_fraction = r.number_or("validation_fraction", c.validation_fraction);
  if (auto n = r.optional_integer("train_subset")) c.train_subset = *n;
  if (auto n = r.optional_integer("validation_subset")) c.validation_subset = *n;
  if (auto model = r.optional_string("model"))
    named(r.key_path("model"), [&] { c.model = models::parse_model_kind(*model); });
  if (auto epsilons = r.optional_numbers("epsilons")) c.epsilons = *epsilons;
  c.delta = r.number_or("delta", c.delta);
  if (auto ks = r.optional_integers("granularities", 0, kIntMax))
    c.granularities.assign(ks->begin(), ks->end());
  if (auto names = r.optional_strings("strategies")) {
    c.strategies.clear();
    for (std::size_t i = 0; i < names->size(); ++i) {
      named(r.element_path("strategies", i),
            [&] { c.strategies.push_back(optim::parse_optimizer_kind((*names)[i])); });
    }
  }
  c.lot_size = r.number_or("lot_size", c.lot_size);
  if (auto steps = r.optional_integer("steps")) c.steps = *steps;
  if (auto seeds = r.optional_integer("seeds", 0, kIntMax)) c.seeds = static_cast<int>(*seeds);
  if (auto every = r.optional_integer("eval_every")) c.eval_every = *every;
  if (auto range = r.optional_low_high("clip_range")) std::tie(c.clip_low, c.clip_high) = *range;
  if (auto range = r.optional_low_high("learning_rate_log10"))
    std::tie(c.learning_rate_log10_low, c.learning_rate_log10_high) = *range;
  if (auto quantiles = r.optional_numbers("target_quantiles")) c.target_quantiles = *quantiles;
  c.initial_clip = r.number_or("initial_clip", c.initial_clip);
  if (auto seed = r.optional_seed("seed")) c.seed = *seed;
  r.reject_unknown();
}

std::vector<double> log_grid(double low_log10, double high_log10, int k) {
  std::vector<double> values;
  for (int i = 0; i < k; ++i) {
    const double exponent = k == 1 ? low_log10 : low_log10 + (high_log10 - low_log10) * i / (k - 1);
    values.push_back(std::pow(10.0, exponent));
  }
  return values;
}

}  // namespace

std::vector<OsoGridPoint> oso_grid(const OsoProtocolConfig& c, optim::OptimizerKind kind, int k) {
  const auto rates = log_grid(c.learning_rate_log10_low, c.learning_rate_log10_high, k);
  const auto clips = log_grid(std::log10(c.clip_low), std::log10(c.clip_high), k);
  std::vector<OsoGridPoint> grid;
  switch (kind) {
    case optim::OptimizerKind::kOsoDpSgd:
      for (double r : rates) grid.push_back({r, c.initial_clip, 0});
      break;
    case optim::OptimizerKind::kFixedQuantile:
      for (double r : rates)
        for (double g : c.target_quantiles) grid.push_back({r, c.initial_clip, g});
      break;
    case optim::OptimizerKind::kDpAdamWosm:
      for (double clip : clips) grid.push_back({1e-3, clip, 0});
      break;
    default:  // FixedThreshold and the other fixed-C optimizers: rho x C
      for (double r : rates)
        for (double clip : clips) grid.push_back({r, clip, 0});
      break;
  }
  return grid;
}

std::optional<OsoFieldError> invalid_oso_field(const OsoProtocolConfig& c) {
  const auto bad = [](const char* key, std::string rule) {
    return std::optional<OsoFieldError>(OsoFieldError{key, std::move(rule)});
  };
  const auto finite = [](double x) { return std::isfinite(x); };
  if (!(c.validation_fraction > 0 && c.validation_fraction < 1))
    return bad("validation_fraction", "must be in (0, 1)");
  if (c.train_subset && *c.train_subset < 2) return bad("train_subset", "must be >= 2");
  if (c.validation_subset && *c.validation_subset < 1)
    return bad("validation_subset", "must be >= 1");
  const auto list_rule = [](std::size_t n) { return n == 0 || n > kMaxOsoListLength; };
  const std::string list_size = "needs 1 to " + std::to_string(kMaxOsoListLength) + " values";
  if (list_rule(c.epsilons.size())) return bad("epsilons", list_size);
  for (double e : c.epsilons)
    if (!(e > 0) || !finite(e)) return bad("epsilons", "must be finite and > 0");
  if (!(c.delta > 0 && c.delta < 1)) return bad("delta", "must be in (0, 1)");
  if (list_rule(c.granularities.size())) return bad("granularities", list_size);
  for (int k : c.granularities)
    if (k < 1 || k > kMaxOsoGranularity)
      return bad("granularities", "must be in [1, " + std::to_string(kMaxOsoGranularity) + "]");
  if (list_rule(c.strategies.size())) return bad("strategies", list_size);
  if (!(c.lot_size >= 1) || !finite(c.lot_size)) return bad("lot_size", "must be >= 1");
  if (c.steps < 1 || c.steps > kMaxTrainingSteps)
    return bad("steps", "must be in [1, " + std::to_string(kMaxTrainingSteps) + "]");
  if (c.seeds < 1 || c.seeds > kMaxTrainingJobs)
    return bad("seeds", "must be in [1, " + std::to_string(kMaxTrainingJobs) + "]");
  if (c.eval_every < 1) return bad("eval_every", "must be >= 1");
  if (!(c.clip_low > 0 && c.clip_high >= c.clip_low) || !finite(c.clip_high))
    return bad("clip_range", "expected 0 < low <= high");
  if (!(c.learning_rate_log10_high >= c.learning_rate_log10_low) ||
      !finite(c.learning_rate_log10_low) || !finite(c.learning_rate_log10_high))
    return bad("learning_rate_log10", "expected finite low <= high");
  if (list_rule(c.target_quantiles.size())) return bad("target_quantiles", list_size);
  for (double g : c.target_quantiles)
    if (!(g > 0 && g < 1)) return bad("target_quantiles", "must be in (0, 1)");
  if (!(c.initial_clip > 0) || !finite(c.initial_clip)) return bad("initial_clip", "must be > 0");
  // With every list capped the count cannot overflow: over <= 100 k's and <= 100 strategies,
  // K (<= max(k^2, 100 k) = 5,000) x seeds (<= 10^6) x |epsilons| (<= 100) sums to <= 5e15.
  const std::int64_t runs = plan_oso_protocol(c).total_runs;
  if (runs > kMaxTrainingJobs)
    return bad("seeds", "gives " + std::to_string(runs) +
                            " training runs (K per grid x seeds x budgets); at most " +
                            std::to_string(kMaxTrainingJobs) + " are allowed");
  return std::nullopt;
}

OsoProtocolConfig parse_oso_protocol(const std::string& json_text, const std::string& origin) {
  const json j = parse_json_text(json_text, origin);  // depth-capped, errors name line and byte
  OsoProtocolConfig c;
  try {
    read_preset(j, c);
  } catch (const ParseError& e) {
    throw InvalidArgument(origin + ": " + e.what());
  }
  if (auto bad = invalid_oso_field(c))
    throw InvalidArgument(origin + ": " + bad->key + ": " + bad->rule);
  return c;
}

OsoProtocolPlan plan_oso_protocol(const OsoProtocolConfig& config) {
  OsoProtocolPlan plan;
  for (int k : config.granularities) {
    for (auto strategy : config.strategies) {
      const int runs = static_cast<int>(oso_grid(config, strategy, k).size());
      plan.grids.push_back({k, strategy, runs});
      plan.total_runs += static_cast<std::int64_t>(runs) * config.seeds *
                         static_cast<std::int64_t>(config.epsilons.size());
    }
  }
  plan.example_gradients =
      static_cast<double>(plan.total_runs) * static_cast<double>(config.steps) * config.lot_size;
  return plan;
}

}  // namespace dplab::tuning
