#include "audit/privacy_gap_sweep.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "core/error.h"
#include "models/model.h"
#include "privacy/accounting/accountant_choice.h"

namespace dplab::audit {
namespace {

std::string epsilon_text(double eps) {
  std::ostringstream s;
  s << eps;
  return s.str();
}

GaussianFitEstimate estimate_of(const OneRunAuditResult& r, double delta) {
  // Fewer than 2 canaries on one side (tiny m): no fit; the estimate stays 0 and says nothing.
  int in = 0;
  for (bool b : r.included) in += b ? 1 : 0;
  const int out = static_cast<int>(r.included.size()) - in;
  if (in < 2 || out < 2) return {};
  return gaussian_fit_estimate(r.scores, r.included, delta);
}

}  // namespace

NonPrivateTwin non_private_twin(const training::TrainingConfig& private_config,
                                const OneRunAuditOptions& options) {
  NonPrivateTwin twin{private_config, options};
  twin.config.dp.noise_multiplier = 0;
  twin.config.dp.clip = models::kNoClipping;
  if (twin.options.canary_norm <= 0 && std::isfinite(private_config.dp.clip))
    twin.options.canary_norm = private_config.dp.clip;
  return twin;
}

std::vector<PrivacyGapRow> run_privacy_gap_sweep(const data::TrainValidationSplit& data,
                                                 const PrivacyGapSweepConfig& config,
                                                 const SweepProgress& progress,
                                                 const std::atomic<bool>* cancel) {
  if (config.epsilon_targets.empty())
    throw InvalidArgument("epsilon targets: give at least one target epsilon");
  for (double eps : config.epsilon_targets) {
    if (!(eps > 0) || !std::isfinite(eps))
      throw InvalidArgument("epsilon targets: " + epsilon_text(eps) + " is not a number > 0");
  }
  if (!(config.options.delta > 0 && config.options.delta < 1))
    throw InvalidArgument("delta must be in (0, 1) for the accountant");
  const double n = static_cast<double>(data.train.size());
  if (!(n > 0)) throw InvalidArgument("the training set is empty");
  if (!(config.run.dp.lot_size > 0 && config.run.dp.lot_size <= n)) {
    throw InvalidArgument("lot size L = " + epsilon_text(config.run.dp.lot_size) +
                          " must be in (0, n = " + epsilon_text(n) + "]");
  }
  if (!std::isfinite(config.run.dp.clip))
    throw InvalidArgument("clip: a private run clips (C > 0 and finite)");
  const double q = config.run.dp.lot_size / n;
  const double delta = config.options.delta;
  const double total = static_cast<double>(config.epsilon_targets.size() + 1);
  auto report = [&](const std::string& what, double done) {
    if (progress) progress(what, done / total);
  };

  std::vector<PrivacyGapRow> rows;
  for (std::size_t i = 0; i < config.epsilon_targets.size(); ++i) {
    PrivacyGapRow row;
    row.epsilon_target = config.epsilon_targets[i];
    report("auditing the run at target eps " + epsilon_text(row.epsilon_target),
           static_cast<double>(i));
    row.noise_multiplier = privacy::calibrate_noise_multiplier_with(
        row.epsilon_target, delta, q, config.run.steps, privacy::Accountant::kRdp);
    training::TrainingConfig run = config.run;
    run.dp.noise_multiplier = row.noise_multiplier;
    OneRunAuditOptions options = config.options;
    if (options.canary_norm <= 0) options.canary_norm = run.dp.clip;
    row.last_iterate_epsilon =
        predicted_last_iterate_epsilon(run, static_cast<std::int64_t>(data.train.size()), delta);
    row.audit = run_one_run_audit(data, run, options, cancel);
    const privacy::SubsampledGaussian mechanism{row.noise_multiplier, row.audit.sampling_rate,
                                                row.audit.queries};
    row.epsilon_rdp = privacy::run_epsilon(mechanism, 1, delta, privacy::Accountant::kRdp).epsilon;
    row.epsilon_pld = privacy::run_epsilon(mechanism, 1, delta, privacy::Accountant::kPld).epsilon;
    row.estimate = estimate_of(row.audit, delta);
    rows.push_back(std::move(row));
  }
  report("auditing the non-private run", total - 1);
  const NonPrivateTwin twin = non_private_twin(config.run, config.options);
  PrivacyGapRow open;
  open.is_private = false;
  open.epsilon_target = open.epsilon_rdp = open.epsilon_pld = open.last_iterate_epsilon =
      std::numeric_limits<double>::infinity();
  open.audit = run_one_run_audit(data, twin.config, twin.options, cancel);
  open.estimate = estimate_of(open.audit, delta);
  rows.push_back(std::move(open));
  report("done", total);
  return rows;
}

}  // namespace dplab::audit
