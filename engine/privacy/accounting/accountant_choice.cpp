#include "privacy/accounting/accountant_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/rdp_conversion.h"

namespace dplab::privacy {
namespace {

AccountedEpsilon from_pld(const PldEpsilon& p) {
  AccountedEpsilon e;
  e.epsilon = p.epsilon;
  e.delta = p.delta;
  e.accountant = Accountant::kPld;
  e.pld_error_bound = p.error_bound;
  e.pld_discretization = p.discretization;
  e.pld_tail_mass = p.tail_mass;
  return e;
}

AccountedEpsilon from_rdp(double epsilon, double delta, double order) {
  AccountedEpsilon e;
  e.epsilon = epsilon;
  e.delta = delta;
  e.accountant = Accountant::kRdp;
  e.rdp_best_order = order;
  return e;
}

}  // namespace

const char* to_string(Accountant accountant) {
  return accountant == Accountant::kPld ? "pld" : "rdp";
}

Accountant parse_accountant(std::string_view text) {
  if (text == "rdp") return Accountant::kRdp;
  if (text == "pld") return Accountant::kPld;
  throw InvalidArgument("accountant = \"" + std::string(text) + "\" must be rdp or pld");
}

std::string accountant_label(const AccountedEpsilon& e) {
  if (e.accountant == Accountant::kRdp) return "accountant: rdp";
  char buffer[160];
  std::snprintf(
      buffer, sizeof buffer,
      "accountant: pld (estimated error ~ %.2g (Richardson), grid %.2g, tail %.2g in delta)",
      e.pld_error_bound, e.pld_discretization, e.pld_tail_mass);
  return buffer;
}

AccountedEpsilon run_epsilon(const SubsampledGaussian& run, int candidates, double delta,
                             Accountant accountant, const PldOptions& pld,
                             const AccountingOptions& rdp) {
  if (candidates < 1) fail_field("candidates", candidates, "must be >= 1");
  if (accountant == Accountant::kPld)
    return from_pld(pld_selection_epsilon(run, candidates, delta, pld));
  if (candidates == 1) {
    const auto r = epsilon_for_delta(run, delta, rdp);
    return from_rdp(r.epsilon, delta, r.best_order);
  }
  // MA: the K runs composed (rdp_accountant.h composed_runs).
  const auto r = epsilon_for_delta(composed_runs(run, candidates), delta, rdp);
  return from_rdp(r.epsilon, delta, r.best_order);
}

AccountedEpsilon runs_epsilon(std::span<const SubsampledGaussian> runs, double delta,
                              Accountant accountant, const PldOptions& pld,
                              const AccountingOptions& rdp) {
  require_open_interval("delta", delta, 0.0, 1.0);
  if (accountant == Accountant::kPld) return from_pld(pld_epsilon_for_delta(runs, delta, pld));
  // RDP: eps_RDP,total(alpha) = sum_i T_i eps_i(alpha) (Mironov 2017, Prop. 1) on the shared
  // order grid, converted by rdp_conversion.h (improved conversion over those orders).
  const auto orders = rdp_orders(rdp.max_order);
  std::vector<double> total(orders.size(), 0.0);
  bool any = false;
  for (const auto& run : runs) {
    if (run.steps < 0) fail_field("steps", static_cast<double>(run.steps), "must be >= 0");
    if (run.steps == 0 || run.sampling_rate == 0.0) continue;
    if (run.noise_multiplier == 0.0)
      return from_rdp(std::numeric_limits<double>::infinity(), delta, 0.0);
    const auto curve = rdp_curve(run.noise_multiplier, run.sampling_rate, rdp.max_order);
    for (std::size_t i = 0; i < orders.size(); ++i)
      total[i] += static_cast<double>(run.steps) * curve->rdp_per_step[i];
    any = true;
  }
  if (!any) return from_rdp(0.0, delta, 0.0);
  if (runs.size() == 1) {
    const auto r = epsilon_for_delta(runs[0], delta, rdp);
    return from_rdp(r.epsilon, delta, r.best_order);
  }
  const auto r = epsilon_from_rdp(orders, total, delta);
  return from_rdp(r.epsilon, delta, r.best_order);
}

double calibrate_noise_multiplier_with(double target_epsilon, double delta, double sampling_rate,
                                       std::int64_t steps, Accountant accountant,
                                       const PldOptions& pld, const AccountingOptions& rdp) {
  if (accountant == Accountant::kPld) {
    return calibrate_noise_multiplier_pld(target_epsilon, delta, sampling_rate, steps, pld)
        .noise_multiplier;
  }
  return calibrate_noise_multiplier(target_epsilon, delta, sampling_rate, steps, rdp);
}

}  // namespace dplab::privacy
