#include "privacy/accounting/rdp_accountant.h"

#include <cmath>
#include <iterator>
#include <limits>
#include <list>
#include <mutex>
#include <utility>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"
#include "privacy/accounting/rdp_subsampled_gaussian.h"

namespace dplab::privacy {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The curve plus per-order constants of the conversions, so a scan is a few flops per order.
struct AccountingCurve : RdpCurve {
  std::vector<double> log_order;     // log alpha
  std::vector<double> log1m_inv;     // log(1 - 1/alpha) = log((alpha-1)/alpha)
  std::vector<double> inv_order_m1;  // 1/(alpha - 1)
};

std::shared_ptr<const AccountingCurve> compute_curve(double sigma, double q, double max_order) {
  auto curve = std::make_shared<AccountingCurve>();
  curve->noise_multiplier = sigma;
  curve->sampling_rate = q;
  curve->orders = rdp_orders(max_order);
  const std::size_t n = curve->orders.size();
  curve->rdp_per_step = rdp_subsampled_gaussian_curve(sigma, q, curve->orders);
  curve->log_order.resize(n);
  curve->log1m_inv.resize(n);
  curve->inv_order_m1.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = curve->orders[i];
    curve->log_order[i] = std::log(a);
    curve->log1m_inv[i] = std::log1p(-1.0 / a);
    curve->inv_order_m1[i] = 1.0 / (a - 1.0);
  }
  return curve;
}

// Mutex-protected LRU of curves keyed by the exact (sigma, q, max_order). The curve is computed
// outside the lock; two threads missing the same key at once compute it twice (harmless).
class CurveCache {
 public:
  std::shared_ptr<const AccountingCurve> get(double sigma, double q, double max_order) {
    {
      std::lock_guard lock(mutex_);
      for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->sigma == sigma && it->q == q && it->max_order == max_order) {
          entries_.splice(entries_.begin(), entries_, it);  // most recently used first
          return entries_.front().curve;
        }
      }
    }
    auto curve = compute_curve(sigma, q, max_order);
    std::lock_guard lock(mutex_);
    entries_.push_front(Entry{sigma, q, max_order, curve});
    while (entries_.size() > kCapacity) entries_.pop_back();
    return curve;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    entries_.clear();
  }
  std::size_t size() {
    std::lock_guard lock(mutex_);
    return entries_.size();
  }

 private:
  // 64 curves of ~630 orders (~20 KB each): enough for a GUI comparing several settings.
  static constexpr std::size_t kCapacity = 64;
  struct Entry {
    double sigma, q, max_order;
    std::shared_ptr<const AccountingCurve> curve;
  };
  std::mutex mutex_;
  std::list<Entry> entries_;
};

CurveCache& cache() {
  static CurveCache instance;
  return instance;
}

// What is minimised over the orders: epsilon at a fixed log delta, or log delta at a fixed epsilon.
enum class Target { kEpsilon, kLogDelta };

struct Objective {
  Target target;
  Conversion conversion;
  double fixed;  // log delta (kEpsilon) or epsilon (kLogDelta)

  // Value at order alpha with total RDP r, given log alpha, log(1-1/alpha) and 1/(alpha-1).
  double operator()(double r, double log_a, double log1m_inv, double inv_am1) const {
    if (target == Target::kEpsilon) {
      return conversion == Conversion::kImproved ? r + log1m_inv - (fixed + log_a) * inv_am1
                                                 : r - fixed * inv_am1;
    }
    // Inverting the conversions for delta at epsilon = fixed.
    return conversion == Conversion::kImproved ? (r - fixed + log1m_inv) / inv_am1 - log_a
                                               : (r - fixed) / inv_am1;
  }
  double at(double alpha, double r) const {
    return (*this)(r, std::log(alpha), std::log1p(-1.0 / alpha), 1.0 / (alpha - 1.0));
  }
};

struct Minimum {
  double value = kInf;
  double order = 0.0;
  bool at_edge = false;
};

// Golden-section search of f on [a, b]; updates best with every point it evaluates (each one is
// a valid bound, so the minimum over them is too, whether or not f is unimodal).
template <class F>
void golden_section(F&& f, double a, double b, int iterations, Minimum& best) {
  constexpr double kInvPhi = 0.6180339887498949;  // (sqrt 5 - 1)/2
  double c = b - kInvPhi * (b - a), d = a + kInvPhi * (b - a);
  double fc = f(c), fd = f(d);
  auto keep = [&](double x, double fx) {
    if (fx < best.value) {
      best.value = fx;
      best.order = x;
    }
  };
  keep(c, fc);
  keep(d, fd);
  for (int it = 0; it < iterations; ++it) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - kInvPhi * (b - a);
      fc = f(c);
      keep(c, fc);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + kInvPhi * (b - a);
      fd = f(d);
      keep(d, fd);
    }
  }
}

