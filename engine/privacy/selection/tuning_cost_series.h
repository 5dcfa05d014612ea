// Data series of the main paper's Figure 1 and Figure 6 (section 3; appendix F), as pure
// functions that the GUI charts and the CLI both call. Setting (paper): sigma = 4, L = 250,
// T = 10,000, q = L/n, delta = default_delta(n) (1/n rounded down to a power of ten).
//
// - Figure 1 left:   LT blow-up eps_LT(gamma = 1)/eps_single_run versus n.
// - Figure 1 middle: eps_LT versus gamma (paper: 1, 0.1, 0.01, 0.001) for several n.
// - Figure 1 right:  MA candidates affordable at the LT (gamma = 1) cost versus n.
// - Figure 6:        eps versus the number of candidates K: MA (K runs composed in RDP) and
//                    LT with gamma = 1/K.
// The paper's own numbers come from its accountant (classic conversion, continuous orders):
// use TuningCostSetting::accounting = paper_compatible_options() to reproduce them; the default
// is dplab's tighter accountant. Thread-safe; each point costs a few microseconds once the
// per-(sigma, q) RDP curve is cached.
#pragma once

#include <cstdint>
#include <vector>

#include "privacy/accounting/rdp_accountant.h"
#include "privacy/selection/private_selection.h"
#include "privacy/selection/subsampled_tuning.h"

namespace dplab::privacy {

struct TuningCostSetting {
  double noise_multiplier = 4.0;
  std::int64_t lot_size = 250;  // L; q = L / n
  std::int64_t steps = 10'000;  // T per candidate
  double delta2 = kDefaultDelta2;
  LogBase log_base = LogBase::kNatural;
  AccountingOptions accounting = {};
};

// n values spanning the paper's x-axis (5,000 .. 950,000).
std::vector<std::int64_t> default_figure1_dataset_sizes();

struct LtBlowupPoint {
  std::int64_t dataset_size = 0;
  double sampling_rate = 0.0;
  double delta = 0.0;
  double epsilon_single_run = 0.0;  // one run at delta
  double epsilon_lt = 0.0;          // LT with gamma = 1 at the same delta
  double blowup = 0.0;              // epsilon_lt / epsilon_single_run
};
std::vector<LtBlowupPoint> lt_blowup_series(const TuningCostSetting& setting,
                                            const std::vector<std::int64_t>& dataset_sizes);

struct LtGammaPoint {
  std::int64_t dataset_size = 0;
  double gamma = 1.0;
  double expected_candidates = 1.0;  // 1/gamma
  double epsilon_lt = 0.0;
};
std::vector<LtGammaPoint> lt_epsilon_vs_gamma_series(const TuningCostSetting& setting,
                                                     const std::vector<std::int64_t>& dataset_sizes,
                                                     const std::vector<double>& gammas = {
                                                         1.0, 0.1, 0.01, 0.001});

struct MaCandidatesPoint {
  std::int64_t dataset_size = 0;
  double delta = 0.0;
  double epsilon_lt = 0.0;  // the budget: LT with gamma = 1
  int candidates = 0;       // largest K with eps_MA(K) <= epsilon_lt
  double epsilon_ma = 0.0;  // eps_MA at that K
};
std::vector<MaCandidatesPoint> ma_candidates_series(const TuningCostSetting& setting,
                                                    const std::vector<std::int64_t>& dataset_sizes);

struct CandidatesPoint {
  int candidates = 1;
  double epsilon_ma = 0.0;
  double epsilon_lt = 0.0;  // gamma = 1/K
};
// eps versus K for K = first..last, for any run (the CLI's --sweep-candidates).
std::vector<CandidatesPoint> epsilon_vs_candidates(const SubsampledGaussian& run, double delta,
                                                   int first, int last,
                                                   double delta2 = kDefaultDelta2,
                                                   LogBase log_base = LogBase::kNatural,
                                                   const AccountingOptions& options = {});
// Figure 6 for data set size n: K = 1..max_candidates in the paper's setting.
std::vector<CandidatesPoint> figure6_series(const TuningCostSetting& setting,
                                            std::int64_t dataset_size, int max_candidates);

// Largest K in the series whose MA cost is <= the LT cost at gamma = 1/K (0 if none): the
// crossover that Figure 6 reports (paper: 14 at n = 5k, 26 at n = 60k).
int ma_lt_crossover(const std::vector<CandidatesPoint>& points);

// Epsilon of the WHOLE tuning procedure versus the tuning fraction q (Koskela & Kulkarni 2023,
// subsampled_tuning.h), beside the honest baselines on the full data, for one DP-SGD setting
// `run` (sigma, rate gamma = L/n, T) that every candidate and the final run share:
//   kk23             tuning on a Poisson-q subsample (rate subset_sampling_rate(gamma, q,
//                    batching) on it), then the final run on the full data (variant 1);
//   kk23_complement  the same, final run on X \ X1 (variant 2, our derived bound);
//   ps_full          Papernot-Steinke on the full data with the same candidate law, its best
//                    run released directly (no final run): flat in q;
//   lt_full          Liu-Talwar on the full data with gamma_LT = 1/E[K] and the integer hard stop
//                    dplab enforces (private_selection.h), delta2 as given: flat in q.
// Compute, in units of one full-data run (T steps of expected lots gamma n): kk23 = E[K] q
// (gamma_sub/gamma) + 1 (complement: + (1 - q)); ps_full = E[K]; lt_full = E[min(Geom, Upsilon)].
// Candidate-steps (noisy-gradient steps, whatever the lot size): kk23 = (E[K] + 1) T, ps_full =
// E[K] T, lt_full = E[runs] T. All epsilons at the same delta. Thread-safe.
struct TuningFractionPoint {
  double tuning_fraction = 1.0;  // q
  double epsilon_kk23 = 0.0;
  double epsilon_kk23_complement = 0.0;
  double epsilon_ps_full = 0.0;
  double epsilon_lt_full = 0.0;
  double compute_kk23 = 0.0;  // in full-data runs
  double compute_kk23_complement = 0.0;
  double compute_ps_full = 0.0;
  double compute_lt_full = 0.0;
  double candidate_steps_kk23 = 0.0;
  double candidate_steps_ps_full = 0.0;
  double candidate_steps_lt_full = 0.0;
};

// 0.05, 0.10, ..., 1.00 (each the double nearest the decimal).
std::vector<double> default_tuning_fractions();

// fractions in (0, 1]; delta in (0, 1); delta2 in (0, delta).
std::vector<TuningFractionPoint> epsilon_vs_tuning_fraction(
    const SubsampledGaussian& run, const CandidateCountLaw& law, SubsetBatching batching,
    double delta, const std::vector<double>& fractions = default_tuning_fractions(),
    double delta2 = kDefaultDelta2);

}  // namespace dplab::privacy
