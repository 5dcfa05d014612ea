// RDP accountant for DP-SGD: T steps of the Poisson-subsampled Gaussian mechanism, converted
// to (epsilon, delta)-DP.
//
// Composition (Mironov 2017, Prop. 1): T steps are (alpha, T * eps_RDP(alpha))-RDP for every order.
// Conversion to (epsilon, delta), minimised over the orders alpha:
// - kImproved (default; Balle, Barthe, Gaboardi, Hsu & Sato 2020, Thm 21; Canonne, Kamath &
//   Steinke 2020, Prop. 12):  eps = eps_RDP + log((alpha-1)/alpha) - (log delta + log
//   alpha)/(alpha-1). Always <= the classic bound, since log(1-1/alpha) - log(alpha)/(alpha-1) < 0.
// - kClassic (Mironov 2017, Prop. 3): eps = eps_RDP - log(delta)/(alpha-1); what the main paper's
//   accountant used (see paper_compatible_options()).
// Both are valid at EVERY order, so any order we evaluate yields an upper bound: a coarse search
// only costs tightness, never validity. Additionally delta <= sqrt(1 - exp(-KL))
// (Bretagnolle-Huber, KL <= eps_RDP at the smallest order) holds for every eps >= 0 and is used for
// tiny losses.
//
// Orders: 1.1..10.9 step 0.1, every integer 11..512, 528..1024 step 16 (and a 5% geometric tail
// when max_order > 1024). Then, by OrderSearch:
// - kGrid: the grid minimum only.
// - kInterpolated (default): refine between the best grid point's neighbours on the CHORD of
//   log A_alpha. alpha -> log A_alpha is convex (a cumulant generating function), so the chord is
//   an upper bound on log A between grid points: still a valid bound, and as cheap as the scan.
// - kExact: golden-section search on the exact log A_alpha around the best grid point
//   (continuous alpha in [1.01, max_order]); each step evaluates the MTZ19 series, ~1-5 ms total.
// The result flags when the best grid order is the first or last one (a wider grid may help).
//
// Special cases: steps = 0 or q = 0 give eps = 0; sigma = 0 (no noise) gives eps = +infinity and
// delta_for_epsilon = 1. eps is clamped at >= 0. best_order is 0 when no order was used.
//
// Cache: the per-step RDP curve of (sigma, q, max_order) is kept in a mutex-protected LRU of 64
// curves, so after the first call any T, K or delta is a scan over ~630 orders (~1-3 us).
// All functions are thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace dplab::privacy {

// T steps of the Poisson-subsampled Gaussian mechanism with noise std noise_multiplier * C.
struct SubsampledGaussian {
  double noise_multiplier = 1.0;  // sigma (relative to the clipping norm C)
  double sampling_rate = 0.01;    // q = L / n, Poisson sampling
  std::int64_t steps = 1;         // T
};

// K runs of T steps with the same (sigma, q) compose in RDP exactly like one run of K*T steps
// (Mironov 2017 Prop. 1): that run. The one K-fold rule of the moments-accountant release
// (accountant_choice.h run_epsilon, selection/private_selection.h). InvalidArgument for runs < 1,
// steps < 0, or K*T past 64-bit integers.
SubsampledGaussian composed_runs(const SubsampledGaussian& run, int runs);

enum class Conversion { kImproved, kClassic };
enum class OrderSearch { kGrid, kInterpolated, kExact };

inline constexpr double kDefaultMaxOrder = 1024.0;

struct AccountingOptions {
  Conversion conversion = Conversion::kImproved;
  OrderSearch order_search = OrderSearch::kInterpolated;
  double max_order = kDefaultMaxOrder;  // largest order of the grid (>= 2)
};

// The main paper's accountant: classic conversion minimised over continuous alpha in (1, 512].
AccountingOptions paper_compatible_options();

struct EpsilonResult {
  double epsilon = 0.0;  // >= 0; +infinity only for noise_multiplier = 0
  double delta = 0.0;
  double best_order = 0.0;          // minimising alpha (0 when no order was involved)
  bool order_at_grid_edge = false;  // the best grid order is the grid's first or last
};

// The orders grid up to max_order (ascending).
std::vector<double> rdp_orders(double max_order = kDefaultMaxOrder);

// Per-step RDP eps(alpha) on the grid, shared and immutable.
struct RdpCurve {
  double noise_multiplier = 0.0;
  double sampling_rate = 0.0;
  std::vector<double> orders;
  std::vector<double> rdp_per_step;  // log A_alpha / (alpha - 1)
};

// Cached per (sigma, q, max_order); sigma > 0, q in (0, 1].
std::shared_ptr<const RdpCurve> rdp_curve(double noise_multiplier, double sampling_rate,
                                          double max_order = kDefaultMaxOrder);

// Smallest epsilon such that the run is (epsilon, delta)-DP. delta in (0, 1).
EpsilonResult epsilon_for_delta(const SubsampledGaussian& run, double delta,
                                const AccountingOptions& options = {});

// Smallest delta such that the run is (epsilon, delta)-DP. epsilon >= 0.
double delta_for_epsilon(const SubsampledGaussian& run, double epsilon,
                         const AccountingOptions& options = {});

// Smallest noise multiplier (to 1e-4 relative, bisection from the safe side) whose run is
// (target_epsilon, delta)-DP under the same accountant: epsilon_for_delta of the returned sigma
// never exceeds target_epsilon. Throws dplab::Error if no sigma <= 1e6 reaches the target.
double calibrate_noise_multiplier(double target_epsilon, double delta, double sampling_rate,
                                  std::int64_t steps, const AccountingOptions& options = {});

// Cache housekeeping (benchmarks and tests).
void clear_rdp_cache();
std::size_t rdp_cache_size();

}  // namespace dplab::privacy
