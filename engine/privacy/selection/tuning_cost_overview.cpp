// The "Privacy of tuning" numbers in one call. See tuning_cost_overview.h.
#include "privacy/selection/tuning_cost_overview.h"

#include <algorithm>

namespace dplab::privacy {
namespace {

// Figure 6 under one accountant; a fixed gamma replaces LT's 1/K by that gamma at every K.
std::vector<CandidatesPoint> figure6_points(const TuningCostQuery& query,
                                            const SubsampledGaussian& run, LogBase base,
                                            const AccountingOptions& options) {
  std::vector<CandidatesPoint> points = epsilon_vs_candidates(
      run, query.delta, 1, query.max_candidates, kDefaultDelta2, base, options);
  if (query.fixed_gamma > 0) {
    const double lt =
        liu_talwar_selection(run, query.fixed_gamma, query.delta, kDefaultDelta2, base, options)
            .epsilon;
    for (auto& p : points) p.epsilon_lt = lt;
  }
  return points;
}

}  // namespace

TuningCostOverview tuning_cost_overview(const TuningCostQuery& query) {
  TuningCostOverview out;
  out.query = query;
  out.sampling_rate =
      std::min(1.0, static_cast<double>(query.lot_size) / static_cast<double>(query.dataset_size));
  const SubsampledGaussian run{query.noise_multiplier, out.sampling_rate, query.steps};
  const AccountingOptions tight{};
  const AccountingOptions paper = paper_compatible_options();

  out.figure6 = figure6_points(query, run, LogBase::kNatural, tight);
  out.crossover = ma_lt_crossover(out.figure6);
  out.ma_candidates_at_lt_cost = ma_candidates_at_lt_cost(run, query.delta);
  out.epsilon_single_run = epsilon_for_delta(run, query.delta).epsilon;
  if (query.paper_accountant) out.figure6_paper = figure6_points(query, run, LogBase::kTwo, paper);

  const double gamma_of_kmax =
      query.fixed_gamma > 0 ? query.fixed_gamma : 1.0 / query.max_candidates;
  for (int col = 0; col < 2; ++col) {
    const AccountingOptions& o = col == 0 ? tight : paper;
    const LogBase base = col == 0 ? LogBase::kNatural : LogBase::kTwo;
    out.comparison[kEpsilonOneRun][col] = epsilon_for_delta(run, query.delta, o).epsilon;
    out.comparison[kEpsilonLtGammaOne][col] =
        liu_talwar_selection(run, 1.0, query.delta, kDefaultDelta2, base, o).epsilon;
    out.comparison[kEpsilonLtGammaOfKmax][col] =
        liu_talwar_selection(run, gamma_of_kmax, query.delta, kDefaultDelta2, base, o).epsilon;
    out.comparison[kEpsilonMaKmax][col] =
        moments_accountant_selection(run, query.max_candidates, query.delta, o).epsilon;
    out.comparison[kMaCandidatesAtLtCost][col] =
        ma_candidates_at_lt_cost(run, query.delta, kDefaultDelta2, base, o);
  }

  // Figure 1: the paper's sizes plus n, keeping sizes where a lot fits (n >= L, n >= 2).
  std::vector<std::int64_t> sizes = default_figure1_dataset_sizes();
  if (std::find(sizes.begin(), sizes.end(), query.dataset_size) == sizes.end()) {
    sizes.push_back(query.dataset_size);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::remove_if(sizes.begin(), sizes.end(),
                             [&](std::int64_t s) { return s < query.lot_size || s < 2; }),
              sizes.end());
  TuningCostSetting setting;
  setting.noise_multiplier = query.noise_multiplier;
  setting.lot_size = query.lot_size;
  setting.steps = query.steps;
  out.figure1_sizes = sizes;
  out.figure1_blowup = lt_blowup_series(setting, sizes);
  out.figure1_gamma = lt_epsilon_vs_gamma_series(setting, sizes);
  out.figure1_ma = ma_candidates_series(setting, sizes);
  return out;
}

}  // namespace dplab::privacy
