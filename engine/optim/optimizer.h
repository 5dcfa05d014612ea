// Optimizer: updates a model's flat parameter vector from noisy gradients (main paper appendix
// A.1, J). An optimizer asks the NoisyGradientOracle for gradients, so adaptive schemes that
// query twice per step (ADADP) pay for both queries in the accountant.
//
// One configured optimizer runs one job; reset() prepares its state for num_params parameters.
#pragma once

#include <limits>
#include <memory>
#include <string>

#include "core/types.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/model.h"

namespace dplab::optim {

enum class OptimizerKind {
  kDpSgd,          // theta -= alpha * g
  kDpMomentum,     // heavy ball: v = m v + g; theta -= alpha v
  kDpAdam,         // Kingma & Ba 2014 on noisy gradients
  kAdaDp,          // Koskela & Honkela 2020, step-size adaptation by extrapolation error
  kDpAdamWosm,     // main paper Alg. 2: Adam without second moment, step = ESS
  kOsoDpSgd,       // Galli et al. 2023 Alg. 1: C_t and rho_t adapted online (oso_dpsgd.h)
  kFixedQuantile,  // Andrew et al. 2021: C_t tracks a target quantile of the norms
                   // (fixed_quantile.h)
  kDpAdamBc,       // Tang et al. 2024: Adam with the DP noise variance removed from v^_t
                   // (dp_adam_bc.h)
};

struct OptimizerSpec {
  OptimizerKind kind = OptimizerKind::kDpSgd;
  double learning_rate = 0.01;  // alpha (ADADP: initial step size eta_0; DPAdamWOSM: the alpha in
                                // ESS = alpha / (sigma C / L + xi), the paper fixes 1e-3 — see
                                // default_spec(), which gives each kind its paper default)
  double momentum = 0.9;        // m, DPMomentum
  double beta1 = 0.9;           // DPAdam, DPAdamWOSM, DP-AdamBC
  double beta2 = 0.999;         // DPAdam, DP-AdamBC
  double epsilon = 1e-8;        // xi, DPAdam / DPAdamWOSM denominators; DP-AdamBC: the floor
                                // gamma' of max(v^_t - Phi, gamma') under its square root
  // Reproduction variant (docs/reproduction.md), never the default: DPAdam's denominator
  // sqrt(v^ + xi) as the main paper's section 6.1 writes it, instead of Kingma & Ba's (and the
  // paper's code's) sqrt(v^) + xi.
  bool adam_xi_inside_sqrt = false;
  double adadp_tolerance = 0;  // tau; 0 = default sqrt(d / (2T))
  // OSO-DPSGD (Galli et al. 2023): rho_c, rho_r of eqs. 20-21 and nu_q / nu (0 = the 1% rule).
  double clip_adaptation_rate = 2.5e-3;
  double learning_rate_adaptation_rate = 2.5e-3;
  double direction_noise_ratio = 0;
  // FixedQuantile (Andrew et al. 2021): gamma, eta_C, sigma_b (0 = L / 20).
  double target_quantile = 0.5;
  double quantile_learning_rate = 0.2;
  double count_noise_std = 0;
};

// What an optimizer may need to know about the run it is part of.
struct RunShape {
  Index num_params = 0;            // d
  std::int64_t total_queries = 0;  // T, noisy-gradient queries in the run
  privacy::DpSettings dp;          // sigma, C, L (DPAdamWOSM's ESS, DP-AdamBC's Phi use them)
};

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  virtual std::string name() const = 0;
  // Takes one update; returns the mean training loss of the (first) lot it sampled.
  virtual double step(models::Model& model, privacy::NoisyGradientOracle& oracle) = 0;
  // Noisy-gradient queries one step makes; the accountant counts queries.
  virtual int queries_per_step() const { return 1; }
  // A representative current step size (mean over coordinates of the per-coordinate step for
  // adaptive methods; alpha for SGD), for the paper's Theorem 3 chart. NaN before the first step.
  virtual double effective_step_size() const = 0;
  // The clipping threshold the next step uses, for adaptive clipping (OSO-DPSGD C_t,
  // FixedQuantile); NaN for optimizers that use the run's fixed C.
  virtual double clip_threshold() const { return std::numeric_limits<double>::quiet_NaN(); }
};

// Builds the optimizer for spec.kind with its state sized for shape.num_params; validates the
// spec (throws InvalidArgument naming the field).
std::unique_ptr<Optimizer> make_optimizer(const OptimizerSpec& spec, const RunShape& shape);

// A spec with the papers' defaults for `kind`: DPSGD/DPMomentum alpha = 0.01, m = 0.9;
// DPAdam alpha = 1e-3, beta1 = 0.9, beta2 = 0.999, xi = 1e-8 (Kingma & Ba); DPAdamWOSM alpha =
// 1e-3 (main paper Alg. 2 line 3); ADADP eta_0 = 1e-3 (Koskela & Honkela's code), tau default;
// DP-AdamBC alpha = 1e-3, beta1 = 0.9, beta2 = 0.999, gamma' = 1e-8 (its authors' code).
OptimizerSpec default_spec(OptimizerKind kind);

// All kinds, in the order of the enum (for menus and round-trip tests).
inline constexpr OptimizerKind kAllOptimizerKinds[] = {
    OptimizerKind::kDpSgd,         OptimizerKind::kDpMomentum, OptimizerKind::kDpAdam,
    OptimizerKind::kAdaDp,         OptimizerKind::kDpAdamWosm, OptimizerKind::kOsoDpSgd,
    OptimizerKind::kFixedQuantile, OptimizerKind::kDpAdamBc};

// Whether `kind` queries at the run's one C (NoisyGradientOracle::query), so that automatic
// clipping (models/clipping.h, Bu et al. 2023) can replace its flat clipping: every kind but the
// adaptive-clipping ones (OSO-DPSGD, FixedQuantile), which move C_t themselves.
bool supports_automatic_clipping(OptimizerKind kind);

// "dpsgd" | "dpmomentum" | "dpadam" | "adadp" | "dpadamwosm" | "oso-dpsgd" | "fixed-quantile" |
// "dpadam-bc"; the CLI maps the non-private baselines "sgd", "momentum", "adam" to the same kinds
// with sigma = 0 and no clipping.
OptimizerKind parse_optimizer_kind(const std::string& text);
std::string to_string(OptimizerKind kind);

}  // namespace dplab::optim
