// "How private is it really?": for each target epsilon in a list, the accountant's UPPER bound on
// the run's epsilon (RDP and PLD) beside the one-run audit's LOWER bound (one_run_audit.h,
// Steinke, Nasr & Jagielski 2023) and a Gaussian-fit ESTIMATE (gaussian_fit_estimate.h, not a
// bound), and the same run without privacy audited beside them (its lower bound is the attack's
// power on this data, the most any private run's bound could show).
//
// Each row also carries the f-DP bound on the same guesses (audit.bound.fdp; Mahloujifar et al.
// 2025, fdp_one_run_bound.h: a bound under the Gaussian trade-off shape hypothesis) and, computed
// before its run, the last-iterate heuristic's prediction for the final-model audit (Steinke et
// al. 2025, last_iterate_heuristic.h: not a bound).
//
// Per target eps: sigma is calibrated with the RDP accountant at (eps, delta) for q = L / n and
// T steps (privacy/accounting/accountant_choice.h); the run is trained once with m canaries; the
// accountants' eps are then recomputed for the q the run actually used (black-box canaries join the
// training set, so n grows by the included ones and q shrinks). Every run of the sweep uses the
// same canary seed and run seed: the only difference between rows is sigma.
//
// The GUI view "How private is it really?" (ui/views/one_run_audit_view) draws exactly these
// rows; `dplab-cli audit` uses non_private_twin() for its twin.
//
// Thread-safety: touches only its arguments.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "audit/gaussian_fit_estimate.h"
#include "audit/one_run_audit.h"

namespace dplab::audit {

// The non-private twin of an audited run: the same model, optimizer, lots, steps and seed with
// sigma = 0 and no clipping; its canaries keep the private run's norm C (options.canary_norm set
// to C when the private run clips and no norm was given).
struct NonPrivateTwin {
  training::TrainingConfig config;
  OneRunAuditOptions options;
};
NonPrivateTwin non_private_twin(const training::TrainingConfig& private_config,
                                const OneRunAuditOptions& options);

struct PrivacyGapSweepConfig {
  training::TrainingConfig run;         // the base run; dp.noise_multiplier is calibrated per row
  std::vector<double> epsilon_targets;  // each > 0 and finite
  OneRunAuditOptions options;           // m, mode, confidence, delta (the accountant's), seed
};

struct PrivacyGapRow {
  bool is_private = true;
  double epsilon_target = 0;    // +inf for the non-private run
  double noise_multiplier = 0;  // 0 for the non-private run
  double epsilon_rdp = 0;       // accountant UPPER bounds; +inf for the non-private run
  double epsilon_pld = 0;
  OneRunAuditResult audit;  // the LOWER bounds (Steinke; f-DP in bound.fdp), ceilings, (m, r, v)
  GaussianFitEstimate estimate;  // of audit.scores: an ESTIMATE, not a bound
  // The last-iterate prediction for the final-model audit, computed before the row's run:
  // a HEURISTIC, not a bound (last_iterate_heuristic.h); +inf for the non-private run.
  double last_iterate_epsilon = 0;
};

using SweepProgress = std::function<void(const std::string& what, double fraction_done)>;

// The private rows in the order of epsilon_targets, then the non-private row. Throws
// InvalidArgument naming the field (an empty or non-positive target list, a run the audit refuses)
// and Cancelled when *cancel becomes true (checked before every training step).
std::vector<PrivacyGapRow> run_privacy_gap_sweep(const data::TrainValidationSplit& data,
                                                 const PrivacyGapSweepConfig& config,
                                                 const SweepProgress& progress = {},
                                                 const std::atomic<bool>* cancel = nullptr);

}  // namespace dplab::audit
