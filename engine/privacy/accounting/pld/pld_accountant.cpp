#include "privacy/accounting/pld/pld_accountant.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/pld/pld_composition.h"
#include "privacy/accounting/pld/subsampled_gaussian_pld.h"

namespace dplab::privacy {
namespace {

using pld::Adjacency;
using pld::PrivacyLossPmf;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// --- per-step distribution cache ---------------------------------------------------------
using Key = std::tuple<double, double, int, double, double>;  // sigma, q, direction, d, tails

class PmfCache {
 public:
  std::shared_ptr<const PrivacyLossPmf> get(double sigma, double q, Adjacency a, double d,
                                            double tail_sigmas) {
    const Key key{sigma, q, static_cast<int>(a), d, tail_sigmas};
    {
      std::lock_guard lock(mutex_);
      for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->first == key) {
          entries_.splice(entries_.begin(), entries_, it);
          return entries_.front().second;
        }
      }
    }
    auto pmf = std::make_shared<const PrivacyLossPmf>(
        pld::subsampled_gaussian_pmf(sigma, q, a, d, tail_sigmas));
    std::lock_guard lock(mutex_);
    entries_.emplace_front(key, pmf);
    if (entries_.size() > kCapacity) entries_.pop_back();
    return pmf;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    entries_.clear();
  }

 private:
  static constexpr std::size_t kCapacity = 32;
  std::mutex mutex_;
  std::list<std::pair<Key, std::shared_ptr<const PrivacyLossPmf>>> entries_;
};

PmfCache& cache() {
  static PmfCache c;
  return c;
}

// --- runs grouped by mechanism ------------------------------------------------------------
struct Group {
  double sigma, q;
  std::int64_t steps;
};

struct Grouped {
  std::vector<Group> groups;  // only runs that cost privacy
  bool unbounded = false;     // some run has sigma = 0
};

Grouped group_runs(std::span<const SubsampledGaussian> runs) {
  std::map<std::pair<double, double>, std::int64_t> steps;
  Grouped out;
  for (const auto& run : runs) {
    require_non_negative("noise_multiplier", run.noise_multiplier);
    require_finite("sampling_rate", run.sampling_rate);
    if (!(run.sampling_rate >= 0.0 && run.sampling_rate <= 1.0)) {
      fail_field("sampling_rate", run.sampling_rate, "must be in [0, 1]");
    }
    if (run.steps < 0) fail_field("steps", static_cast<double>(run.steps), "must be >= 0");
    if (run.steps == 0 || run.sampling_rate == 0.0) continue;
    if (run.noise_multiplier == 0.0) {
      out.unbounded = true;
      continue;
    }
    steps[{run.noise_multiplier, run.sampling_rate}] += run.steps;
  }
  for (const auto& [k, t] : steps) out.groups.push_back({k.first, k.second, t});
  return out;
}

void validate_options(const PldOptions& options) {
  require_non_negative("discretization", options.discretization);
  require_open_interval("tail_mass", options.tail_mass, 0.0, 1e-3);
  if (options.max_grid_cells < 1024)
    fail_field("max_grid_cells", static_cast<double>(options.max_grid_cells), "must be >= 1024");
}

// The dominating pairs of the relation (subsampled_gaussian_pld.h): add/remove keeps both
// directions, substitute's pair is symmetric and is the whole curve.
std::vector<Adjacency> directions(PldRelation relation) {
  if (relation == PldRelation::kSubstitute) return {Adjacency::kReplace};
  return {Adjacency::kRemove, Adjacency::kAdd};
}

// Every direction composed on the grid d; the reported curve is the worst direction.
struct Composed {
  std::vector<pld::ComposedPmf> directions;
  std::size_t cells() const {
    std::size_t n = 0;
    for (const auto& c : directions) n = std::max(n, c.fft_size);
    return n;
  }
  double infinity_mass() const {
    double m = 0.0;
    for (const auto& c : directions) m = std::max(m, c.pmf.infinity_mass);
    return m;
  }
};

// Composes every direction on a grid d. accurate_at[i] (empty: none) is the loss at which
// direction i is also composed tilted (pld_composition.h): where its delta or epsilon lies.
// tail_sigmas: the noise range of the per-step distributions, whose mass beyond (at most
// ~Phi(-tail_sigmas) a step) is infinity mass, i.e. added to delta.
struct Composer {
  const std::vector<Group>& groups;
  double tail_mass;
  PldRelation relation;
  std::vector<double> accurate_at;
  double tail_sigmas = pld::kDefaultTailSigmas;

