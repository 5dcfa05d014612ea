#include "tuning/linear_scaling_search.h"

#include <cmath>
#include <string>

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "tuning/accounting.h"
#include "tuning/search_phases.h"
#include "tuning/search_warnings.h"

namespace dplab::tuning {
namespace {

using experiment::Param;

privacy::LinearScalingSetting setting_of(const experiment::ExperimentConfig& config, int k) {
  privacy::LinearScalingSetting s;
  s.trial_fraction_low = config.release.trial_fraction_low;
  s.trial_fraction_high = config.release.trial_fraction_high;
  s.candidates = k;
  return s;
}

// Whether a and b lie on one line of the grid: same optimizer entry, same value of every
// hyperparameter except the learning rate.
bool same_line(const experiment::Candidate& a, const experiment::Candidate& b) {
  if (a.optimizer_index != b.optimizer_index) return false;
  for (int i = 0; i < experiment::kNumParams; ++i) {
    const auto p = static_cast<Param>(i);
    if (p == Param::kLearningRate || !experiment::optimizer_takes(a.optimizer.kind, p)) continue;
    if (a.value(p) != b.value(p)) return false;
  }
  return true;
}

// The best scored candidate (ties: the earlier) among those `keep` accepts; -1 if none scored.
template <class Keep>
int best_candidate(const SearchResults& results, Keep keep, double& score) {
  int best = -1;
  for (const JobResult& job : results.jobs) {
    if (!is_scored(job) || !keep(job.candidate)) continue;
    const double s = selection_score(job, results.is_regression);
    if (best < 0 || s > score) {
      best = job.candidate;
      score = s;
    }
  }
  return best;
}

// Trains every job of `plan` under `config`; returns the results and whether it was cancelled.
SearchResults run_phase(const experiment::ExperimentConfig& config, const PrivatePlan& plan,
                        std::shared_ptr<const data::TrainValidationSplit> data,
                        const RunOptions& options, bool keep_models,
                        const LinearScalingRunHooks& hooks, int phase, bool& cancelled) {
  RunOptions phase_options = options;
  phase_options.plan = plan.jobs;
  phase_options.keep_models = options.keep_models && keep_models;
  Runner runner(config, std::move(data), phase_options);
  SearchResults results;
  {
    const PhaseNotice<int> notice(hooks.on_runner, &runner, phase);
    results = runner.run();
  }
  cancelled = runner.cancel_requested();
  return results;
}

}  // namespace

privacy::LinearScalingBudgets linear_scaling_budgets_for(const experiment::ExperimentConfig& config,
                                                         std::int64_t training_size) {
  if (!(config.privacy.noise_multiplier > 0)) {
    throw InvalidArgument(
        "release mode private-linear-scaling needs privacy.noise_multiplier > 0 (the trials' "
        "budgets are fractions of the final run's epsilon)");
  }
  const RunMechanism m = run_mechanism(config, training_size);
  return privacy::linear_scaling_budgets({m.noise_multiplier, m.sampling_rate, m.steps}, m.delta,
                                         setting_of(config, 1));
}

experiment::ExperimentConfig trial_round_config(const experiment::ExperimentConfig& config,
                                                const privacy::LinearScalingBudgets& budgets,
                                                int round, std::int64_t training_size) {
  if (round != 0 && round != 1) throw InvalidArgument("trial round must be 0 or 1");
  experiment::ExperimentConfig trial = config;
  trial.release.linear_scaling = false;  // a plain private ma search
  trial.release = experiment::canonical_release(trial.release);
  trial.privacy.noise_multiplier = budgets.trial_noise[round];
  trial.privacy.delta = run_mechanism(config, training_size).delta;
  trial.seed = derive_seed(config.seed, kTrialRoundStream[round]);
  return trial;
}

experiment::ExperimentConfig linear_scaling_final_config(const experiment::ExperimentConfig& config,
                                                         const experiment::Candidate& winner,
                                                         double final_learning_rate,
                                                         int trial_candidates,
                                                         std::int64_t training_size) {
  require_positive("final learning rate", final_learning_rate);
  experiment::ExperimentConfig final_config = config;
  final_config.optimizers = {winner_entry(winner, final_learning_rate)};
  final_config.objective_perturbation.clear();
  final_config.tuning = experiment::TuningConfig{};
  final_config.repeats = 1;
  final_config.seed = derive_seed(config.seed, kLinearScalingFinalStream);
  final_config.privacy.delta = run_mechanism(config, training_size).delta;
  final_config.release.trial_candidates = trial_candidates;
  if (experiment::expand_candidates(final_config).size() != 1) {
    throw InvalidArgument("linear_scaling_final_config: expected one candidate");
  }
  return final_config;
}

LinearScalingRun run_linear_scaling_search(const experiment::ExperimentConfig& config,
                                           std::shared_ptr<const data::TrainValidationSplit> data,
                                           const RunOptions& options,
                                           const LinearScalingRunHooks& hooks) {
  if (!config.release.linear_scaling)
    throw InvalidArgument("release mode is not private-linear-scaling");
  if (!config.objective_perturbation.empty()) {
    throw InvalidArgument(
        "release mode private-linear-scaling: objpert entries are searched in explore mode only");
  }
  if (data->train.is_regression()) {
    throw InvalidArgument(
        "release mode private-linear-scaling needs a classification data set: its trial "
        "scores are validation accuracies");
  }
  if (config.repeats != 1) {
    throw InvalidArgument(
        "release mode private-linear-scaling runs one procedure: repeats must "
        "be 1, got " +
        std::to_string(config.repeats));
  }
  const std::int64_t n = data->train.size();
  const std::vector<experiment::Candidate> grid = experiment::expand_candidates(config);
  const int k = static_cast<int>(grid.size());
  for (const auto& c : grid)
    require_positive("learning_rate of " + c.label(), c.optimizer.learning_rate);
  const privacy::LinearScalingBudgets budgets = linear_scaling_budgets_for(config, n);

  LinearScalingRun out;
  out.trial_runs = 2 * static_cast<std::int64_t>(k);
  SearchResults rounds[2];
  for (int round = 0; round < 2; ++round) {
    const experiment::ExperimentConfig trial = trial_round_config(config, budgets, round, n);
    const PrivatePlan plan = draw_private_plan(trial, k, trial.seed);
    rounds[round] = run_phase(trial, plan, data, options, false, hooks, round, out.cancelled);
    if (out.first_warning.empty()) out.first_warning = first_warning(rounds[round]);
    if (out.cancelled) return out;  // an incomplete round releases nothing
  }
  // Round 2's winner over the whole grid, then round 1's best on its line.
  out.round_winner[1] = best_candidate(
      rounds[1], [](int) { return true; }, out.round_score[1]);
  if (out.round_winner[1] < 0) return out;  // nothing scored: nothing to fit
  const experiment::Candidate& w2 = grid[static_cast<std::size_t>(out.round_winner[1])];
  out.round_winner[0] = best_candidate(
      rounds[0], [&](int c) { return same_line(grid[static_cast<std::size_t>(c)], w2); },
      out.round_score[0]);
  if (out.round_winner[0] < 0) return out;
  const experiment::Candidate& w1 = grid[static_cast<std::size_t>(out.round_winner[0])];

  LinearScalingFit& fit = out.fit;
  const double t = static_cast<double>(config.privacy.steps);
  fit.steps = config.privacy.steps;
  fit.budgets = budgets;
  fit.learning_rate[0] = w1.optimizer.learning_rate;
  fit.learning_rate[1] = w2.optimizer.learning_rate;
  fit.radius[0] = fit.learning_rate[0] * t;
  fit.radius[1] = fit.learning_rate[1] * t;
  fit.final_radius =
      privacy::extrapolate_radius(budgets.trial_epsilon[0], fit.radius[0], budgets.trial_epsilon[1],
                                  fit.radius[1], budgets.final_epsilon, &fit.extrapolated);
  fit.final_learning_rate = fit.final_radius / t;
  fit.winner_label = w2.label();

  const experiment::ExperimentConfig final_config =
      linear_scaling_final_config(config, w2, fit.final_learning_rate, k, n);
  out.final_plan.selection = experiment::PrivateSelection::kMa;
  ReplicatePlan rep;
  rep.candidates = {0};
  out.final_plan.replicates.push_back(rep);
  PlannedJob job;
  job.seed = derive_seed(final_config.seed, 1);
  out.final_plan.jobs.push_back(job);
  out.final_results =
      run_phase(final_config, out.final_plan, data, options, true, hooks, 2, out.cancelled);
  if (out.first_warning.empty()) out.first_warning = first_warning(out.final_results);
  out.has_final = true;
  return out;
}

}  // namespace dplab::tuning