Minimum minimise(const AccountingCurve& curve, double steps, const Objective& objective,
                 const AccountingOptions& options) {
  const std::size_t n = curve.orders.size();
  Minimum best;
  std::size_t best_index = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double value = objective(steps * curve.rdp_per_step[i], curve.log_order[i],
                                   curve.log1m_inv[i], curve.inv_order_m1[i]);
    if (value < best.value) {
      best.value = value;
      best_index = i;
    }
  }
  best.order = curve.orders[best_index];
  best.at_edge = best_index == 0 || best_index + 1 == n;

  if (options.order_search == OrderSearch::kInterpolated) {
    // Chord of the convex alpha -> log A_alpha between neighbouring grid orders: an upper bound.
    auto on_segment = [&](std::size_t lo) {
      const double a0 = curve.orders[lo], a1 = curve.orders[lo + 1];
      const double l0 = curve.rdp_per_step[lo] * (a0 - 1.0);
      const double l1 = curve.rdp_per_step[lo + 1] * (a1 - 1.0);
      auto f = [&](double a) {
        const double log_a = l0 + (l1 - l0) * (a - a0) / (a1 - a0);
        return objective.at(a, steps * log_a / (a - 1.0));
      };
      golden_section(f, a0, a1, 40, best);  // 40 steps shrink the segment by 0.618^40 ~ 4e-9
    };
    if (best_index > 0) on_segment(best_index - 1);
    if (best_index + 1 < n) on_segment(best_index);
  } else if (options.order_search == OrderSearch::kExact) {
    // Continuous alpha between the neighbours of the best grid order, exact log A_alpha.
    // Below the grid we go down to 1.01: closer to 1 the bound -log(delta)/(alpha-1) explodes.
    const double lo =
        best_index > 0 ? curve.orders[best_index - 1] : std::min(1.01, curve.orders[0]);
    const double hi = best_index + 1 < n ? curve.orders[best_index + 1] : curve.orders[best_index];
    if (hi > lo) {
      auto f = [&](double a) {
        const double rdp = rdp_subsampled_gaussian(curve.noise_multiplier, curve.sampling_rate, a);
        return objective.at(a, steps * rdp);
      };
      golden_section(f, lo, hi, 30, best);  // bracket <= 64 wide: 0.618^30 ~ 5e-7 of it
    }
  }
  return best;
}

void validate_run(const SubsampledGaussian& run) {
  require_non_negative("noise_multiplier", run.noise_multiplier);
  require_finite("sampling_rate", run.sampling_rate);
  if (!(run.sampling_rate >= 0.0 && run.sampling_rate <= 1.0)) {
    fail_field("sampling_rate", run.sampling_rate, "must be in [0, 1]");
  }
  if (run.steps < 0) fail_field("steps", static_cast<double>(run.steps), "must be >= 0");
}

void validate_options(const AccountingOptions& options) {
  require_finite("max_order", options.max_order);
  if (!(options.max_order >= 2.0 && options.max_order <= 1e6)) {
    fail_field("max_order", options.max_order, "must be in [2, 1e6]");
  }
}

// log of Bretagnolle-Huber's delta <= TV <= sqrt(1 - exp(-KL)), KL <= total RDP at the first order.
double log_delta_total_variation(const AccountingCurve& curve, double steps) {
  const double kl_bound = steps * curve.rdp_per_step.front();
  if (kl_bound <= 0.0) return detail::kNegInf;
  return 0.5 * std::log(-std::expm1(-kl_bound));
}

EpsilonResult epsilon_from_curve(const AccountingCurve& curve, double steps, double delta,
                                 const AccountingOptions& options) {
  EpsilonResult result;
  result.delta = delta;
  const double log_delta = std::log(delta);
  if (log_delta >= log_delta_total_variation(curve, steps)) {
    result.epsilon = 0.0;
    result.best_order = 1.0;  // the KL (alpha -> 1) bound
    return result;
  }
  const Minimum best =
      minimise(curve, steps, Objective{Target::kEpsilon, options.conversion, log_delta}, options);
  result.epsilon = std::max(best.value, 0.0);
  result.best_order = best.order;
  result.order_at_grid_edge = best.at_edge;
  return result;
}

}  // namespace

AccountingOptions paper_compatible_options() {
  AccountingOptions options;
  options.conversion = Conversion::kClassic;
  options.order_search = OrderSearch::kExact;
  options.max_order = 512.0;
  return options;
}

std::vector<double> rdp_orders(double max_order) {
  std::vector<double> orders;
  // 1.1 .. 10.9 step 0.1: written as (10 + i)/10 so each is the double nearest the decimal.
  for (int i = 1; i <= 99; ++i) orders.push_back((10.0 + i) / 10.0);
  for (int a = 11; a <= 512; ++a) orders.push_back(a);
  for (int a = 528; a <= 1024; a += 16) orders.push_back(a);
  // Beyond 1024 (only on request): integer orders growing by 5%.
  for (double a = 1024.0; (a = std::ceil(a * 1.05)) <= max_order;) orders.push_back(a);
  while (!orders.empty() && orders.back() > max_order) orders.pop_back();
  if (orders.empty() || orders.back() < max_order) orders.push_back(max_order);
  return orders;
}