  Composed operator()(double d) const {
    Composed out;
    const auto all = directions(relation);
    for (std::size_t i = 0; i < all.size(); ++i) {
      std::vector<std::shared_ptr<const PrivacyLossPmf>> keep;
      std::vector<pld::PmfPower> factors;
      for (const auto& g : groups) {
        keep.push_back(cache().get(g.sigma, g.q, all[i], d, tail_sigmas));
        factors.push_back({keep.back().get(), g.steps});
      }
      const double at = i < accurate_at.size() ? accurate_at[i] : kNaN;
      out.directions.push_back(pld::compose(factors, tail_mass, at));
    }
    return out;
  }

  // Widens tail_sigmas (10 .. 40) until the steps' infinity masses, sum_i T_i inf_i, are within
  // budget in every direction; the masses hardly depend on d.
  void cover_tails(double d, double budget) {
    for (const double sigmas : {10.0, 14.0, 20.0, 28.0, 40.0}) {
      if (sigmas < tail_sigmas) continue;
      tail_sigmas = sigmas;
      double worst = 0.0;
      for (const Adjacency a : directions(relation)) {
        double mass = 0.0;
        for (const auto& g : groups)
          mass += static_cast<double>(g.steps) *
                  cache().get(g.sigma, g.q, a, d, tail_sigmas)->infinity_mass;
        worst = std::max(worst, mass);
      }
      if (worst <= budget) return;
    }
  }
};

// Per direction; the reported value is the worst (largest) direction's.
std::vector<double> epsilons_of(const Composed& c, double delta) {
  std::vector<double> out;
  for (const auto& d : c.directions) out.push_back(pld::epsilon_for_delta(d.pmf, delta));
  return out;
}
double delta_of(const Composed& c, double epsilon) {
  double delta = 0.0;
  for (const auto& d : c.directions)
    delta = std::max(delta, pld::delta_for_epsilon(d.pmf, epsilon));
  return delta;
}

// Grid steps are kGridUnit * 2^j. dp_accounting's default-precision grid is 1e-5 (the reference
// values of tests/data/accounting.json use it): our grids are sub-grids of it, and a
// connect-the-dots PLD on a sub-grid dominates the one on the full grid (its chords span the
// finer chords), so IN EXACT ARITHMETIC dplab's epsilon at kFast and kDefault would not be below
// dp_accounting's. In floating point it can be, slightly: on the 43 public reference cases it is
// below in 4, by at most 3.4e-5 (round-off of the FFT composition at epsilon ~ 200; ~4e-9 in the
// others). tests/numerics/test_pld_accountant.cpp checks "never below by more than the estimated
// error", not "never below".
// kTight may go finer (to kGridUnit / 64).
constexpr double kGridUnit = 1e-5;

double snap_down(double d, double finest) {
  double g = kGridUnit * 4096.0;
  while (g > d && g > finest) g /= 2.0;
  return g;
}

double finest_grid(PldPrecision precision) {
  return precision == PldPrecision::kTight ? kGridUnit / 64.0 : kGridUnit;
}

// Starting grid: 1/8 of the smallest per-step loss standard deviation, estimated by the
// chi-square divergence of one step, Var[L] ~ q^2 (e^{1/sigma^2} - 1) (small q), at most 1/sigma.
// Connect-the-dots spreads each atom over two neighbouring cells, so d must be small against
// that spread; the refinement below finds the final d.
double initial_discretization(const std::vector<Group>& groups, PldPrecision precision) {
  double spread = std::numeric_limits<double>::infinity();
  for (const auto& g : groups) {
    const double chi2 = g.q * std::sqrt(std::expm1(std::min(1.0 / (g.sigma * g.sigma), 50.0)));
    spread = std::min(spread, std::min(chi2, 1.0 / g.sigma));
  }
  return snap_down(spread / 8.0, finest_grid(precision));
}

constexpr int kMaxRefinements = 12;
// Deltas below: the compositions are tilted at the loss asked about (pld_composition.h). The
// plain FFT's round-off, ~1e-16 T of its largest cell, is then far below delta (T <= 1e6).
constexpr double kTiltBelow = 1e-9;
constexpr double kMinTailMass = 1e-250;  // the smallest truncation mass of a delta query

