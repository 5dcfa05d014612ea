#include "release/linear_scaling_release.h"

#include <cmath>
#include <cstdio>

#include "release/search_release.h"

namespace dplab::release {
namespace {

nlohmann::json pair(const double (&v)[2]) {
  return nlohmann::json::array({v[0], v[1]});
}

}  // namespace

nlohmann::json linear_scaling_fit_json(const tuning::LinearScalingFit& fit) {
  return {
      {"rule",
       "r = learning_rate x steps; the line through the two trial winners' (eps_i, r_i), "
       "evaluated at the final run's eps (r_2 kept when the line gives r <= 0)"},
      {"steps", fit.steps},
      {"trial_epsilons", pair(fit.budgets.trial_epsilon)},
      {"trial_noise_multipliers", pair(fit.budgets.trial_noise)},
      {"trial_learning_rates", pair(fit.learning_rate)},
      {"trial_radii", pair(fit.radius)},
      {"final_epsilon_single_run", fit.budgets.final_epsilon},
      {"final_radius", fit.final_radius},
      {"final_learning_rate", fit.final_learning_rate},
      {"extrapolated", fit.extrapolated},
      {"winner", fit.winner_label},
  };
}

nlohmann::json linear_scaling_released_facts(const tuning::LinearScalingFit& fit) {
  return {{"linear_scaling_fit", linear_scaling_fit_json(fit)}};
}

std::string linear_scaling_fit_text(const tuning::LinearScalingFit& fit) {
  char line[512];
  std::snprintf(
      line, sizeof line,
      "linear scaling: trials at eps %.4g and %.4g chose learning rates %g and %g (r = %g, %g); "
      "final run at eps %.4g alone: r = %g, learning rate %g%s",
      fit.budgets.trial_epsilon[0], fit.budgets.trial_epsilon[1], fit.learning_rate[0],
      fit.learning_rate[1], fit.radius[0], fit.radius[1], fit.budgets.final_epsilon,
      fit.final_radius, fit.final_learning_rate,
      fit.extrapolated ? "" : " (the line fell: round 2's r kept)");
  return line;
}

Release linear_scaling_release(const tuning::LinearScalingRun& run, const std::string& experiment,
                               const std::optional<SpentBudget>& spent) {
  if (!run.has_final) {
    Release nothing;
    nothing.experiment = experiment;
    nothing.mode = "private-linear-scaling";
    nothing.cancelled = run.cancelled;
    nothing.privacy = nlohmann::json::object();
    nothing.released = {{"nothing", "the trial rounds released nothing (no final run)"}};
    return nothing;
  }
  tuning::PrivateRelease winners = tuning::select_private_winners(
      run.final_results, run.final_plan, tuning::score_noise_seed(run.final_results.config.seed));
  winners.released_facts = linear_scaling_released_facts(run.fit).dump();
  return private_release(run.final_results, winners, run.cancelled, spent);
}

}  // namespace dplab::release
