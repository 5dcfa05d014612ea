// Guards against silent failure of a training run (issue #45): what Opacus users lose days to —
// a sampling rate off by orders of magnitude, or an update that changes nothing — turned into a
// warning in TrainingResult::warnings (the CLI prints it as "warning: ...", the runner copies it
// into JobResult::warnings). Both checks read what the trainer has anyway: one addition per step
// for the lot sizes, one copy of the initial parameters per run and one pass over them at the
// end; nothing per step beyond that, no allocation per step.
#pragma once

#include <cstdint>
#include <string>

#include "core/types.h"

namespace dplab::training {

// Lot sizes: Poisson sampling at rate q of n examples gives |lot| ~ Binomial(n, q), independent
// across lots, so over T lots S = sum |lot_t| has mean T q n and variance V = T n q (1 - q).
// Bernstein's inequality for the n T independent Bernoulli terms (each within 1 of its mean),
//   P(|S - T q n| >= t) <= 2 exp(-(t^2 / 2) / (V + t / 3)),
// is <= 2 e^-18 ~= 3.0e-8 at t = 6 (1 + sqrt(1 + V)) (the root of t^2 - 12 t - 36 V = 0), for
// every n, q and T: so the warning fires when the mean realised lot leaves
//   q n +- 6 (1 + sqrt(1 + T n q (1 - q))) / T   (~ q n +- 6 sqrt(q (1 - q) n / T) for large V),
// with a false-alarm rate below 3.0e-8 per run of a correct sampler. Whatever the data, it
// fires with probability < 3.0e-8 unless the sampler is broken, so a neighbouring data set
// changes the chance that it is printed by less than that (a delta-sized event, negligible
// beside the run's delta); the realised sizes are printed only when it fires.
// Returns "" (no drift), or the warning.
std::string lot_size_drift_warning(std::int64_t lots, double lot_rows, double population,
                                   double sampling_rate);

// Frozen parameters: every coordinate's total change over the run below float resolution,
//   |theta_T,j - theta_0,j| <= eps_float max(|theta_0,j|, |theta_T,j|, 1)   for every j,
// eps_float = 2^-23 (FLT_EPSILON). The 1 is the unit scale of dplab's inputs (features in
// [0, 1] or standardised): without it a zero-initialised linear model that moved by 1e-30 would
// count as trained. Causes: a learning rate far too small, every gradient clipped to ~0 (a tiny
// C also makes the noise tiny), or a step that underflows. Returns "" or the warning.
std::string frozen_parameters_warning(VectorView initial, VectorView final_params,
                                      std::int64_t queries);

}  // namespace dplab::training
