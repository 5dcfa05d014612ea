#include "privacy/selection/private_selection.h"

#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/rdp_conversion.h"

namespace dplab::privacy {

MaSelectionCost moments_accountant_selection(const SubsampledGaussian& run, int candidates,
                                             double delta, const AccountingOptions& options) {
  const SubsampledGaussian all = composed_runs(run, candidates);
  const EpsilonResult total = epsilon_for_delta(all, delta, options);
  MaSelectionCost cost;
  cost.epsilon = total.epsilon;
  cost.delta = delta;
  cost.best_order = total.best_order;
  cost.order_at_grid_edge = total.order_at_grid_edge;
  cost.candidates = candidates;
  cost.total_steps = all.steps;
  cost.epsilon_per_run = epsilon_for_delta(run, delta, options).epsilon;
  return cost;
}

LtSelectionCost liu_talwar_selection(const SubsampledGaussian& run, double gamma, double delta,
                                     double delta2, LogBase log_base,
                                     const AccountingOptions& options) {
  require_left_open_interval("gamma", gamma, 0.0, 1.0);
  require_open_interval("delta", delta, 0.0, 1.0);
  require_open_interval("delta2", delta2, 0.0, delta);
  LtSelectionCost cost;
  cost.delta = delta;
  cost.gamma = gamma;
  cost.delta2 = delta2;
  cost.log_base = log_base;
  const double log_inv_delta2 = -std::log(delta2);
  cost.upsilon =
      (log_base == LogBase::kTwo ? log_inv_delta2 / std::log(2.0) : log_inv_delta2) / gamma;
  const double root = (delta - delta2) / cost.upsilon;  // sqrt(2 delta1)
  cost.delta_per_run = root * root / 2.0;
  const EpsilonResult per_run = epsilon_for_delta(run, cost.delta_per_run, options);
  cost.epsilon_per_run = per_run.epsilon;
  cost.best_order = per_run.best_order;
  cost.order_at_grid_edge = per_run.order_at_grid_edge;
  cost.epsilon = 3.0 * per_run.epsilon + 3.0 * root;  // 3 eps1 + 3 sqrt(2 delta1)
  return cost;
}

LtSelectionCost liu_talwar_selection_enforced(const std::vector<double>& orders,
                                              const std::vector<double>& rdp_per_run, double gamma,
                                              double delta, double delta2) {
  require_left_open_interval("gamma", gamma, 0.0, 1.0);
  require_open_interval("delta", delta, 0.0, 1.0);
  require_open_interval("delta2", delta2, 0.0, delta);
  LtSelectionCost cost;
  cost.delta = delta;
  cost.gamma = gamma;
  cost.delta2 = delta2;
  cost.log_base = LogBase::kNatural;
  cost.upsilon = std::ceil(-std::log(delta2) / gamma);  // the integer hard stop enforced
  const double root = (delta - delta2) / cost.upsilon;  // sqrt(2 delta1)
  cost.delta_per_run = root * root / 2.0;
  const EpsilonResult per_run = epsilon_from_rdp(orders, rdp_per_run, cost.delta_per_run);
  cost.epsilon_per_run = per_run.epsilon;
  cost.best_order = per_run.best_order;
  cost.order_at_grid_edge = per_run.order_at_grid_edge;
  cost.epsilon = 3.0 * per_run.epsilon + 3.0 * root;  // 3 eps1 + 3 sqrt(2 delta1)
  return cost;
}

int ma_candidates_at_lt_cost(const SubsampledGaussian& run, double delta, double delta2,
                             LogBase log_base, const AccountingOptions& options,
                             int max_candidates) {
  if (max_candidates < 1) fail_field("max_candidates", max_candidates, "must be >= 1");
  const double budget = liu_talwar_selection(run, 1.0, delta, delta2, log_base, options).epsilon;
  auto affordable = [&](int k) {
    return moments_accountant_selection(run, k, delta, options).epsilon <= budget;
  };
  if (!std::isfinite(budget) || !affordable(1)) return 0;
  // MA cost grows with K: gallop to a bracket [lo affordable, hi not], then bisect.
  int lo = 1, hi = 2;
  while (hi <= max_candidates && affordable(hi)) {
    lo = hi;
    if (hi > max_candidates / 2) {
      hi = max_candidates + 1;
      break;
    }
    hi *= 2;
  }
  if (hi > max_candidates) {
    if (affordable(max_candidates)) return max_candidates;
    hi = max_candidates;
  }
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (affordable(mid) ? lo : hi) = mid;
  }
  return lo;
}

LtSelectionCost liu_talwar_selection_with(const SubsampledGaussian& run, double gamma, double delta,
                                          Accountant accountant, double delta2, LogBase log_base,
                                          const PldOptions& pld, const AccountingOptions& rdp) {
  LtSelectionCost cost = liu_talwar_selection(run, gamma, delta, delta2, log_base, rdp);
  if (accountant == Accountant::kRdp) return cost;
  // Same theorem, eps1 of the base run at delta1 from the PLD (any (eps1, delta1)-DP run will do).
  const auto per_run = pld_epsilon_for_delta(run, cost.delta_per_run, pld);
  cost.epsilon_per_run = per_run.epsilon;
  cost.best_order = 0.0;
  cost.order_at_grid_edge = false;
  cost.epsilon = 3.0 * per_run.epsilon + 3.0 * std::sqrt(2.0 * cost.delta_per_run);
  return cost;
}

}  // namespace dplab::privacy
