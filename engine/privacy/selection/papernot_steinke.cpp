#include "privacy/selection/papernot_steinke.h"

#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/rdp_conversion.h"

namespace dplab::privacy {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// bound[i] = min_{j >= i} bound[j]: RDP is non-decreasing in the order.
void make_monotone(std::vector<double>& bound) {
  for (std::size_t i = bound.size(); i-- > 1;) bound[i - 1] = std::min(bound[i - 1], bound[i]);
}

void validate_tnb(double eta, double gamma) {
  require_finite("eta", eta);
  if (!(eta > -1.0)) fail_field("eta", eta, "must be > -1");
  require_open_interval("gamma", gamma, 0.0, 1.0);
}

PapernotSteinkeCost finish(const std::vector<double>& orders,
                           const std::vector<double>& rdp_per_run,
                           const std::vector<double>& rdp_selection, double expected_runs,
                           double delta) {
  const EpsilonResult total = epsilon_from_rdp(orders, rdp_selection, delta);
  PapernotSteinkeCost cost;
  cost.epsilon = total.epsilon;
  cost.delta = delta;
  cost.best_order = total.best_order;
  cost.order_at_grid_edge = total.order_at_grid_edge;
  cost.expected_runs = expected_runs;
  cost.epsilon_per_run = epsilon_from_rdp(orders, rdp_per_run, delta).epsilon;
  return cost;
}

std::vector<double> run_curve(const SubsampledGaussian& run, double max_order,
                              std::vector<double>& orders) {
  require_positive("noise_multiplier", run.noise_multiplier);
  require_left_open_interval("sampling_rate", run.sampling_rate, 0.0, 1.0);
  if (run.steps < 1) fail_field("steps", static_cast<double>(run.steps), "must be >= 1");
  const auto curve = rdp_curve(run.noise_multiplier, run.sampling_rate, max_order);
  orders = curve->orders;
  std::vector<double> rdp(curve->rdp_per_step);
  for (double& r : rdp) r *= static_cast<double>(run.steps);
  return rdp;
}

}  // namespace

double truncated_negative_binomial_mean(double eta, double gamma) {
  validate_tnb(eta, gamma);
  const double log_gamma = std::log(gamma);
  if (eta == 0.0) return (1.0 - gamma) / (gamma * -log_gamma);
  // eta (1-gamma) / (gamma (1 - gamma^eta)), with 1 - gamma^eta = -expm1(eta log gamma).
  return eta * (1.0 - gamma) / (gamma * -std::expm1(eta * log_gamma));
}

std::vector<double> papernot_steinke_poisson_rdp(const std::vector<double>& orders,
                                                 const std::vector<double>& rdp_per_run,
                                                 double mu) {
  validate_rdp_curve(orders, rdp_per_run, "rdp_per_run");
  require_at_least("mu", mu, 1.0);
  std::vector<double> out(orders.size(), kInf);
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double lambda = orders[i];
    const double eps_hat = std::log1p(1.0 / (lambda - 1.0));  // e^eps_hat = 1 + 1/(lambda-1)
    const double delta_hat = delta_from_rdp(orders, rdp_per_run, eps_hat);
    out[i] = rdp_per_run[i] + mu * delta_hat + std::log(mu) / (lambda - 1.0);
  }
  make_monotone(out);
  for (double& r : out) r = std::max(r, 0.0);
  return out;
}

std::vector<double> papernot_steinke_tnb_rdp(const std::vector<double>& orders,
                                             const std::vector<double>& rdp_per_run, double eta,
                                             double gamma) {
  validate_rdp_curve(orders, rdp_per_run, "rdp_per_run");
  const double mean = truncated_negative_binomial_mean(eta, gamma);
  const double log_inv_gamma = -std::log(gamma);
  // min over lambda_hat of (1 - 1/lambda_hat) eps(lambda_hat) + log(1/gamma)/lambda_hat;
  // lambda_hat = 1 gives log(1/gamma).
  double hat_term = log_inv_gamma;
  for (std::size_t j = 0; j < orders.size(); ++j) {
    const double lh = orders[j];
    hat_term = std::min(hat_term, (1.0 - 1.0 / lh) * rdp_per_run[j] + log_inv_gamma / lh);
  }
  const double constant = (1.0 + eta) * hat_term;
  std::vector<double> out(orders.size());
  for (std::size_t i = 0; i < orders.size(); ++i) {
    out[i] = rdp_per_run[i] + constant + std::log(mean) / (orders[i] - 1.0);
  }
  make_monotone(out);
  for (double& r : out) r = std::max(r, 0.0);
  return out;
}

PapernotSteinkeCost papernot_steinke_poisson(const std::vector<double>& orders,
                                             const std::vector<double>& rdp_per_run, double mu,
                                             double delta) {
  return finish(orders, rdp_per_run, papernot_steinke_poisson_rdp(orders, rdp_per_run, mu), mu,
                delta);
}

PapernotSteinkeCost papernot_steinke_tnb(const std::vector<double>& orders,
                                         const std::vector<double>& rdp_per_run, double eta,
                                         double gamma, double delta) {
  return finish(orders, rdp_per_run, papernot_steinke_tnb_rdp(orders, rdp_per_run, eta, gamma),
                truncated_negative_binomial_mean(eta, gamma), delta);
}

PapernotSteinkeCost papernot_steinke_poisson(const SubsampledGaussian& run, double mu, double delta,
                                             double max_order) {
  std::vector<double> orders;
  const std::vector<double> rdp = run_curve(run, max_order, orders);
  return papernot_steinke_poisson(orders, rdp, mu, delta);
}

PapernotSteinkeCost papernot_steinke_tnb(const SubsampledGaussian& run, double eta, double gamma,
                                         double delta, double max_order) {
  std::vector<double> orders;
  const std::vector<double> rdp = run_curve(run, max_order, orders);
  return papernot_steinke_tnb(orders, rdp, eta, gamma, delta);
}

}  // namespace dplab::privacy
