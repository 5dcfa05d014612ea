// Privacy of hyperparameter tuning on a Poisson subsample, then one final run (Koskela &
// Kulkarni 2023, "Practical differentially private hyperparameter tuning with subsampling",
// NeurIPS, arXiv 2301.11989; "KK23"). The procedure:
//   1. draw the tuning set X1 from the training set X by Poisson subsampling at rate q (each
//      record independently, with a seed: the draw never looks at the data);
//   2. run Papernot & Steinke's random search on X1 (K ~ Poisson(mu) or truncated negative
//      binomial; each of the K runs a fresh DP-SGD candidate on X1), keep only the best
//      candidate's HYPERPARAMETERS (its model, K and X1 are never released);
//   3. train ONE final model with those hyperparameters (transferred to the larger data by the
//      rule of experiment/hyperparameter_transfer.h, a heuristic that costs no privacy) and release
//      its results. Variant 1 (KK23 eq. 3.1): the final run trains on the whole of X.
//      Variant 2 (KK23 eq. 3.2): the final run trains on X2 = X \ X1, disjoint from X1.
//
// Accounting (add/remove-one adjacency, RDP at the integer orders 2..max_order):
//   eps_A(l)   = Papernot-Steinke RDP of step 2 on X1 (papernot_steinke.h: Thm 6 Poisson, Thm 2
//                TNB) from the per-candidate curve (T_sub steps of the subsampled Gaussian at
//                the subset's own lot sampling rate, plus the private score if any);
//   eps_B(l)   = the final run's curve (T steps of the subsampled Gaussian on its data).
//   Variant 1: eps(l) = eps_{A o Poisson_q}(l) + eps_B(l): the search's RDP amplified by the
//              Poisson draw of X1 with the GENERAL bound (Zhu & Wang 2019 Thm 6, factor 3;
//              poisson_subsampled_rdp.h), then adaptive composition with the final run
//              (Mironov 2017 Prop. 1: the final run's hyperparameters depend on step 2).
//   Variant 2 (derived here; KK23's printed eq. 3.2 could not be retrieved while writing this,
//              so this is our own derivation, not a transcription): with x the differing
//              record, x lands in X1 with probability q and in X2 otherwise, so the output
//              (h, y) has density P = q A'(h) B_h(y) + (1-q) A(h) B'_h(y) against Q = A(h) B_h(y)
//              without x. With a = A'/A and b = B'_h/B_h:
//     add:    E_Q[(P/Q)^l] = sum_k C(l,k) q^k (1-q)^{l-k} E_h[a^k E_y[b^{l-k} | h]]
//                          <= sum_k C(l,k) q^k (1-q)^{l-k} M_A(k) M_B(l-k),
//             M(j) = e^{(j-1) eps(j)} for j >= 2 and M(0) = M(1) = 1 (E[a] = E[b|h] = 1);
//     remove: E_P[(Q/P)^l] = E_Q[(q a + (1-q) b)^{1-l}] <= q E_Q[a^{1-l}] + (1-q) E_Q[b^{1-l}]
//                          <= q e^{(l-1) eps_A(l)} + (1-q) e^{(l-1) eps_B(l)}
//             (t -> t^{1-l} is convex for l > 1; E_Q[a^{1-l}] = E_{A'}[(A/A')^l]).
//     eps(l) = max(log add, log remove)/(l-1). q -> 0 gives eps_B, q = 1 gives eps_A.
//     Variant 1's bound also holds for variant 2, by the chain rule of adaptive composition
//     (Mironov 2017 Prop. 1's proof): the law of h is q A' + (1-q) A against A, i.e. the
//     Poisson-subsampled search (eps_{A o Poisson_q}); given h, the law of y is the mixture
//     w(h) B_h + (1-w(h)) B'_h against B_h (w(h) = q A'(h) / (q A'(h) + (1-q) A(h))), whose
//     divergence in either direction is at most eps_B by joint quasi-convexity. So variant 2
//     takes, order by order, the smaller of the two bounds: the direct one wins at large q, the
//     composed one at small q (where the remove term q e^{(l-1) eps_A(l)} is loose).
//   q = 1 (variant 1): the draw keeps everything and the tuning phase is EXACTLY Papernot-
//   Steinke on the full data (no factor 3 is paid; poisson_subsampled_rdp returns the curve).
// (eps, delta): the improved conversion over the integer orders (rdp_conversion.h).
//
// The subset's lot sampling rate (subset_sampling_rate): fixed BEFORE the draw from public
// quantities (q, the full n, L), never from the realised |X1| (which depends on the data):
//   same_sampling_rate  gamma_sub = gamma = L/n: lots of expected size gamma q n = q L, the same
//                       number of steps covers the same number of epochs (our default);
//   same_lot_size       gamma_sub = min(1, L/(q n)): lots of expected size L on X1.
// Note: per step, a record of X is in the lot with probability q gamma_sub, but the steps are
// NOT independent subsamplings of X (they share X1), so composing T steps at q gamma_sub would be
// wrong; the amplification by q is applied ONCE, to the whole search, as above.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "privacy/accounting/rdp_accountant.h"

