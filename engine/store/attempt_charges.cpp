#include "store/attempt_charges.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "privacy/accounting/rdp_conversion.h"
#include "tuning/release_cost.h"

namespace dplab::store {

AttemptCharge charge_of_jobs(const tuning::SearchResults& trained) {
  AttemptCharge c;
  for (const tuning::JobResult& job : trained.jobs) {
    if (job.queries <= 0) continue;  // never touched the data
    ++c.runs_trained;
    c.queries += job.queries;
  }
  // Nothing trained costs nothing, except private-subsampled: its stored attempt is the final
  // run, which starts only after the tuning phase on X1 has touched the data.
  if (c.runs_trained == 0 && !trained.config.release.subsampled) return c;
  try {
    const tuning::ReleaseCost cost = tuning::release_cost(trained);
    c.epsilon = cost.epsilon;
    c.delta = cost.delta;
    c.rdp_orders = cost.rdp_orders;
    c.rdp = cost.rdp;
  } catch (const Error&) {
    // Not computable (a config this version cannot cost): unknown, never 0.
    c.epsilon = std::numeric_limits<double>::quiet_NaN();
    c.delta = std::numeric_limits<double>::quiet_NaN();
  }
  return c;
}

tuning::SearchResults open_attempt_jobs(const tuning::SearchResults& run,
                                        const std::vector<tuning::JobResult>& stored,
                                        std::int64_t planned_jobs) {
  tuning::SearchResults out;
  out.config = run.config;
  out.candidates = run.candidates;
  out.mechanism = run.mechanism;
  out.training_size = run.training_size;
  out.validation_size = run.validation_size;
  out.is_regression = run.is_regression;
  out.jobs = stored;
  const auto missing = std::max<std::int64_t>(0, planned_jobs - std::ssize(stored));
  tuning::JobResult full;
  full.status = tuning::JobStatus::kRunning;
  full.queries = run.mechanism.steps;
  out.jobs.insert(out.jobs.end(), static_cast<std::size_t>(missing), full);
  return out;
}

// The attempts of a run are mechanisms run one after another on the same data, each with its
// own randomness; what they output together is their adaptive composition.
//   Every charged attempt has an RDP curve eps_i(alpha) on the same orders: the composition is
//     (alpha, sum_i eps_i(alpha))-RDP at every order (Mironov 2017, Prop. 1), converted to
//     (eps, delta) at the run's delta by privacy::epsilon_from_rdp (Balle et al. 2020, Thm 21).
//     Explore attempts share (sigma, q) and their curves are linear in the steps,
//     eps_i(alpha) = Q_i rdp_step(alpha), so the sum is ONE run of sum_i Q_i steps.
//   Otherwise (Liu-Talwar gives only an (eps, delta) bound): basic composition (Dwork et al.
//     2006), (sum_i eps_i, sum_i delta_i).
// An attempt that trained nothing is the identity and is left out; a single charged attempt is
// its own (eps, delta). The result is floored at max_i eps_i: a larger number than a valid bound
// is still a valid bound, and the floor makes adding an attempt never lower the result whatever
// conversion produced an attempt's own eps (explore's interpolated order search can end a hair
// below the grid conversion used here).
SpentBudget compose_attempts(const std::vector<AttemptCharge>& attempts, double run_delta) {
  SpentBudget out;
  out.attempts = static_cast<int>(attempts.size());
  std::vector<const AttemptCharge*> charged;
  for (const AttemptCharge& a : attempts)
    if (a.runs_trained > 0 || a.epsilon != 0) charged.push_back(&a);  // NaN: charged, unknown
  if (charged.empty()) {
    out.composition = "none";
    return out;
  }
  for (const AttemptCharge* a : charged) {
    if (std::isnan(a->epsilon)) {  // not computable
      out.epsilon = out.delta = std::numeric_limits<double>::quiet_NaN();
      out.composition = "unknown";
      return out;
    }
  }
  if (charged.size() == 1) {
    out.epsilon = charged[0]->epsilon;
    out.delta = charged[0]->delta;
    out.composition = "single";
    return out;
  }
  double floor = 0;
  for (const AttemptCharge* a : charged) floor = std::max(floor, a->epsilon);
  const std::vector<double>& orders = charged[0]->rdp_orders;
  const bool by_rdp = std::all_of(charged.begin(), charged.end(), [&](const AttemptCharge* a) {
    return !a->rdp.empty() && a->rdp.size() == a->rdp_orders.size() && a->rdp_orders == orders;
  });
  if (by_rdp) {
    std::vector<double> total(orders.size(), 0.0);
    for (const AttemptCharge* a : charged)
      for (std::size_t i = 0; i < total.size(); ++i) total[i] += a->rdp[i];
    out.epsilon = std::max(floor, privacy::epsilon_from_rdp(orders, total, run_delta).epsilon);
    out.delta = run_delta;
    out.composition = "rdp";
    return out;
  }
  for (const AttemptCharge* a : charged) {
    out.epsilon += a->epsilon;
    out.delta += a->delta;
  }
  out.epsilon = std::max(floor, out.epsilon);
  out.composition = "basic";
  return out;
}

}  // namespace dplab::store