// The quantity value(composition) at grid steps d and 2d. The connect-the-dots error is
// O(d^2) (observed, and consistent with the chords of a smooth convex curve), so
// value(2d) - value(d) ~ 3 x the error of value(d); we refine until that difference is within
// the tolerance, jumping to the d it predicts (between d/16 and d/2).
template <typename Value>
auto refine(const Composer& at, const PldOptions& options, Value value, double floor,
            double tolerance_factor = 1.0) {
  struct Out {
    double fine, coarse, d;
    Composed composed;
    int refinements = 0;
    // |fine - coarse| within the tolerance, or on a fixed grid, or on the precision's finest
    // grid (the documented floor: kDefault's is dp_accounting's 1e-5); false when the cell limit
    // or kMaxRefinements stopped the refinement short of both.
    bool converged = true;
  };
  if (options.discretization > 0.0) {
    const double d = options.discretization;
    Composed fine = at(d);
    const double v = value(fine);
    return Out{v, value(at(2.0 * d)), d, std::move(fine), 0};
  }
  const double tolerance = tolerance_factor * pld_relative_tolerance(options.precision);
  const double finest = finest_grid(options.precision);
  double d = initial_discretization(at.groups, options.precision);
  double coarse = value(at(2.0 * d));
  Composed c = at(d);
  Out out{value(c), coarse, d, std::move(c), 0};
  for (int i = 0;; ++i) {
    const double diff = std::abs(out.coarse - out.fine);
    const double scale = std::max(std::abs(out.fine), floor);
    out.converged = diff <= tolerance * scale || out.d <= finest;
    if (out.converged || i == kMaxRefinements) break;
    const double cells = static_cast<double>(out.composed.cells());
    const auto limit = static_cast<double>(options.max_grid_cells);
    if (2.0 * cells > limit || !std::isfinite(out.fine)) break;
    // The cells grow as 1/d (snap_down may halve once more): stay within the limit.
    const double slowest = std::max(1.0 / 16.0, 2.0 * cells / limit);
    const double jump = std::isfinite(diff) ? std::sqrt(0.5 * tolerance * scale / diff) : 0.5;
    const double next = snap_down(out.d * std::clamp(jump, slowest, 0.5), finest);
    coarse = next == out.d / 2.0 ? out.fine : value(at(2.0 * next));
    Composed fine = at(next);
    out = Out{value(fine), coarse, next, std::move(fine), i + 1};
  }
  return out;
}

// The adaptive grid stopped short of the precision's tolerance at the cell limit
// (PldOptions::max_grid_cells) or after kMaxRefinements, before its finest grid: the value is
// still an upper bound, but not within the tolerance the precision promises, so it is refused
// rather than returned. A fixed grid is the caller's choice; infinite values are answers (no
// finite epsilon at this delta).
template <typename Refined>
void require_converged(const Refined& r, const PldOptions& options, const char* quantity,
                       double tolerance) {
  if (r.converged || options.discretization > 0.0 || !std::isfinite(r.fine)) return;
  throw Error("PLD accountant: " + std::string(quantity) + " = " + format_number(r.fine) +
              " is not within the " + to_string(options.precision) + " precision's tolerance (" +
              format_number(tolerance) + " relative): its estimated error is " +
              format_number(std::abs(r.coarse - r.fine)) +
              " on the finest grid the cell limit allows (d = " + format_number(r.d) + ", " +
              std::to_string(r.composed.cells()) + " cells, at most " +
              std::to_string(options.max_grid_cells) +
              "); use a faster --pld-precision or the RDP accountant");
}

}  // namespace

double pld_relative_tolerance(PldPrecision precision) {
  switch (precision) {
    case PldPrecision::kFast:
      return 1e-2;
    case PldPrecision::kDefault:
      return 1e-3;
    case PldPrecision::kTight:
      return 1e-4;
  }
  return 1e-3;
}

const char* to_string(PldPrecision precision) {
  switch (precision) {
    case PldPrecision::kFast:
      return "fast";
    case PldPrecision::kDefault:
      return "default";
    case PldPrecision::kTight:
      return "tight";
  }
  return "default";
}

