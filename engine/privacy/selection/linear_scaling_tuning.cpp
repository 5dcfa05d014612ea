#include "privacy/selection/linear_scaling_tuning.h"

#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/rdp_conversion.h"

namespace dplab::privacy {
namespace {

void validate(const SubsampledGaussian& run, double delta, const LinearScalingSetting& s) {
  require_open_interval("trial_fractions[0]", s.trial_fraction_low, 0.0, 1.0);
  require_open_interval("trial_fractions[1]", s.trial_fraction_high, s.trial_fraction_low, 1.0);
  if (s.candidates < 1) fail_field("candidates", s.candidates, "must be >= 1");
  require_positive("noise_multiplier", run.noise_multiplier);
  require_left_open_interval("sampling_rate", run.sampling_rate, 0.0, 1.0);
  if (run.steps < 1) fail_field("steps", static_cast<double>(run.steps), "must be >= 1");
  require_open_interval("delta", delta, 0.0, 1.0);
}

// total += times * T * rho_{sigma,q} on the default orders.
void add_runs(std::vector<double>& total, double sigma, double q, std::int64_t steps,
              double times) {
  const auto curve = rdp_curve(sigma, q);
  if (total.empty()) total.assign(curve->orders.size(), 0.0);
  for (std::size_t i = 0; i < total.size(); ++i)
    total[i] += times * static_cast<double>(steps) * curve->rdp_per_step[i];
}

// The budgets of (sigma_f, q, T, delta, f_1, f_2): two calibrations (~40 new RDP curves) per
// key, asked again by every door that prints the release's epsilon (and ~30 times per
// calibration of a whole procedure), so kept; a pure function of the key.
using BudgetKey = std::tuple<double, double, std::int64_t, double, double, double>;
std::mutex budget_mutex;
std::map<BudgetKey, LinearScalingBudgets> budget_cache;
constexpr std::size_t kBudgetCacheSize = 4096;

LinearScalingBudgets compute_budgets(const SubsampledGaussian& final_run, double delta,
                                     const LinearScalingSetting& setting) {
  LinearScalingBudgets b;
  b.final_epsilon = epsilon_for_delta(final_run, delta).epsilon;
  const double fractions[2] = {setting.trial_fraction_low, setting.trial_fraction_high};
  for (int i = 0; i < 2; ++i) {
    b.trial_epsilon[i] = fractions[i] * b.final_epsilon;
    // The smallest sigma whose T-step run stays within eps_i (safe side of the bisection).
    b.trial_noise[i] = calibrate_noise_multiplier(b.trial_epsilon[i], delta,
                                                  final_run.sampling_rate, final_run.steps);
  }
  return b;
}

}  // namespace

LinearScalingBudgets linear_scaling_budgets(const SubsampledGaussian& final_run, double delta,
                                            const LinearScalingSetting& setting) {
  validate(final_run, delta, setting);
  const BudgetKey key{
      final_run.noise_multiplier, final_run.sampling_rate,    final_run.steps, delta,
      setting.trial_fraction_low, setting.trial_fraction_high};
  {
    std::lock_guard lock(budget_mutex);
    if (const auto it = budget_cache.find(key); it != budget_cache.end()) return it->second;
  }
  const LinearScalingBudgets b = compute_budgets(final_run, delta, setting);
  std::lock_guard lock(budget_mutex);
  if (budget_cache.size() >= kBudgetCacheSize) budget_cache.clear();
  budget_cache.emplace(key, b);
  return b;
}

LinearScalingCost linear_scaling_cost(const SubsampledGaussian& final_run, double delta,
                                      const LinearScalingSetting& setting) {
  LinearScalingCost cost;
  cost.budgets = linear_scaling_budgets(final_run, delta, setting);
  cost.delta = delta;
  cost.orders = rdp_orders();
  const double k = setting.candidates;
  std::vector<double> trials;
  for (double sigma : cost.budgets.trial_noise)
    add_runs(trials, sigma, final_run.sampling_rate, final_run.steps, k);
  cost.epsilon_trials = epsilon_from_rdp(cost.orders, trials, delta).epsilon;
  cost.rdp = trials;
  add_runs(cost.rdp, final_run.noise_multiplier, final_run.sampling_rate, final_run.steps, 1.0);
  cost.epsilon = epsilon_from_rdp(cost.orders, cost.rdp, delta).epsilon;
  cost.epsilon_final = cost.budgets.final_epsilon;
  return cost;
}

double extrapolate_radius(double eps_1, double r_1, double eps_2, double r_2, double eps_f,
                          bool* on_line) {
  require_positive("eps_1", eps_1);
  require_open_interval("eps_2", eps_2, eps_1, INFINITY);
  require_positive("r_1", r_1);
  require_positive("r_2", r_2);
  require_positive("eps_f", eps_f);
  const double r_f = r_2 + (r_2 - r_1) * (eps_f - eps_2) / (eps_2 - eps_1);
  const bool usable = std::isfinite(r_f) && r_f > 0.0;
  if (on_line) *on_line = usable;
  return usable ? r_f : r_2;
}

}  // namespace dplab::privacy
