// The live clipping threshold of the adaptive optimizers, per candidate, for the GUI's C_t chart
// beside the accuracy curves (issue #15: people want to *see* the threshold adapt).
// OSO-DPSGD (Galli et al. 2023, eqs. 20-21) moves C_t and its learning rate rho_t; FixedQuantile
// (Andrew et al. 2021) moves C_t toward a quantile of the per-example norms. Each curve point
// records the C its next step uses (training::CurvePoint::clip) and OSO-DPSGD's rho_t
// (CurvePoint::step_size). A candidate's curve is the GEOMETRIC mean over its repeats at each
// point (the thresholds move multiplicatively, exp(+-rho_c) per step, and are drawn on a log
// axis); a point counts the repeats that have reached it (a live run's curves grow).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tuning/results.h"

namespace dplab::tuning {

struct ClipCurve {
  int candidate = 0;
  int optimizer_index = 0;
  optim::OptimizerKind kind = optim::OptimizerKind::kOsoDpSgd;
  std::string label;  // the candidate's label, "oso-dpsgd lr=0.1 C=0.1"
  std::vector<std::int64_t> iterations;
  std::vector<double> clip;           // C_t, geometric mean over repeats
  std::vector<double> learning_rate;  // rho_t (OSO-DPSGD; NaN for FixedQuantile)
  std::vector<int> repeats;           // repeats averaged at each point
};

// Whether an optimizer adapts its clipping threshold during a run.
bool adapts_clip(optim::OptimizerKind kind);

// One curve per candidate of an adaptive optimizer that has points, in candidate order; points
// with a non-finite or non-positive C (runs stored before C_t was recorded) are left out.
std::vector<ClipCurve> adaptive_clip_curves(const SearchResults& results);

}  // namespace dplab::tuning
