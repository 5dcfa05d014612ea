// Every number of the GUI's "Privacy of tuning" view for one setting, computed in one pure call so
// that the view can run it off the GUI thread and only draw (main paper section 3, appendix F):
//  - Figure 6: eps of the whole selection versus the number of candidates K = 1..K max, MA
//    (K runs composed in RDP) and LT with gamma = 1/K — or a fixed gamma, whose LT cost does not
//    depend on K —, the crossover "MA is cheaper up to K" and the number of MA candidates that fit
//    in LT's minimum cost (gamma = 1); optionally the same under the paper's accountant
//    (paper_compatible_options(), log2 in Upsilon);
//  - the tight-versus-paper accountant table (one run; LT at gamma = 1 and at gamma of K max;
//    MA at K max; MA candidates at LT's gamma = 1 cost);
//  - Figure 1's three panels over default_figure1_dataset_sizes() plus n (sizes below L dropped).
// All series come from tuning_cost_series.h and private_selection.h; thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "privacy/selection/tuning_cost_series.h"

namespace dplab::privacy {

struct TuningCostQuery {
  double noise_multiplier = 4.0;      // sigma
  std::int64_t lot_size = 250;        // L; q = min(1, L / n)
  std::int64_t steps = 10'000;        // T per candidate
  std::int64_t dataset_size = 60000;  // n of Figure 6 and the table (Figure 1 adds it)
  double delta = 1e-5;                // delta_f of Figure 6 and the table (resolved, in (0, 1))
  double fixed_gamma = 0.0;           // LT stopping probability; 0 = gamma = 1/K
  int max_candidates = 40;            // K max of Figure 6
  bool paper_accountant = false;      // also compute Figure 6 under the paper's accountant
};

// Rows of the comparison table; columns: 0 = dplab's tight accountant, 1 = the paper's.
enum ComparisonRow {
  kEpsilonOneRun,
  kEpsilonLtGammaOne,
  kEpsilonLtGammaOfKmax,  // the fixed gamma, else 1/K max
  kEpsilonMaKmax,
  kMaCandidatesAtLtCost,
  kComparisonRows
};

struct TuningCostOverview {
  TuningCostQuery query;
  double sampling_rate = 0;       // q
  double epsilon_single_run = 0;  // tight accountant, at query.delta
  std::vector<CandidatesPoint> figure6;
  std::vector<CandidatesPoint> figure6_paper;  // empty unless query.paper_accountant
  int crossover = 0;                           // ma_lt_crossover(figure6)
  int ma_candidates_at_lt_cost = 0;            // tight accountant
  std::array<std::array<double, 2>, kComparisonRows> comparison{};
  std::vector<std::int64_t> figure1_sizes;
  std::vector<LtBlowupPoint> figure1_blowup;
  std::vector<LtGammaPoint> figure1_gamma;
  std::vector<MaCandidatesPoint> figure1_ma;
};

// Throws InvalidArgument for a setting the accountant rejects (sigma <= 0, delta outside (0, 1)).
TuningCostOverview tuning_cost_overview(const TuningCostQuery& query);

}  // namespace dplab::privacy
