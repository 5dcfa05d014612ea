// Privacy and arithmetic of linear-scaling tuning (Panda, Tang, Mahloujifar, Sehwag, Mittal, "A
// New Linear Scaling Rule for Private Adaptive Hyperparameter Optimization", ICML 2024, arXiv
// 2212.04486). The rule: collapse the learning rate eta and the number of steps T into the
// "radius" r = eta T, find the best r by cheap private trials at two small budgets eps_1 < eps_2,
// fit r(eps) by the line through the two points and extrapolate it to the final run's budget.
//
// The procedure as dplab runs it (the paper's exact trial budgets and candidate counts could not
// be read here; the choices below are ours, labelled, and the accounting is valid whatever they
// are):
//   1. the final run's single-run budget eps_f = eps(sigma_f, q, T, delta) (the experiment's
//      sigma, q = L/n, T and delta; public quantities);
//   2. trial budgets eps_i = f_i eps_f for the two trial fractions 0 < f_1 < f_2 < 1, each at the
//      noise multiplier sigma_i = the smallest sigma whose T-step run is (eps_i, delta)-DP
//      (calibrate_noise_multiplier, the same accountant); same q, T and clip grid as the final
//      run;
//   3. at each trial budget, every candidate of the experiment's grid trains once (K runs);
//   4. r_i = eta_i* T for the trial winner eta_i* (tuning/linear_scaling_search.h says which
//      candidates compete); the line through (eps_1, r_1) and (eps_2, r_2) evaluated at eps_f:
//        r_f = r_2 + (r_2 - r_1) (eps_f - eps_2) / (eps_2 - eps_1)        (extrapolate_radius)
//      and, if that is not > 0 (a falling line), r_f = r_2 (no extrapolation; ours);
//   5. ONE final run at sigma_f with eta_f = r_f / T (T is the same in every run, so the paper's
//      decomposition of r into (eta, T) keeps T and moves eta).
//
// Accounting (add/remove-one adjacency, RDP; Mironov 2017 Prop. 1, adaptive composition): every
// trial run is a T-step Poisson-subsampled Gaussian at (sigma_i, q), and the final run's
// hyperparameters depend on all of them, so the release (the final run and the fitted line) is
//   eps_RDP(alpha) = K T rho_{sigma_1,q}(alpha) + K T rho_{sigma_2,q}(alpha) + T
//   rho_{sigma_f,q}(alpha)
// with rho the per-step RDP of the subsampled Gaussian, converted at delta (rdp_conversion.h).
// K is the grid size: public (every candidate trains once at each trial budget, as in private
// ma). The validation scores that pick the trial winners are public under the experiment's
// validation assumption "public" (main paper); validation "private" is refused for now.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "privacy/accounting/rdp_accountant.h"

namespace dplab::privacy {

// The default trial fractions f_1, f_2 of the final run's budget (ours: two trials that together
// cost well under the final run when K is small; change them per experiment).
inline constexpr double kDefaultTrialFractionLow = 0.1;
inline constexpr double kDefaultTrialFractionHigh = 0.25;

struct LinearScalingSetting {
  double trial_fraction_low = kDefaultTrialFractionLow;    // f_1 in (0, 1)
  double trial_fraction_high = kDefaultTrialFractionHigh;  // f_2 in (f_1, 1)
  int candidates = 1;                                      // K >= 1, runs per trial budget
};

// Steps 1-2: the budgets and noise multipliers of the two trial rounds.
struct LinearScalingBudgets {
  double final_epsilon = 0.0;        // eps_f, the final run alone
  double trial_epsilon[2] = {0, 0};  // eps_1, eps_2 (targets f_i eps_f)
  double trial_noise[2] = {0, 0};    // sigma_1, sigma_2 (each run at most eps_i)
};

// Throws InvalidArgument naming the field for fractions outside 0 < f_1 < f_2 < 1, sigma_f <= 0,
// q outside (0, 1], T < 1 or delta outside (0, 1); Error when no sigma reaches a trial budget.
LinearScalingBudgets linear_scaling_budgets(const SubsampledGaussian& final_run, double delta,
                                            const LinearScalingSetting& setting);

struct LinearScalingCost {
  double epsilon = 0.0;  // the whole procedure: both trial rounds and the final run
  double delta = 0.0;
  double epsilon_trials = 0.0;  // the 2K trial runs alone, at delta
  double epsilon_final = 0.0;   // the final run alone (= budgets.final_epsilon)
  LinearScalingBudgets budgets;
  std::vector<double> orders;  // rdp_orders()
  std::vector<double> rdp;     // the whole procedure's curve, the one `epsilon` converts
};

LinearScalingCost linear_scaling_cost(const SubsampledGaussian& final_run, double delta,
                                      const LinearScalingSetting& setting);

// Step 4: the line through (eps_1, r_1), (eps_2, r_2) at eps_f, or r_2 when the line gives a
// radius that is not > 0 (then *on_line, if given, is set to false; else to true). Throws
// InvalidArgument unless eps_1 < eps_2 and r_1, r_2 > 0.
double extrapolate_radius(double eps_1, double r_1, double eps_2, double r_2, double eps_f,
                          bool* on_line = nullptr);

}  // namespace dplab::privacy
