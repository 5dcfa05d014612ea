// PLD accountant for DP-SGD: runs of the Poisson-subsampled Gaussian mechanism composed
// numerically through their privacy loss distributions (Koskela, Jalko & Honkela 2020;
// Doroshenko et al. 2022; the method of Google's dp_accounting), giving (epsilon, delta) that is
// tight up to a stated discretisation error, where RDP (rdp_accountant.h) is loose by 4-60%.
//
// - Each distinct (sigma, q) is discretised pessimistically on one grid of step d
//   (subsampled_gaussian_pld.h, connect-the-dots), in both add/remove directions (or in the
//   one symmetric direction of the substitute relation, PldOptions::relation); runs with
//   their step counts T compose by FFT (pld_composition.h); epsilon(delta) is the LARGER of the
//   two directions' epsilons, delta(epsilon) the larger delta. Every number is a valid upper
//   bound: the discretisation dominates, truncated tails go to delta (infinity mass).
// - Error bound: the grid d is halved until eps(2d) - eps(d) <= tolerance * eps(d), and
//   error_bound = eps(2d) - eps(d) is reported. A coarser grid's connect-the-dots PLD dominates
//   a finer one's (its chords span the finer ones), so eps(d) decreases towards the exact eps as
//   d -> 0; the error is O(d) or better, so eps(d) - error_bound is an estimate of the exact
//   epsilon from below (a documented estimate, not a proof). tail_mass is the delta added for
//   truncation; infinity_mass is the delta at epsilon = +infinity (tails and truncation).
// - Precision (the speed/tightness setting): kFast tolerance 1e-2, kDefault 1e-3 (within 0.1%
//   of the exact value; T = 10,000 steps in ~10-40 ms), kTight 1e-4.
// - Small deltas (< 1e-9): every composition is tilted at its epsilon (pld_composition.h), the
//   truncation mass is 1e5x below delta (1e7x below a computed delta), and the steps' noise range
//   widens (10 .. 40 sigma) until their tails are as small. Without the tilt, FFT round-off put
//   epsilon at delta = 1e-15 up to 1e-4 BELOW the exact value, even in long double. Against
//   exact values computed without dplab's code (tests/data/pld_truth.json; delta 1e-5 .. 1e-30,
//   epsilon 0.56 .. 198, delta queries down to 1e-34) every value is above the exact one and
//   within the precision's tolerance (tests/numerics/test_pld_accountant_edges.cpp).
// - Refusal: when max_grid_cells stops the adaptive grid before the tolerance (and before the
//   precision's finest grid), the query throws dplab::Error naming the quantity, its estimated
//   error and the limit, rather than return a value outside the tolerance.
// - Heterogeneous composition: a list of runs (different sigma, q, T), e.g. every run trained by
//   a hyperparameter search, composes in one FFT per distinct (sigma, q).
// - Calibration: the smallest sigma (bisection from the safe side, 1e-4 relative) whose PLD
//   epsilon is <= the target; the returned sigma is checked with the same options.
// Special cases as the RDP accountant: T = 0 or q = 0 give 0, sigma = 0 gives +infinity.
// Thread-safe (per-step distributions are cached in a mutex-protected LRU).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "privacy/accounting/rdp_accountant.h"

namespace dplab::privacy {

enum class PldPrecision { kFast, kDefault, kTight };

// The neighbouring relation the (epsilon, delta) is for. kAddRemove: one record added or removed
// (dplab's DP-SGD, Poisson sampling), the larger of the remove and add directions. kSubstitute:
// one record replaced by another, the symmetric pair of subsampled_gaussian_pld.h (kReplace).
enum class PldRelation { kAddRemove, kSubstitute };

struct PldOptions {
  PldPrecision precision = PldPrecision::kDefault;
  PldRelation relation = PldRelation::kAddRemove;
  // > 0: use exactly this grid step (no refinement; the error bound compares it with 2d).
  double discretization = 0.0;
  double tail_mass = 1e-15;  // truncation mass of the composition window, added to delta
  // The adaptive grid's limit (FFT length, memory ~ 16-32 bytes a cell). A query whose grid
  // would have to be finer to reach the precision's tolerance is refused (dplab::Error).
  std::size_t max_grid_cells = std::size_t{1} << 24;
};

double pld_relative_tolerance(PldPrecision precision);
const char* to_string(PldPrecision precision);

struct PldEpsilon {
  double epsilon = 0.0;  // >= 0, a valid upper bound
  double delta = 0.0;
  double error_bound = 0.0;     // eps(2d) - eps(d): estimated distance above the exact epsilon
  double discretization = 0.0;  // d of the reported value
  double tail_mass = 0.0;       // truncation mass added to delta
  double infinity_mass = 0.0;   // delta at epsilon = +inf (single-step tails + truncation)
  std::size_t grid_cells = 0;   // size of the largest composed grid (FFT length)
  int refinements = 0;          // grid halvings performed
};

struct PldDelta {
  double delta = 0.0;  // a valid upper bound, <= 1
  double epsilon = 0.0;
  double error_bound = 0.0;  // delta(2d) - delta(d)
  double discretization = 0.0;
  double tail_mass = 0.0;
  double infinity_mass = 0.0;
  std::size_t grid_cells = 0;
  int refinements = 0;
};

// delta in (0, 1). Runs with steps = 0 or q = 0 contribute nothing.
PldEpsilon pld_epsilon_for_delta(std::span<const SubsampledGaussian> runs, double delta,
                                 const PldOptions& options = {});
PldEpsilon pld_epsilon_for_delta(const SubsampledGaussian& run, double delta,
                                 const PldOptions& options = {});

// epsilon >= 0.
PldDelta pld_delta_for_epsilon(std::span<const SubsampledGaussian> runs, double epsilon,
                               const PldOptions& options = {});
PldDelta pld_delta_for_epsilon(const SubsampledGaussian& run, double epsilon,
                               const PldOptions& options = {});

// K candidates of one run each, composed (the moments-accountant release, with PLD): the same
// as one run of K*T steps.
PldEpsilon pld_selection_epsilon(const SubsampledGaussian& run, int candidates, double delta,
                                 const PldOptions& options = {});

// Smallest sigma (bisection to 1e-4 relative, from the safe side) whose PLD epsilon at delta is
// <= the target. The bisection runs on one fixed grid (options.discretization, or the adaptive
// grid's choice at RDP's sigma) so that epsilon(sigma) is one continuous curve; then sigma is
// stepped up (x 1.0002) until the epsilon under the caller's options is <= the target as well.
// epsilon is that value (what pld_epsilon_for_delta(sigma, options) returns), never above the
// target; options are the caller's.
struct PldCalibration {
  double noise_multiplier = 0.0;
  PldEpsilon epsilon;
  PldOptions options;
};
PldCalibration calibrate_noise_multiplier_pld(double target_epsilon, double delta,
                                              double sampling_rate, std::int64_t steps,
                                              const PldOptions& options = {});

// Per-step distribution cache housekeeping (benchmarks and tests).
void clear_pld_cache();

}  // namespace dplab::privacy
