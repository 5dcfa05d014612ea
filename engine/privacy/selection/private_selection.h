// Honest privacy cost of selecting the best of K hyperparameter candidates, each candidate one
// DP-SGD run (the main paper, section 3; docs/architecture.md "Release modes").
//
// - MA (moments accountant; Abadi et al. 2016): the K runs compose in RDP,
//   eps_RDP,total(alpha) = K * eps_RDP,run(alpha), i.e. one run of K*T steps, then converted.
//   Every candidate's model may be released.
// - LT (Liu & Talwar 2019, Thm 3.4 = main paper's Theorem 1): random stopping with a gamma-biased
//   coin and hard stop Upsilon = (1/gamma) log(1/delta2). If each run is (eps1, delta1)-DP the
//   selection is (3 eps1 + 3 sqrt(2 delta1), sqrt(2 delta1) Upsilon + delta2)-DP. For a target
//   delta_f we solve delta1 = ((delta_f - delta2)/Upsilon)^2 / 2 and take eps1 from the run's
//   accountant at delta1. gamma defaults to 1/K (K candidates in expectation), delta2 to 1e-20.
//   LogBase::kTwo uses log2 in Upsilon (larger Upsilon, hence a larger, still valid epsilon).
// - ma_candidates_at_lt_cost: the largest K whose MA cost stays <= the LT cost with gamma = 1,
//   LT's minimum (paper Figure 1 right, Figure 6).
// Conservative direction: all epsilons are upper bounds from the RDP accountant; the MA count is
// the largest K that does NOT exceed the LT cost. Thread-safe (the accountant's cache is).
#pragma once

#include <cstdint>
#include <vector>

#include "privacy/accounting/accountant_choice.h"
#include "privacy/accounting/rdp_accountant.h"

namespace dplab::privacy {

enum class LogBase { kNatural, kTwo };

inline constexpr double kDefaultDelta2 = 1e-20;

struct MaSelectionCost {
  double epsilon = 0.0;  // of all K runs together
  double delta = 0.0;
  double best_order = 0.0;
  bool order_at_grid_edge = false;
  int candidates = 1;
  std::int64_t total_steps = 0;  // K * T
  double epsilon_per_run = 0.0;  // one run alone at the same delta, for comparison
};

struct LtSelectionCost {
  double epsilon = 0.0;          // eps_f = 3 eps1 + 3 sqrt(2 delta1)
  double delta = 0.0;            // delta_f (the target)
  double epsilon_per_run = 0.0;  // eps1
  double delta_per_run = 0.0;    // delta1
  double gamma = 1.0;
  double delta2 = kDefaultDelta2;
  double upsilon = 0.0;  // hard stopping time (1/gamma) log(1/delta2)
  LogBase log_base = LogBase::kNatural;
  double best_order = 0.0;  // of the per-run accountant at delta1
  bool order_at_grid_edge = false;
};

// candidates >= 1, delta in (0, 1).
MaSelectionCost moments_accountant_selection(const SubsampledGaussian& run, int candidates,
                                             double delta, const AccountingOptions& options = {});

// gamma in (0, 1], delta in (0, 1), delta2 in (0, delta).
LtSelectionCost liu_talwar_selection(const SubsampledGaussian& run, double gamma, double delta,
                                     double delta2 = kDefaultDelta2,
                                     LogBase log_base = LogBase::kNatural,
                                     const AccountingOptions& options = {});

// liu_talwar_selection with the base run's eps1 at delta1 from the chosen accountant
// (accounting/accountant_choice.h): RDP gives liu_talwar_selection itself; PLD the same theorem
// with eps1 = the PLD's epsilon of the run at delta1.
LtSelectionCost liu_talwar_selection_with(const SubsampledGaussian& run, double gamma, double delta,
                                          Accountant accountant, double delta2 = kDefaultDelta2,
                                          LogBase log_base = LogBase::kNatural,
                                          const PldOptions& pld = {},
                                          const AccountingOptions& rdp = {});

// LT as dplab RUNS it (private release mode): the hard stop is the INTEGER
// Upsilon = ceil(ln(1/delta2)/gamma) that the algorithm enforces, so delta1 is solved with that
// Upsilon; each run's (eps1, delta1) comes from its RDP curve `rdp_per_run` (any valid per-run
// curve, e.g. DP-SGD plus a noisy validation score) by the improved conversion over its orders.
LtSelectionCost liu_talwar_selection_enforced(const std::vector<double>& orders,
                                              const std::vector<double>& rdp_per_run, double gamma,
                                              double delta, double delta2 = kDefaultDelta2);

// Largest K in [0, max_candidates] with MA cost(K) <= LT cost(gamma = 1) at the same delta.
int ma_candidates_at_lt_cost(const SubsampledGaussian& run, double delta,
                             double delta2 = kDefaultDelta2, LogBase log_base = LogBase::kNatural,
                             const AccountingOptions& options = {}, int max_candidates = 1'000'000);

}  // namespace dplab::privacy
