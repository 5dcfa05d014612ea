// What release mode private-linear-scaling hands over (tuning/linear_scaling_search.h): the
// final run's winner as private_release writes it, plus the fit under released.
// "linear_scaling_fit" — the trial budgets and noise multipliers (public: fixed before any
// run), the trial winners' learning rates and radii r_i = eta_i T, the extrapolated r_f and
// eta_f (charged: functions of the trial runs, which the composed epsilon covers). The trial
// rounds' scores, curves and models are curator-only and never written here.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "release/release.h"
#include "release/spent_budget.h"
#include "tuning/linear_scaling_search.h"

namespace dplab::release {

nlohmann::json linear_scaling_fit_json(const tuning::LinearScalingFit& fit);
// {"linear_scaling_fit": linear_scaling_fit_json(fit)}: what every door puts in
// PrivateRelease::released_facts for this mode.
nlohmann::json linear_scaling_released_facts(const tuning::LinearScalingFit& fit);
// One line for a screen: "linear scaling: trials at eps ... chose learning rates ...; final run
// at eps ... alone: r = ..., learning rate ..." (released, as the fit).
std::string linear_scaling_fit_text(const tuning::LinearScalingFit& fit);

// The release of `run` (run.has_final): select_private_winners of the final run, private_release,
// and the fit. Without a final run (a cancelled round, nothing scored): the release of nothing.
Release linear_scaling_release(const tuning::LinearScalingRun& run, const std::string& experiment,
                               const std::optional<SpentBudget>& spent = std::nullopt);

}  // namespace dplab::release
