#include "privacy/selection/tuning_cost_series.h"

#include <algorithm>
#include <cmath>

#include "core/validate.h"
#include "privacy/accounting/default_delta.h"
#include "privacy/selection/papernot_steinke.h"

namespace dplab::privacy {
namespace {

SubsampledGaussian run_for(const TuningCostSetting& setting, std::int64_t n) {
  if (setting.lot_size < 1)
    fail_field("lot_size", static_cast<double>(setting.lot_size), "must be >= 1");
  if (n < setting.lot_size) {
    fail_field("dataset_size", static_cast<double>(n),
               "must be >= lot_size = " + format_number(static_cast<double>(setting.lot_size)));
  }
  return SubsampledGaussian{setting.noise_multiplier,
                            static_cast<double>(setting.lot_size) / static_cast<double>(n),
                            setting.steps};
}

// Liu-Talwar epsilon for run with stopping probability gamma, under the setting's delta2, log
// base and accounting options.
double lt_epsilon(const TuningCostSetting& setting, const SubsampledGaussian& run, double gamma,
                  double delta) {
  return liu_talwar_selection(run, gamma, delta, setting.delta2, setting.log_base,
                              setting.accounting)
      .epsilon;
}

}  // namespace

std::vector<std::int64_t> default_figure1_dataset_sizes() {
  return {5'000, 10'000, 20'000, 30'000, 60'000, 100'000, 200'000, 500'000, 950'000};
}

std::vector<LtBlowupPoint> lt_blowup_series(const TuningCostSetting& setting,
                                            const std::vector<std::int64_t>& dataset_sizes) {
  std::vector<LtBlowupPoint> points;
  for (std::int64_t n : dataset_sizes) {
    const SubsampledGaussian run = run_for(setting, n);
    LtBlowupPoint p;
    p.dataset_size = n;
    p.sampling_rate = run.sampling_rate;
    p.delta = default_delta(n);
    p.epsilon_single_run = epsilon_for_delta(run, p.delta, setting.accounting).epsilon;
    p.epsilon_lt = lt_epsilon(setting, run, 1.0, p.delta);
    p.blowup = p.epsilon_single_run > 0 ? p.epsilon_lt / p.epsilon_single_run : 0.0;
    points.push_back(p);
  }
  return points;
}

std::vector<LtGammaPoint> lt_epsilon_vs_gamma_series(const TuningCostSetting& setting,
                                                     const std::vector<std::int64_t>& dataset_sizes,
                                                     const std::vector<double>& gammas) {
  std::vector<LtGammaPoint> points;
  for (std::int64_t n : dataset_sizes) {
    const SubsampledGaussian run = run_for(setting, n);
    const double delta = default_delta(n);
    for (double gamma : gammas) {
      LtGammaPoint p;
      p.dataset_size = n;
      p.gamma = gamma;
      p.epsilon_lt = lt_epsilon(setting, run, gamma, delta);
      p.expected_candidates = 1.0 / gamma;
      points.push_back(p);
    }
  }
  return points;
}

std::vector<MaCandidatesPoint> ma_candidates_series(
    const TuningCostSetting& setting, const std::vector<std::int64_t>& dataset_sizes) {
  std::vector<MaCandidatesPoint> points;
  for (std::int64_t n : dataset_sizes) {
    const SubsampledGaussian run = run_for(setting, n);
    MaCandidatesPoint p;
    p.dataset_size = n;
    p.delta = default_delta(n);
    p.epsilon_lt = lt_epsilon(setting, run, 1.0, p.delta);
    p.candidates = ma_candidates_at_lt_cost(run, p.delta, setting.delta2, setting.log_base,
                                            setting.accounting);
    if (p.candidates > 0) {
      p.epsilon_ma =
          moments_accountant_selection(run, p.candidates, p.delta, setting.accounting).epsilon;
    }
    points.push_back(p);
  }
  return points;
}

std::vector<CandidatesPoint> epsilon_vs_candidates(const SubsampledGaussian& run, double delta,
                                                   int first, int last, double delta2,
                                                   LogBase log_base,
                                                   const AccountingOptions& options) {
  if (first < 1) fail_field("first", first, "must be >= 1");
  if (last < first) fail_field("last", last, "must be >= first = " + format_number(first));
  std::vector<CandidatesPoint> points;
  points.reserve(static_cast<std::size_t>(last - first + 1));
  for (int k = first; k <= last; ++k) {
    CandidatesPoint p;
    p.candidates = k;
    p.epsilon_ma = moments_accountant_selection(run, k, delta, options).epsilon;
    p.epsilon_lt = liu_talwar_selection(run, 1.0 / k, delta, delta2, log_base, options).epsilon;
    points.push_back(p);
  }
  return points;
}

std::vector<CandidatesPoint> figure6_series(const TuningCostSetting& setting,
                                            std::int64_t dataset_size, int max_candidates) {
  return epsilon_vs_candidates(run_for(setting, dataset_size), default_delta(dataset_size), 1,
                               max_candidates, setting.delta2, setting.log_base,
                               setting.accounting);
}

int ma_lt_crossover(const std::vector<CandidatesPoint>& points) {
  int last = 0;
  for (const auto& p : points) {
    if (p.epsilon_ma <= p.epsilon_lt) last = std::max(last, p.candidates);
  }
  return last;
}

std::vector<double> default_tuning_fractions() {
  std::vector<double> out;
  for (int i = 1; i <= 20; ++i) out.push_back(i / 20.0);
  return out;
}

std::vector<TuningFractionPoint> epsilon_vs_tuning_fraction(const SubsampledGaussian& run,
                                                            const CandidateCountLaw& law,
                                                            SubsetBatching batching, double delta,
                                                            const std::vector<double>& fractions,
                                                            double delta2) {
  require_positive("noise_multiplier", run.noise_multiplier);
  require_left_open_interval("sampling_rate", run.sampling_rate, 0.0, 1.0);
  if (run.steps < 1) fail_field("steps", static_cast<double>(run.steps), "must be >= 1");
  require_open_interval("delta", delta, 0.0, 1.0);
  const double mean_k = expected_candidates(law);
  const double steps = static_cast<double>(run.steps);
  // The full-data baselines do not depend on q.
  const std::vector<double> orders = rdp_orders();
  const auto curve = rdp_curve(run.noise_multiplier, run.sampling_rate);
  std::vector<double> one(curve->rdp_per_step);
  for (double& r : one) r *= steps;
  const PapernotSteinkeCost ps = law.poisson
                                     ? papernot_steinke_poisson(orders, one, law.mu, delta)
                                     : papernot_steinke_tnb(orders, one, law.eta, law.gamma, delta);
  const double lt_gamma = std::min(1.0, 1.0 / mean_k);
  const LtSelectionCost lt = liu_talwar_selection_enforced(orders, one, lt_gamma, delta, delta2);
  // E[min(Geometric(gamma), Upsilon)] = (1 - (1-gamma)^Upsilon) / gamma (1 when gamma = 1).
  const double lt_runs =
      lt_gamma == 1.0 ? 1.0 : -std::expm1(lt.upsilon * std::log1p(-lt_gamma)) / lt_gamma;
  std::vector<TuningFractionPoint> out;
  out.reserve(fractions.size());
  for (double q : fractions) {
    require_left_open_interval("tuning_fraction", q, 0.0, 1.0);
    const double rate_sub = subset_sampling_rate(run.sampling_rate, q, batching);
    const SubsampledGaussian candidate{run.noise_multiplier, rate_sub, run.steps};
    SubsampledTuningSetting setting;
    setting.tuning_fraction = q;
    setting.law = law;
    TuningFractionPoint p;
    p.tuning_fraction = q;
    p.epsilon_kk23 = subsampled_tuning_cost(candidate, run, setting, delta).epsilon;
    setting.final_data = FinalRunData::kComplement;
    p.epsilon_kk23_complement = subsampled_tuning_cost(candidate, run, setting, delta).epsilon;
    p.epsilon_ps_full = ps.epsilon;
    p.epsilon_lt_full = lt.epsilon;
    const double tuning_compute = mean_k * q * (rate_sub / run.sampling_rate);
    p.compute_kk23 = tuning_compute + 1.0;
    p.compute_kk23_complement = tuning_compute + (1.0 - q);
    p.compute_ps_full = mean_k;
    p.compute_lt_full = lt_runs;
    p.candidate_steps_kk23 = (mean_k + 1.0) * steps;
    p.candidate_steps_ps_full = mean_k * steps;
    p.candidate_steps_lt_full = lt_runs * steps;
    out.push_back(p);
  }
  return out;
}

}  // namespace dplab::privacy