PldEpsilon pld_epsilon_for_delta(std::span<const SubsampledGaussian> runs, double delta,
                                 const PldOptions& options) {
  require_open_interval("delta", delta, 0.0, 1.0);
  validate_options(options);
  const Grouped g = group_runs(runs);
  PldEpsilon result;
  result.delta = delta;
  if (g.unbounded) {
    result.epsilon = kInf;
    return result;
  }
  if (g.groups.empty()) return result;
  // Tiny deltas (Liu-Talwar's per-run delta is ~1e-16): truncate 1e5x below delta, and tilt
  // each direction's composition at its latest epsilon (the first composition is plain).
  const double tail_mass = std::min(options.tail_mass, 1e-5 * delta);
  Composer at{g.groups, tail_mass, options.relation, {}};
  const bool tilt = delta < kTiltBelow;
  auto value = [&](const Composed& c) {
    const auto per_direction = epsilons_of(c, delta);
    if (tilt) {
      at.accurate_at.clear();
      for (const double e : per_direction) at.accurate_at.push_back(std::isfinite(e) ? e : kNaN);
    }
    return *std::max_element(per_direction.begin(), per_direction.end());
  };
  if (tilt) {
    // The steps' tails within 1e-5 delta, and a first (plain) composition to place the tilt:
    // refining from plain compositions would compare their round-off, not their grids.
    const double d0 = options.discretization > 0.0
                          ? options.discretization
                          : initial_discretization(g.groups, options.precision);
    at.cover_tails(d0, 1e-5 * delta);
    value(at(2.0 * d0));
  }
  auto r = refine(at, options, value, 1e-3);
  require_converged(r, options, "epsilon", pld_relative_tolerance(options.precision));
  result.epsilon = r.fine;
  result.error_bound = std::max(0.0, r.coarse - r.fine);
  if (!std::isfinite(result.error_bound)) result.error_bound = kInf;
  result.discretization = r.d;
  result.tail_mass = tail_mass;
  result.infinity_mass = r.composed.infinity_mass();
  result.grid_cells = r.composed.cells();
  result.refinements = r.refinements;
  return result;
}

PldEpsilon pld_epsilon_for_delta(const SubsampledGaussian& run, double delta,
                                 const PldOptions& options) {
  return pld_epsilon_for_delta(std::span<const SubsampledGaussian>(&run, 1), delta, options);
}

PldDelta pld_delta_for_epsilon(std::span<const SubsampledGaussian> runs, double epsilon,
                               const PldOptions& options) {
  require_non_negative("epsilon", epsilon);
  validate_options(options);
  const Grouped g = group_runs(runs);
  PldDelta result;
  result.epsilon = epsilon;
  if (g.unbounded) {
    result.delta = 1.0;
    return result;
  }
  if (g.groups.empty()) return result;
  // delta is refined 10x tighter than epsilon: a relative error of delta is a much smaller one
  // of epsilon, and delta is what this query reports.
  auto value = [&](const Composed& c) { return delta_of(c, epsilon); };
  Composer at{g.groups, options.tail_mass, options.relation, {}};
  auto r = refine(at, options, value, 1e-12, 0.1);
  // A small delta: compose again tilted at epsilon, refined to a relative tolerance, with the
  // truncation and the steps' tails (both in the infinity mass, added to delta) 1e7x below the
  // rest of delta. The plain delta may be those masses alone when the exact delta lies far below
  // them: then they are lowered 1e6x a pass until delta stands 1e3x above them.
  if (r.fine < kTiltBelow) {
    at.accurate_at.assign(directions(options.relation).size(), epsilon);
    for (int pass = 0; pass < 10; ++pass) {
      const double floor_mass = r.composed.infinity_mass();
      const double rest = r.fine - floor_mass;
      if (pass > 0 && rest > 1e3 * floor_mass) break;
      const double budget = rest > 1e3 * floor_mass ? 1e-7 * rest : 1e-6 * floor_mass;
      const double before_mass = at.tail_mass, before_sigmas = at.tail_sigmas;
      at.tail_mass = std::max(std::min(at.tail_mass, budget), kMinTailMass);
      at.cover_tails(r.d, budget);
      if (pass > 0 && at.tail_mass == before_mass && at.tail_sigmas == before_sigmas) break;
      r = refine(at, options, value, 0.0, 0.1);
    }
  }
  require_converged(r, options, "delta", 0.1 * pld_relative_tolerance(options.precision));
  result.delta = r.fine;
  result.error_bound = std::max(0.0, r.coarse - r.fine);
  result.discretization = r.d;
  result.tail_mass = at.tail_mass;
  result.infinity_mass = r.composed.infinity_mass();
  result.grid_cells = r.composed.cells();
  result.refinements = r.refinements;
  return result;
}

