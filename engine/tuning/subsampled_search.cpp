#include "tuning/subsampled_search.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "privacy/mechanisms/poisson_sampler.h"
#include "privacy/selection/subsampled_tuning.h"
#include "tuning/accounting.h"
#include "tuning/search_phases.h"
#include "tuning/search_warnings.h"

namespace dplab::tuning {
namespace {

// The delta every phase uses: the experiment's, or the default for the FULL training size.
double full_delta(const experiment::ExperimentConfig& config, std::int64_t n) {
  return run_mechanism(config, n).delta;
}

// The final run's rate gamma = L/n: the same expression the Runner evaluates on the full data,
// so both variants charge (and print) the same bits.
double final_rate(const experiment::ExperimentConfig& config, std::int64_t n) {
  return config.privacy.lot_size / static_cast<double>(n);
}

// An expected lot (a normaliser) of at least 1, or an error naming what to change.
double checked_lot(double lot, const std::string& what, const std::string& hint) {
  if (!(lot >= 1.0))
    throw InvalidArgument(what + ": the expected lot " + format_number(lot) + " is below 1; " +
                          hint);
  return lot;
}

}  // namespace

std::vector<Index> draw_tuning_subset(Index n, double tuning_fraction, std::uint64_t seed) {
  const privacy::PoissonSampler sampler(n, tuning_fraction);
  Rng rng(seed);
  std::vector<Index> rows;
  sampler.sample(rng, rows);
  return rows;
}

SubsampledSplits split_for_subsampled_tuning(const experiment::ExperimentConfig& config,
                                             const data::TrainValidationSplit& data) {
  const auto& release = config.release;
  if (!release.subsampled) throw InvalidArgument("release mode is not private-subsampled");
  const Index n = data.train.size();
  const std::vector<Index> subset =
      draw_tuning_subset(n, release.tuning_fraction, derive_seed(config.seed, kTuningSubsetStream));
  if (subset.empty()) {
    throw InvalidArgument("release.tuning_fraction = " + format_number(release.tuning_fraction) +
                          " drew an empty tuning subset from " + std::to_string(n) + " rows");
  }
  auto part = [&](const std::vector<Index>& rows) {
    auto split = std::make_shared<data::TrainValidationSplit>();
    split->train = data::select_rows(data.train, rows);
    split->validation = data.validation;
    split->notes = data.notes;
    split->preprocessing = data.preprocessing;
    return split;
  };
  SubsampledSplits splits;
  splits.full_training_size = n;
  splits.tuning = part(subset);
  if (release.final_data == privacy::FinalRunData::kFullData) {
    auto full = std::make_shared<data::TrainValidationSplit>(data);
    splits.final = full;
  } else {
    std::vector<Index> rest;
    std::size_t next = 0;
    for (Index i = 0; i < n; ++i) {
      if (next < subset.size() && subset[next] == i) {
        ++next;
        continue;
      }
      rest.push_back(i);
    }
    if (rest.empty()) {
      throw InvalidArgument("final_data \"complement\": the tuning subset took every row");
    }
    splits.final = part(rest);
  }
  return splits;
}

double final_lot_size(const experiment::ExperimentConfig& config, std::int64_t full_training_size) {
  if (config.release.final_data == privacy::FinalRunData::kFullData) return config.privacy.lot_size;
  // E|X2| = (1 - q) n: the expected complement, never the realised n - |X1|.
  const double expected_rows =
      (1.0 - config.release.tuning_fraction) * static_cast<double>(full_training_size);
  return checked_lot(final_rate(config, full_training_size) * expected_rows,
                     "final run on the complement of the tuning subset",
                     "lower release.tuning_fraction or use final_data \"full\"");
}

experiment::ExperimentConfig tuning_phase_config(const experiment::ExperimentConfig& config,
                                                 std::int64_t full_training_size) {
  experiment::ExperimentConfig tuning = config;
  const auto& release = config.release;
  // The final run's rate exactly as the runner computes it: the accountant reads it back from
  // the final run's results and derives gamma_sub from it the same way.
  const double gamma_sub = privacy::subset_sampling_rate(
      final_rate(config, full_training_size), release.tuning_fraction, release.subset_batching);
  tuning.privacy.sampling_rate = gamma_sub;
  // E|X1| = q n: the expected subset, never the realised |X1|.
  tuning.privacy.lot_size = checked_lot(
      gamma_sub * release.tuning_fraction * static_cast<double>(full_training_size), "tuning phase",
      "raise release.tuning_fraction or use subset_batching \"same_lot_size\"");
  tuning.privacy.delta = full_delta(config, full_training_size);
  tuning.release.subsampled = false;  // a plain private ps search on X1
  return tuning;
}

experiment::ExperimentConfig final_run_config(const experiment::ExperimentConfig& config,
                                              const experiment::Candidate& winner,
                                              std::int64_t full_training_size) {
  experiment::ExperimentConfig final_config = config;
  const double multiplier = experiment::learning_rate_multiplier(config.release.lr_transfer,
                                                                 config.release.tuning_fraction);
  final_config.optimizers = {
      winner_entry(winner, winner.value(experiment::Param::kLearningRate) * multiplier)};
  final_config.objective_perturbation.clear();
  final_config.tuning = experiment::TuningConfig{};  // grid over the one candidate
  final_config.repeats = 1;
  final_config.seed = derive_seed(config.seed, kFinalRunStream);
  final_config.privacy.lot_size = final_lot_size(config, full_training_size);
  if (config.release.final_data == privacy::FinalRunData::kComplement) {
    // On |X2| rows the runner's L / rows would be the realised rate: the public gamma instead.
    final_config.privacy.sampling_rate = final_rate(config, full_training_size);
  }
  final_config.privacy.delta = full_delta(config, full_training_size);
  const auto candidates = experiment::expand_candidates(final_config);
  if (candidates.size() != 1) {
    throw InvalidArgument("final_run_config: expected one candidate, got " +
                          std::to_string(candidates.size()));
  }
  return final_config;
}

namespace {

// Steps 1-3 once (one replicate), `config.seed` being that replicate's seed.
SubsampledRun run_one_procedure(const experiment::ExperimentConfig& config,
                                std::shared_ptr<const data::TrainValidationSplit> data,
                                const RunOptions& options, const SubsampledRunHooks& hooks) {
  SubsampledRun out;
  // 1. The tuning subset X1 (Poisson q, seeded; never looks at the data) and the final data.
  const SubsampledSplits splits = split_for_subsampled_tuning(config, *data);
  const std::int64_t n = splits.full_training_size;
  out.subset_size = splits.tuning->train.size();  // curator only (tune_subsampled.cpp)
  // 2. The Papernot-Steinke search on X1: K and the candidate draws up front.
  const experiment::ExperimentConfig tuning_config = tuning_phase_config(config, n);
  out.lot_size_on_subset = tuning_config.privacy.lot_size;
  const PrivatePlan plan = draw_private_plan(
      tuning_config, static_cast<int>(experiment::expand_candidates(tuning_config).size()),
      tuning_config.seed);
  out.runs_trained = static_cast<std::int64_t>(plan.jobs.size());
  PrivateRelease tuned;
  SearchResults tuning_results;
  if (!plan.jobs.empty()) {
    RunOptions tuning_options = options;
    tuning_options.plan = plan.jobs;
    tuning_options.keep_models = false;  // the tuning phase releases no model
    Runner runner(tuning_config, splits.tuning, tuning_options);
    {
      const PhaseNotice<bool> notice(hooks.on_runner, &runner, false);
      tuning_results = runner.run();
    }
    out.cancelled = runner.cancel_requested();
    out.first_warning = first_warning(tuning_results);
    tuned = select_private_winners(tuning_results, plan, score_noise_seed(tuning_config.seed));
  }
  if (tuned.replicates.empty() || tuned.replicates[0].winner_candidate < 0 || out.cancelled) {
    return out;  // K = 0 or an incomplete search: the algorithm outputs nothing
  }
  const ReplicateRelease& winner_rep = tuned.replicates[0];
  const experiment::Candidate& winner =
      tuning_results.candidates[static_cast<std::size_t>(winner_rep.winner_candidate)];
  out.winner_candidate = winner_rep.winner_candidate;
  out.winner_label = winner.label();
  out.winner_score = winner_rep.released_score;
  // 3. One final run of the winner, its learning rate transferred (heuristic).
  const experiment::ExperimentConfig final_config = final_run_config(config, winner, n);
  out.final_plan.selection = experiment::PrivateSelection::kPs;
  ReplicatePlan rep;
  rep.candidates = {0};
  out.final_plan.replicates.push_back(rep);
  PlannedJob job;
  job.seed = derive_seed(final_config.seed, 1);
  out.final_plan.jobs.push_back(job);
  RunOptions final_options = options;
  final_options.plan = out.final_plan.jobs;
  Runner final_runner(final_config, splits.final, final_options);
  {
    const PhaseNotice<bool> notice(hooks.on_runner, &final_runner, true);
    out.final_results = final_runner.run();
  }
  out.cancelled = final_runner.cancel_requested();
  if (out.first_warning.empty()) out.first_warning = first_warning(out.final_results);
  // Released: the full n (public), never |X2| = n - |X1| (the subset size is not covered).
  out.final_results.training_size = n;
  out.has_final = true;
  return out;
}

// Appends replicate `one`'s final run (one candidate, one job) to the merged release `out` as
// candidate and run number out.final_results.candidates.size(); a replicate without a final run
// (K = 0) gets an empty ReplicatePlan: it releases nothing, as Papernot-Steinke's K = 0 does.
void append_final_run(SubsampledRun& out, const SubsampledRun& one) {
  ReplicatePlan rep;
  rep.first_job = static_cast<std::int64_t>(out.final_results.jobs.size());
  if (one.has_final && !one.final_results.jobs.empty()) {
    const int index = static_cast<int>(out.final_results.candidates.size());
    if (index == 0) {
      const int repeats = out.final_results.config.repeats;
      out.final_results = one.final_results;  // config, mechanism, n, n_val of the first
      out.final_results.config.repeats = repeats;
      out.final_results.config.optimizers.clear();
      out.final_results.candidates.clear();
      out.final_results.jobs.clear();
    }
    // One optimizer entry per released final run, so expand_candidates of the merged config
    // gives exactly these candidates, in this order.
    out.final_results.config.optimizers.push_back(one.final_results.config.optimizers.at(0));
    experiment::Candidate candidate = one.final_results.candidates.at(0);
    candidate.index = index;
    candidate.optimizer_index = index;
    candidate.index_in_optimizer = 0;
    out.final_results.candidates.push_back(candidate);
    JobResult job = one.final_results.jobs.at(0);
    job.candidate = index;
    job.repeat = index;  // the global run index, as in every private plan
    out.final_results.jobs.push_back(job);
    rep.candidates = {index};
    PlannedJob planned = one.final_plan.jobs.at(0);
    planned.candidate = index;
    planned.repeat = index;
    out.final_plan.jobs.push_back(planned);
    out.has_final = true;
  }
  out.final_plan.replicates.push_back(rep);
}

}  // namespace

std::uint64_t subsampled_replicate_seed(std::uint64_t experiment_seed, int replicate) {
  return replicate == 0 ? experiment_seed
                        : derive_seed(experiment_seed, kReplicateStream,
                                      static_cast<std::uint64_t>(replicate));
}

SubsampledRun run_subsampled_search(const experiment::ExperimentConfig& config,
                                    std::shared_ptr<const data::TrainValidationSplit> data,
                                    const RunOptions& options, const SubsampledRunHooks& hooks) {
  if (!config.release.subsampled) throw InvalidArgument("release mode is not private-subsampled");
  if (!config.objective_perturbation.empty()) {
    throw InvalidArgument(
        "release mode private-subsampled: objpert entries are searched in explore mode only");
  }
  if (data->train.is_regression()) {
    throw InvalidArgument(
        "release mode private-subsampled needs a classification data set: its tuning score "
        "and released score are validation accuracies");
  }
  const int replicates = std::max(1, config.repeats);
  experiment::ExperimentConfig one = config;
  one.repeats = 1;
  if (replicates == 1) {
    SubsampledRun out = run_one_procedure(one, std::move(data), options, hooks);
    out.replicates.push_back({out.subset_size, out.runs_trained, out.lot_size_on_subset,
                              out.winner_candidate, out.winner_label, out.winner_score,
                              out.has_final});
    return out;
  }
  // R replicates: R whole, independent procedures (their own X1 draw, tuning search and final
  // run, from their own seed); release_cost composes their RDP curves (release_cost.h).
  SubsampledRun out;
  out.final_results.config = config;
  out.final_plan.selection = experiment::PrivateSelection::kPs;
  for (int r = 0; r < replicates; ++r) {
    one.seed = subsampled_replicate_seed(config.seed, r);
    const SubsampledRun run = run_one_procedure(one, data, options, hooks);
    out.replicates.push_back({run.subset_size, run.runs_trained, run.lot_size_on_subset,
                              run.winner_candidate, run.winner_label, run.winner_score,
                              run.has_final});
    out.runs_trained += run.runs_trained;
    if (out.first_warning.empty()) out.first_warning = run.first_warning;
    if (r == 0) {
      out.subset_size = run.subset_size;
      out.lot_size_on_subset = run.lot_size_on_subset;
      out.winner_candidate = run.winner_candidate;
      out.winner_label = run.winner_label;
      out.winner_score = run.winner_score;
    }
    append_final_run(out, run);
    if (run.cancelled) {
      out.cancelled = true;  // the replicates after it are not run
      break;
    }
  }
  if (!out.has_final) {
    out.final_results = SearchResults{};
    out.final_plan = PrivatePlan{};
  }
  return out;
}

}  // namespace dplab::tuning