std::shared_ptr<const RdpCurve> rdp_curve(double noise_multiplier, double sampling_rate,
                                          double max_order) {
  require_positive("noise_multiplier", noise_multiplier);
  require_left_open_interval("sampling_rate", sampling_rate, 0.0, 1.0);
  validate_options(AccountingOptions{Conversion::kImproved, OrderSearch::kGrid, max_order});
  return cache().get(noise_multiplier, sampling_rate, max_order);
}

SubsampledGaussian composed_runs(const SubsampledGaussian& run, int runs) {
  if (runs < 1) fail_field("candidates", runs, "must be >= 1");
  if (run.steps < 0) fail_field("steps", static_cast<double>(run.steps), "must be >= 0");
  if (run.steps > std::numeric_limits<std::int64_t>::max() / runs) {
    fail_field("candidates", runs, "times steps overflows 64-bit integers");
  }
  SubsampledGaussian all = run;
  all.steps = run.steps * runs;
  return all;
}

EpsilonResult epsilon_for_delta(const SubsampledGaussian& run, double delta,
                                const AccountingOptions& options) {
  validate_run(run);
  require_open_interval("delta", delta, 0.0, 1.0);
  validate_options(options);
  if (run.steps == 0 || run.sampling_rate == 0.0) return EpsilonResult{0.0, delta, 0.0, false};
  if (run.noise_multiplier == 0.0) return EpsilonResult{kInf, delta, 0.0, false};
  const auto curve = cache().get(run.noise_multiplier, run.sampling_rate, options.max_order);
  return epsilon_from_curve(*curve, static_cast<double>(run.steps), delta, options);
}

double delta_for_epsilon(const SubsampledGaussian& run, double epsilon,
                         const AccountingOptions& options) {
  validate_run(run);
  require_non_negative("epsilon", epsilon);
  validate_options(options);
  if (run.steps == 0 || run.sampling_rate == 0.0) return 0.0;
  if (run.noise_multiplier == 0.0) return 1.0;
  const auto curve = cache().get(run.noise_multiplier, run.sampling_rate, options.max_order);
  const double steps = static_cast<double>(run.steps);
  const Minimum best =
      minimise(*curve, steps, Objective{Target::kLogDelta, options.conversion, epsilon}, options);
  const double log_delta = std::min({best.value, log_delta_total_variation(*curve, steps), 0.0});
  return std::exp(log_delta);
}

double calibrate_noise_multiplier(double target_epsilon, double delta, double sampling_rate,
                                  std::int64_t steps, const AccountingOptions& options) {
  require_positive("target_epsilon", target_epsilon);
  require_open_interval("delta", delta, 0.0, 1.0);
  require_left_open_interval("sampling_rate", sampling_rate, 0.0, 1.0);
  if (steps < 1) fail_field("steps", static_cast<double>(steps), "must be >= 1");
  validate_options(options);
  const double t = static_cast<double>(steps);
  // Uncached: the bisection visits ~25 sigmas that nobody asks for again. The code path is the
  // one epsilon_for_delta takes, so the returned sigma is checked by the same arithmetic.
  auto epsilon_at = [&](double sigma) {
    return epsilon_from_curve(*compute_curve(sigma, sampling_rate, options.max_order), t, delta,
                              options)
        .epsilon;
  };
  constexpr double kMaxSigma = 1e6, kMinSigma = 1e-6;
  // Invariant: epsilon_at(hi) <= target < epsilon_at(lo).
  double hi = 1.0;
  while (epsilon_at(hi) > target_epsilon) {
    hi *= 2.0;
    if (hi > kMaxSigma) {
      throw Error("calibrate_noise_multiplier: no noise multiplier up to 1e6 reaches epsilon = " +
                  format_number(target_epsilon) + " at delta = " + format_number(delta));
    }
  }
  double lo = hi / 2.0;
  while (epsilon_at(lo) <= target_epsilon) {
    hi = lo;
    lo /= 2.0;
    if (lo < kMinSigma) return hi;  // essentially no noise is needed
  }
  // Stop at 1e-5 relative width: the answer is within 1e-5 of the smallest sigma, above it.
  while (hi - lo > 1e-5 * hi) {
    const double mid = std::sqrt(lo * hi);
    if (epsilon_at(mid) <= target_epsilon) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return hi;
}

void clear_rdp_cache() {
  cache().clear();
}
std::size_t rdp_cache_size() {
  return cache().size();
}

}  // namespace dplab::privacy
