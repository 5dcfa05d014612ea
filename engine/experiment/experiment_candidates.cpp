// Candidate expansion of an experiment (experiment_config.h): each optimizer's grid as a
// Cartesian product in odometer order (last axis fastest), or `count` seeded random draws.
#include <cmath>
#include <utility>

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "experiment/experiment_config.h"

namespace dplab::experiment {
namespace {

// Stream id for derive_seed: random-search draws (per optimizer index).
constexpr std::uint64_t kRandomSearchStream = 0x52414E44;  // "RAND"

// The field of candidate `c` that holds hyperparameter `p` (const for a const candidate): the one
// map from Param to field, read by Candidate::value and written by the expansion.
template <class C>
auto& field(C& c, Param p) {
  switch (p) {
    case Param::kLearningRate:
      return c.optimizer.learning_rate;
    case Param::kClip:
      return c.clip;
    case Param::kMomentum:
      return c.optimizer.momentum;
    case Param::kBeta1:
      return c.optimizer.beta1;
    case Param::kBeta2:
      return c.optimizer.beta2;
    case Param::kEpsilon:
      return c.optimizer.epsilon;
    case Param::kTargetQuantile:
      return c.optimizer.target_quantile;
  }
  return c.clip;  // not reached: every Param is listed
}

void set_value(Candidate& c, Param p, double x) {
  field(c, p) = x;
}

double draw(const ParamSpec& spec, Rng& rng) {
  switch (spec.kind) {
    case ParamSpec::Kind::kUniform:
      return spec.low + (spec.high - spec.low) * rng.uniform();
    case ParamSpec::Kind::kLogUniform:
      return std::exp(std::log(spec.low) +
                      (std::log(spec.high) - std::log(spec.low)) * rng.uniform());
    default: {
      const auto values = spec.grid_values();
      return values[rng.below(values.size())];
    }
  }
}

}  // namespace

bool draws_randomly(const ExperimentConfig& config, const OptimizerConfig& o) {
  return config.tuning.strategy == Strategy::kRandom ||
         (config.tuning.strategy == Strategy::kLt && o.count.has_value());
}

std::vector<double> ParamSpec::grid_values() const {
  switch (kind) {
    case Kind::kValues:
      return values;
    case Kind::kLog10Grid: {
      std::vector<double> out;
      for (int i = 0; i < num; ++i) {
        const double exponent = num == 1 ? low : low + (high - low) * i / (num - 1);
        out.push_back(std::pow(10.0, exponent));
      }
      return out;
    }
    default:
      throw InvalidArgument("a continuous hyperparameter range has no grid values");
  }
}

double Candidate::value(Param p) const {
  return field(*this, p);
}

std::string Candidate::label() const {
  std::string text = optim::to_string(optimizer.kind);
  if (optimizer_takes(optimizer.kind, Param::kLearningRate))
    text += " lr=" + format_number(optimizer.learning_rate);
  if (clipping == models::ClippingMode::kAutomatic) {
    text += " C=auto";
    if (clip_stability != models::kDefaultClipStability)
      text += "(gamma=" + format_number(clip_stability) + ")";
  } else {
    text += " C=" + format_number(clip);
  }
  if (optimizer.kind == optim::OptimizerKind::kFixedQuantile)
    text += " q=" + format_number(optimizer.target_quantile);
  if (optimizer.kind == optim::OptimizerKind::kDpMomentum)
    text += " m=" + format_number(optimizer.momentum);
  if (optimizer.kind == optim::OptimizerKind::kDpAdam ||
      optimizer.kind == optim::OptimizerKind::kDpAdamBc) {
    text += " b1=" + format_number(optimizer.beta1) + " b2=" + format_number(optimizer.beta2);
  }
  return text;
}

std::vector<Candidate> expand_candidates(const ExperimentConfig& config) {
  std::vector<Candidate> out;
  for (std::size_t oi = 0; oi < config.optimizers.size(); ++oi) {
    const OptimizerConfig& o = config.optimizers[oi];
    Candidate base;
    base.optimizer_index = static_cast<int>(oi);
    // Parameters the grid leaves out take each optimizer's paper default (DPAdam alpha = 1e-3,
    // section 4.2; ADADP's initial step 1e-3 as in its authors' code; ...).
    base.optimizer = optim::default_spec(o.kind);
    // Automatic clipping: C is the sensitivity, 1 (Bu et al. 2023; no clip axis, entry_takes).
    base.clipping = o.clipping;
    base.clip_stability = o.clip_stability;
    if (o.clipping == models::ClippingMode::kAutomatic) base.clip = 1.0;
    int made = 0;
    if (draws_randomly(config, o)) {
      Rng rng(derive_seed(config.seed, kRandomSearchStream, oi));
      for (int k = 0; k < *o.count; ++k) {
        Candidate c = base;
        for (int p = 0; p < kNumParams; ++p) {
          if (o.grid[p]) set_value(c, static_cast<Param>(p), draw(*o.grid[p], rng));
        }
        c.index_in_optimizer = made++;
        c.index = static_cast<int>(out.size());
        out.push_back(c);
      }
      continue;
    }
    std::vector<std::pair<Param, std::vector<double>>> axes;
    for (int p = 0; p < kNumParams; ++p) {
      if (o.grid[p]) axes.emplace_back(static_cast<Param>(p), o.grid[p]->grid_values());
    }
    std::vector<std::size_t> digit(axes.size(), 0);
    bool done = false;
    while (!done) {
      Candidate c = base;
      for (std::size_t a = 0; a < axes.size(); ++a)
        set_value(c, axes[a].first, axes[a].second[digit[a]]);
      c.index_in_optimizer = made++;
      c.index = static_cast<int>(out.size());
      out.push_back(c);
      // Odometer increment, last axis fastest; done when every axis wrapped around.
      done = true;
      for (std::size_t a = axes.size(); a-- > 0;) {
        if (++digit[a] < axes[a].second.size()) {
          done = false;
          break;
        }
        digit[a] = 0;
      }
    }
  }
  return out;
}

std::vector<int> candidates_of(const std::vector<Candidate>& candidates, int optimizer_index) {
  std::vector<int> out;
  for (const auto& c : candidates) {
    if (c.optimizer_index == optimizer_index) out.push_back(c.index);
  }
  return out;
}

}  // namespace dplab::experiment