PldDelta pld_delta_for_epsilon(const SubsampledGaussian& run, double epsilon,
                               const PldOptions& options) {
  return pld_delta_for_epsilon(std::span<const SubsampledGaussian>(&run, 1), epsilon, options);
}

PldEpsilon pld_selection_epsilon(const SubsampledGaussian& run, int candidates, double delta,
                                 const PldOptions& options) {
  if (candidates < 1) fail_field("candidates", candidates, "must be >= 1");
  SubsampledGaussian all = run;
  all.steps = run.steps * candidates;
  return pld_epsilon_for_delta(all, delta, options);
}

PldCalibration calibrate_noise_multiplier_pld(double target_epsilon, double delta,
                                              double sampling_rate, std::int64_t steps,
                                              const PldOptions& options) {
  require_positive("target_epsilon", target_epsilon);
  require_open_interval("delta", delta, 0.0, 1.0);
  require_left_open_interval("sampling_rate", sampling_rate, 0.0, 1.0);
  if (steps < 1) fail_field("steps", static_cast<double>(steps), "must be >= 1");
  validate_options(options);
  // RDP's sigma is safe for PLD (PLD epsilon <= RDP epsilon): start the bracket there, and fix
  // the grid there, so that epsilon(sigma) is one continuous curve for the bisection (an
  // adaptive grid could jump between levels across it).
  double hi = calibrate_noise_multiplier(target_epsilon, delta, sampling_rate, steps);
  PldCalibration result;
  result.options = options;
  if (options.discretization <= 0.0) {
    result.options.discretization =
        pld_epsilon_for_delta(SubsampledGaussian{hi, sampling_rate, steps}, delta, options)
            .discretization;
  }
  auto at = [&](double sigma) {
    return pld_epsilon_for_delta(SubsampledGaussian{sigma, sampling_rate, steps}, delta,
                                 result.options);
  };
  constexpr double kMaxSigma = 1e4, kMinSigma = 1e-3;
  while (at(hi).epsilon > target_epsilon) {
    hi *= 1.5;
    if (hi > kMaxSigma) {
      throw Error(
          "calibrate_noise_multiplier_pld: no noise multiplier up to 1e4 reaches epsilon = " +
          format_number(target_epsilon) + " at delta = " + format_number(delta));
    }
  }
  double lo = hi / 1.5;
  while (at(lo).epsilon <= target_epsilon) {
    hi = lo;
    lo /= 1.5;
    if (lo < kMinSigma) break;
  }
  // Invariant: epsilon(hi) <= target < epsilon(lo).
  while (lo >= kMinSigma && hi - lo > 1e-4 * hi) {
    const double mid = 0.5 * (lo + hi);
    (at(mid).epsilon <= target_epsilon ? hi : lo) = mid;
  }
  // The caller will evaluate sigma with its own options (an adaptive grid may land on another
  // level than the fixed one, up to its error bound higher): step sigma up until that is within
  // the target too. epsilon decreases with sigma, so this ends after a few steps.
  auto caller = [&](double sigma) {
    return pld_epsilon_for_delta(SubsampledGaussian{sigma, sampling_rate, steps}, delta, options);
  };
  PldEpsilon final_epsilon = caller(hi);
  for (int i = 0;
       i < 400 && (final_epsilon.epsilon > target_epsilon || at(hi).epsilon > target_epsilon);
       ++i) {
    hi *= 1.0 + 2e-4;
    final_epsilon = caller(hi);
  }
  if (final_epsilon.epsilon > target_epsilon) {
    throw Error("calibrate_noise_multiplier_pld: the PLD epsilon does not settle below " +
                format_number(target_epsilon) + " (try --pld-precision tight)");
  }
  result.noise_multiplier = hi;
  result.epsilon = final_epsilon;
  result.options = options;
  return result;
}

void clear_pld_cache() {
  cache().clear();
}

}  // namespace dplab::privacy
