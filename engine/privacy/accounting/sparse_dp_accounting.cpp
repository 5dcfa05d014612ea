#include "privacy/accounting/sparse_dp_accounting.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/validate.h"
#include "privacy/accounting/log_space.h"
#include "privacy/accounting/rdp_conversion.h"

namespace dplab::privacy {
namespace {

double gaussian_epsilon(double sigma, double step_delta) {
  return std::sqrt(2.0 * std::log(1.25 / step_delta)) / sigma;
}

double log_binomial(int n, int k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

constexpr int kMaxOrder = 256;

}  // namespace

Theorem3Result theorem3_epsilon(const Theorem3Input& in) {
  require_positive("dataset_size", in.dataset_size);
  require_left_open_interval("lot_size", in.lot_size, 0, in.dataset_size);
  require_at_least("steps", static_cast<double>(in.steps), 1);
  require_positive("noise_multiplier", in.noise_multiplier);
  require_non_negative("selection_epsilon", in.selection_epsilon);
  require_open_interval("step_delta", in.step_delta, 0, 1);
  const double q = in.lot_size / in.dataset_size;
  const double t = static_cast<double>(in.steps);
  Theorem3Result r;
  r.gaussian_epsilon = gaussian_epsilon(in.noise_multiplier, in.step_delta);
  const double step_on_lot = in.selection_epsilon + r.gaussian_epsilon;  // eps0
  // Poisson amplification (Balle, Barthe & Gaboardi 2018, Thm 8): ln(1 + q (e^eps0 - 1)).
  r.step_epsilon = std::log1p(q * std::expm1(step_on_lot));
  r.paper_step_epsilon = q * step_on_lot;  // the paper's Lemma 1 as printed
  r.step_delta = 2.0 * q * in.step_delta;
  const double slack = t * r.step_delta;  // the strong composition's delta-tilde
  if (!(slack < 1)) fail_field("step_delta", in.step_delta, "makes T * delta~ >= 1");
  // KOV15 Thm 3.2: T eps~ (e^eps~ - 1) + eps~ sqrt(2 T log(1/(T delta~))).
  const auto strong_composition = [&](double step) {
    return t * step * std::expm1(step) + step * std::sqrt(2.0 * t * std::log(1.0 / slack));
  };
  r.epsilon = strong_composition(r.step_epsilon);
  r.paper_epsilon = strong_composition(r.paper_step_epsilon);
  r.epsilon_closed_form = 4.0 * q * std::sqrt(t * std::log(1.0 / slack)) * step_on_lot;
  r.delta = 2.0 * t * r.step_delta;
  r.assumption_holds = r.paper_step_epsilon <= 1.0 / std::sqrt(t);
  r.gaussian_lemma_applies = r.gaussian_epsilon <= 1.0;
  r.sampling_lemma_applies = in.selection_epsilon + r.gaussian_epsilon <= 1.0;
  return r;
}

Theorem3Calibration theorem3_calibrate(double n, double b, std::int64_t steps, double epsilon_noise,
                                       double epsilon_selection, double delta) {
  require_positive("dataset_size", n);
  require_left_open_interval("lot_size", b, 0, n);
  require_at_least("steps", static_cast<double>(steps), 1);
  require_positive("epsilon_noise", epsilon_noise);
  require_non_negative("epsilon_selection", epsilon_selection);
  require_open_interval("delta", delta, 0, 1);
  const double t = static_cast<double>(steps);
  Theorem3Calibration c;
  c.step_delta = delta * n / (4.0 * b * t);
  if (!(c.step_delta < 1)) fail_field("delta", delta, "gives a per-step delta' >= 1");
  const double f = 4.0 * (b / n) * std::sqrt(t * std::log(n / (2.0 * b * t * c.step_delta)));
  c.selection_epsilon = epsilon_selection / f;
  c.noise_multiplier = f * std::sqrt(2.0 * std::log(1.25 / c.step_delta)) / epsilon_noise;
  return c;
}

double poisson_subsampled_rdp_bound(const double* rdp, int a, double q) {
  if (q >= 1.0) {  // no subsampling: the bound's q = 1 form is looser than eps(a) itself
    return rdp[a];
  }
  const double log_q = std::log(q), log_1mq = std::log1p(-q);
  // (1-q)^{a-1} (a q - q + 1)
  double total = (a - 1) * log_1mq + std::log1p((a - 1) * q);
  total = detail::log_add(total, log_binomial(a, 2) + 2 * log_q + (a - 2) * log_1mq + rdp[2]);
  for (int l = 3; l <= a; ++l) {
    total = detail::log_add(total, std::log(3.0) + log_binomial(a, l) + (a - l) * log_1mq +
                                       l * log_q + (l - 1) * rdp[l]);
  }
  return std::max(total, 0.0) / (a - 1);
}

RdpEpsilon sparse_dp_rdp_epsilon(const SparseDpRdpInput& in, double delta) {
  require_left_open_interval("sampling_rate", in.sampling_rate, 0, 1);
  require_at_least("steps", static_cast<double>(in.steps), 0);
  require_positive("noise_multiplier", in.noise_multiplier);
  require_positive("lot_size", in.lot_size);
  require_positive("S1", in.clip1);
  if (!(in.clip2 > 0)) fail_field("S2", in.clip2, "must be > 0");
  require_open_interval("delta", delta, 0, 1);
  RdpEpsilon out;
  out.delta = delta;
  const double per_example = in.clip1 / in.lot_size;
  const double noise_std = in.noise_multiplier * std::min(per_example, in.clip2);
  const double sensitivity = std::min(per_example, 2.0 * in.clip2);
  out.effective_noise_multiplier = noise_std / sensitivity;
  if (in.selection == SelectionKind::kSparseVector) return out;  // not available
  out.available = true;
  double zcdp_selection = 0, pure_selection = 0;
  if (in.selection == SelectionKind::kExponential) {
    require_positive("draw_epsilon", in.draw_epsilon);
    zcdp_selection = static_cast<double>(in.draws) * in.draw_epsilon * in.draw_epsilon / 8.0;
    pure_selection = static_cast<double>(in.draws) * in.draw_epsilon;
  }
  const double rho_gaussian =
      1.0 / (2.0 * out.effective_noise_multiplier * out.effective_noise_multiplier);
  std::vector<double> rdp(kMaxOrder + 1, 0.0);
  for (int l = 2; l <= kMaxOrder; ++l) {
    const double selection = in.selection == SelectionKind::kExponential
                                 ? std::min(l * zcdp_selection, pure_selection)
                                 : 0.0;
    rdp[l] = selection + l * rho_gaussian;
  }
  const double t = static_cast<double>(in.steps);
  std::vector<double> orders, total;
  for (int a = 2; a <= kMaxOrder; ++a) {
    orders.push_back(a);
    total.push_back(t * poisson_subsampled_rdp_bound(rdp.data(), a, in.sampling_rate));
  }
  const EpsilonResult converted = epsilon_from_rdp(orders, total, delta);
  out.epsilon = converted.epsilon;
  out.best_order = converted.best_order;
  return out;
}

}  // namespace dplab::privacy
