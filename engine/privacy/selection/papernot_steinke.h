// Papernot & Steinke (ICLR 2022), "Hyperparameter Tuning with Renyi Differential Privacy":
// run a DP mechanism Q a RANDOM number K of times (each run a fresh candidate, fresh noise) and
// release only the best output. The number of runs K is drawn independently of the data:
//
// - Truncated negative binomial D_{eta,gamma} (their Definition 1), eta in (-1, inf),
//   gamma in (0, 1): P[K = k] = (1-gamma)^k / (gamma^{-eta} - 1) * prod_{l=0}^{k-1} (l+eta)/(l+1),
//   k >= 1 (eta = 0: logarithmic, P[K = k] = (1-gamma)^k / (k log(1/gamma)); eta = 1: geometric).
//   E[K] = eta (1-gamma) / (gamma (1 - gamma^eta))   (eta = 0: (1/gamma - 1)/log(1/gamma)).
//   Theorem 2: if Q is (lambda, eps(lambda))-RDP and (lambda_hat, eps(lambda_hat))-RDP, the
//   selection is (lambda, eps')-RDP with
//     eps' = eps(lambda) + (1+eta)(1 - 1/lambda_hat) eps(lambda_hat)
//            + (1+eta) log(1/gamma)/lambda_hat + log(E[K])/(lambda - 1).
//   We take the best lambda_hat over the curve's orders and lambda_hat = 1 (where the eps term
//   vanishes), for every lambda.
// - Poisson(mu), mu >= 1 (K = 0 releases nothing; like dp_accounting we require mu >= 1, where
//   log(mu) >= 0: for mu < 1 the term log(mu)/(lambda-1) would push the bound below zero). Theorem
//   6: if Q is (lambda, eps(lambda))-RDP and (eps_hat, delta_hat)-DP with e^eps_hat <= 1 +
//   1/(lambda-1), the selection is (lambda, eps')-RDP with eps' = eps(lambda) + mu delta_hat +
//   log(mu)/(lambda - 1). delta_hat decreases in eps_hat, so eps_hat = log(1 + 1/(lambda-1)) (the
//   largest allowed) is optimal; delta_hat comes from Q's own RDP curve by the improved conversion
//   (rdp_conversion.h).
// Both bounds are then made monotone in the order (RDP grows with alpha, so the bound at a
// larger order also holds at a smaller one) and converted to (epsilon, delta) with the improved
// conversion over the grid of orders (rdp_conversion.h).
//
// The per-run curve may be anything valid for EVERY run: for candidates with different
// (sigma, q, T), pass the pointwise maximum of their curves (a run that first picks a candidate
// uniformly at random is a mixture, and Renyi divergence is jointly quasi-convex).
// Conservative direction: every value is an upper bound. Pure functions, thread-safe.
#pragma once

#include <vector>

#include "privacy/accounting/rdp_accountant.h"

namespace dplab::privacy {

// E[K] for K ~ D_{eta, gamma}; eta > -1, gamma in (0, 1).
double truncated_negative_binomial_mean(double eta, double gamma);

// RDP of the selection at each order of the per-run curve (orders ascending, > 1).
std::vector<double> papernot_steinke_poisson_rdp(const std::vector<double>& orders,
                                                 const std::vector<double>& rdp_per_run, double mu);
std::vector<double> papernot_steinke_tnb_rdp(const std::vector<double>& orders,
                                             const std::vector<double>& rdp_per_run, double eta,
                                             double gamma);

struct PapernotSteinkeCost {
  double epsilon = 0.0;  // of the whole selection (only the best run released)
  double delta = 0.0;
  double best_order = 0.0;
  bool order_at_grid_edge = false;
  double expected_runs = 0.0;    // E[K]
  double epsilon_per_run = 0.0;  // one run alone at the same delta (same grid), for comparison
};

// From a per-run RDP curve; delta in (0, 1).
PapernotSteinkeCost papernot_steinke_poisson(const std::vector<double>& orders,
                                             const std::vector<double>& rdp_per_run, double mu,
                                             double delta);
PapernotSteinkeCost papernot_steinke_tnb(const std::vector<double>& orders,
                                         const std::vector<double>& rdp_per_run, double eta,
                                         double gamma, double delta);

// Each run T steps of the Poisson-subsampled Gaussian (curve on rdp_orders(max_order)).
PapernotSteinkeCost papernot_steinke_poisson(const SubsampledGaussian& run, double mu, double delta,
                                             double max_order = kDefaultMaxOrder);
PapernotSteinkeCost papernot_steinke_tnb(const SubsampledGaussian& run, double eta, double gamma,
                                         double delta, double max_order = kDefaultMaxOrder);

}  // namespace dplab::privacy
