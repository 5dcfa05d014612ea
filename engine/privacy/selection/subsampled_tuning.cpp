#include "privacy/selection/subsampled_tuning.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"
#include "privacy/accounting/poisson_subsampled_rdp.h"
#include "privacy/accounting/rdp_conversion.h"
#include "privacy/selection/papernot_steinke.h"

namespace dplab::privacy {
namespace {

using detail::kNegInf;
constexpr double kInf = std::numeric_limits<double>::infinity();

void validate_setting(const SubsampledTuningSetting& s) {
  require_finite("tuning_fraction", s.tuning_fraction);
  if (!(s.tuning_fraction > 0.0 && s.tuning_fraction <= 1.0)) {
    fail_field("tuning_fraction", s.tuning_fraction, "must be in (0, 1]");
  }
  if (s.max_order < 2 || s.max_order > 100000) {
    fail_field("max_order", s.max_order, "must be an integer in [2, 100000]");
  }
}

// log M(j) = (j-1) eps(j) for j >= 2, 0 for j = 0, 1; curve[i] = eps(i + 2).
double log_moment(const std::vector<double>& curve, std::size_t j) {
  if (j < 2) return 0.0;
  return (static_cast<double>(j) - 1.0) * curve[j - 2];
}

// Variant 2 (final run on X \ X1), derived in subsampled_tuning.h: the max of the add and
// remove bounds at every integer order.
std::vector<double> complement_total(const std::vector<double>& search,
                                     const std::vector<double>& final_run, double q) {
  const double log_q = std::log(q);
  const double log_1mq = q < 1.0 ? std::log1p(-q) : kNegInf;
  std::vector<double> out(search.size(), kInf);
  for (std::size_t lambda = 2; lambda < search.size() + 2; ++lambda) {
    if (std::isinf(search[lambda - 2]) || std::isinf(final_run[lambda - 2])) continue;
    const double l = static_cast<double>(lambda);
    // add: sum_k C(l,k) q^k (1-q)^{l-k} M_A(k) M_B(l-k).
    double log_add = kNegInf;
    double log_binom = 0.0;  // log C(l, 0)
    for (std::size_t k = 0; k <= lambda; ++k) {
      const double kd = static_cast<double>(k);
      if (k > 0) log_binom += std::log(l - kd + 1.0) - std::log(kd);
      const double weight_q = k == 0 ? 0.0 : kd * log_q;
      const double weight_1mq = k == lambda ? 0.0 : (l - kd) * log_1mq;
      const double term = log_binom + weight_q + weight_1mq + log_moment(search, k) +
                          log_moment(final_run, lambda - k);
      log_add = detail::log_add(log_add, term);
    }
    // remove: q e^{(l-1) eps_A(l)} + (1-q) e^{(l-1) eps_B(l)}.
    const double log_remove = detail::log_add(log_q + log_moment(search, lambda),
                                              log_1mq + log_moment(final_run, lambda));
    out[lambda - 2] = std::max(std::max(log_add, log_remove) / (l - 1.0), 0.0);
  }
  return out;
}

}  // namespace

double expected_candidates(const CandidateCountLaw& law) {
  if (law.poisson) {
    require_at_least("mu", law.mu, 1.0);
    return law.mu;
  }
  return truncated_negative_binomial_mean(law.eta, law.gamma);
}

SubsampledTuningCurves subsampled_tuning_rdp(const std::vector<double>& orders,
                                             const std::vector<double>& candidate_rdp,
                                             const std::vector<double>& final_rdp,
                                             const SubsampledTuningSetting& setting) {
  validate_setting(setting);
  validate_rdp_curve(orders, candidate_rdp, "candidate_rdp");
  validate_rdp_curve(orders, final_rdp, "final_rdp");
  const CandidateCountLaw& law = setting.law;
  // Papernot-Steinke on the full grid of the caller (fractional orders help its delta_hat and
  // lambda_hat terms), then read at the integer orders the subsampling bound needs.
  const std::vector<double> search_full =
      law.poisson ? papernot_steinke_poisson_rdp(orders, candidate_rdp, law.mu)
                  : papernot_steinke_tnb_rdp(orders, candidate_rdp, law.eta, law.gamma);
  SubsampledTuningCurves curves;
  curves.orders = integer_orders(setting.max_order);
  curves.search_rdp = rdp_at_integer_orders(orders, search_full, setting.max_order);
  curves.final_rdp = rdp_at_integer_orders(orders, final_rdp, setting.max_order);
  curves.tuning_rdp = poisson_subsampled_rdp(curves.search_rdp, setting.tuning_fraction,
                                             SubsamplingBound::kGeneral);
  if (setting.final_data == FinalRunData::kFullData) {
    curves.total_rdp = curves.tuning_rdp;
    for (std::size_t i = 0; i < curves.total_rdp.size(); ++i) {
      curves.total_rdp[i] += curves.final_rdp[i];
    }
  } else {
    // The smaller of the direct bound and variant 1's (each is valid, see the header).
    curves.total_rdp =
        complement_total(curves.search_rdp, curves.final_rdp, setting.tuning_fraction);
    for (std::size_t i = 0; i < curves.total_rdp.size(); ++i) {
      curves.total_rdp[i] =
          std::min(curves.total_rdp[i], curves.tuning_rdp[i] + curves.final_rdp[i]);
    }
  }
  return curves;
}

SubsampledTuningCost subsampled_tuning_cost(const std::vector<double>& orders,
                                            const std::vector<double>& candidate_rdp,
                                            const std::vector<double>& final_rdp,
                                            const SubsampledTuningSetting& setting, double delta) {
  require_open_interval("delta", delta, 0.0, 1.0);
  const SubsampledTuningCurves curves =
      subsampled_tuning_rdp(orders, candidate_rdp, final_rdp, setting);
  const EpsilonResult total = epsilon_from_rdp(curves.orders, curves.total_rdp, delta);
  SubsampledTuningCost cost;
  cost.epsilon = total.epsilon;
  cost.delta = delta;
  cost.best_order = total.best_order;
  cost.order_at_grid_edge = total.order_at_grid_edge;
  cost.epsilon_tuning_phase = epsilon_from_rdp(curves.orders, curves.tuning_rdp, delta).epsilon;
  cost.epsilon_final_run = epsilon_from_rdp(curves.orders, curves.final_rdp, delta).epsilon;
  cost.expected_candidates = expected_candidates(setting.law);
  return cost;
}

SubsampledTuningCost subsampled_tuning_cost(const SubsampledGaussian& candidate_run,
                                            const SubsampledGaussian& final_run,
                                            const SubsampledTuningSetting& setting, double delta) {
  for (const SubsampledGaussian* run : {&candidate_run, &final_run}) {
    require_positive("noise_multiplier", run->noise_multiplier);
    require_left_open_interval("sampling_rate", run->sampling_rate, 0.0, 1.0);
    if (run->steps < 1) fail_field("steps", static_cast<double>(run->steps), "must be >= 1");
  }
  const std::vector<double> orders = rdp_orders();
  auto steps_curve = [&](const SubsampledGaussian& run) {
    const auto curve = rdp_curve(run.noise_multiplier, run.sampling_rate);
    std::vector<double> rdp(curve->rdp_per_step);
    for (double& r : rdp) r *= static_cast<double>(run.steps);
    return rdp;
  };
  return subsampled_tuning_cost(orders, steps_curve(candidate_run), steps_curve(final_run), setting,
                                delta);
}

double subset_sampling_rate(double full_sampling_rate, double tuning_fraction,
                            SubsetBatching batching) {
  require_left_open_interval("sampling_rate", full_sampling_rate, 0.0, 1.0);
  require_left_open_interval("tuning_fraction", tuning_fraction, 0.0, 1.0);
  if (batching == SubsetBatching::kSameSamplingRate) return full_sampling_rate;
  return std::min(1.0, full_sampling_rate / tuning_fraction);
}

}  // namespace dplab::privacy