namespace dplab::privacy {

enum class FinalRunData { kFullData, kComplement };  // KK23 variant 1, variant 2
enum class SubsetBatching { kSameSamplingRate, kSameLotSize };

// The number of candidate runs of the Papernot-Steinke search.
struct CandidateCountLaw {
  bool poisson = true;  // Poisson(mu); else truncated negative binomial (eta, gamma)
  double mu = 10.0;
  double eta = 1.0;
  double gamma = 0.1;
};

// E[K] of the law (Poisson: mu; TNB: papernot_steinke.h).
double expected_candidates(const CandidateCountLaw& law);

struct SubsampledTuningSetting {
  double tuning_fraction = 0.1;  // q, in (0, 1]
  CandidateCountLaw law;
  FinalRunData final_data = FinalRunData::kFullData;
  int max_order = 512;  // integer orders 2..max_order (all on the default grid)
};

struct SubsampledTuningCurves {
  std::vector<double> orders;      // 2, 3, ..., max_order
  std::vector<double> search_rdp;  // eps_A: Papernot-Steinke on X1 (before the draw of X1)
  std::vector<double> tuning_rdp;  // eps_{A o Poisson_q}: the tuning phase alone
  std::vector<double> final_rdp;   // eps_B
  std::vector<double> total_rdp;   // the whole procedure
};

// From per-run curves on `orders` (ascending, > 1, containing every integer 2..max_order, as
// rdp_orders() does): candidate_rdp = one candidate run on X1, final_rdp = the final run.
SubsampledTuningCurves subsampled_tuning_rdp(const std::vector<double>& orders,
                                             const std::vector<double>& candidate_rdp,
                                             const std::vector<double>& final_rdp,
                                             const SubsampledTuningSetting& setting);

struct SubsampledTuningCost {
  double epsilon = 0.0;  // the whole procedure: tuning phase AND final run
  double delta = 0.0;
  double best_order = 0.0;
  bool order_at_grid_edge = false;
  double epsilon_tuning_phase = 0.0;  // the (amplified) tuning phase alone, at delta
  double epsilon_final_run = 0.0;     // the final run alone, at delta
  double expected_candidates = 0.0;   // E[K]
};

SubsampledTuningCost subsampled_tuning_cost(const std::vector<double>& orders,
                                            const std::vector<double>& candidate_rdp,
                                            const std::vector<double>& final_rdp,
                                            const SubsampledTuningSetting& setting, double delta);

// Both phases DP-SGD: candidate_run on X1 (its sampling_rate relative to X1, e.g. from
// subset_sampling_rate), final_run on its data; curves on rdp_orders().
SubsampledTuningCost subsampled_tuning_cost(const SubsampledGaussian& candidate_run,
                                            const SubsampledGaussian& final_run,
                                            const SubsampledTuningSetting& setting, double delta);

// The subset's lot sampling rate (see above); full_sampling_rate = L/n in (0, 1], q in (0, 1].
double subset_sampling_rate(double full_sampling_rate, double tuning_fraction,
                            SubsetBatching batching);

}  // namespace dplab::privacy
