// `dplab-cli tune --release private-subsampled` (tune_release.h, tuning/subsampled_search.h).
#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/tune_release.h"
#include "core/error.h"
#include "store/store.h"
#include "tuning/private_search.h"
#include "tuning/subsampled_search.h"

namespace dplab::cli {

int run_subsampled_tune(const experiment::ExperimentConfig& config,
                        std::shared_ptr<const data::TrainValidationSplit> data,
                        const tuning::RunOptions& options, const std::string& out_dir,
                        const std::string& config_path, store::Store* db, double db_retry) {
  if (!config.objective_perturbation.empty()) {
    throw UsageError(
        "--release private-subsampled: objpert entries are searched in explore mode "
        "only");
  }
  if (data->train.is_regression()) {
    throw UsageError(
        "--release private-subsampled needs a classification data set: the regression score is "
        "computed on the private training set and is not covered by epsilon");
  }
  if (db && config.release.final_data == privacy::FinalRunData::kComplement) {
    // The stored run's training size would be |X2| = n - |X1|, and |X1| is not covered.
    throw UsageError(
        "--db with final_data \"complement\" is not available yet: the stored "
        "training size would reveal the tuning subset's size");
  }
  const auto started = std::chrono::steady_clock::now();
  // 1. The tuning subset X1 (Poisson q, seeded; never looks at the data) and the final data.
  const tuning::SubsampledSplits splits = tuning::split_for_subsampled_tuning(config, *data);
  const std::int64_t n = splits.full_training_size;
  const std::int64_t subset_size = splits.tuning->train.size();
  const std::int64_t final_size = splits.final->train.size();
  // 2. The Papernot-Steinke search on X1: K and the candidate draws up front, as in `private`.
  const experiment::ExperimentConfig tuning_config =
      tuning::tuning_phase_config(config, n, final_size, subset_size);
  const tuning::PrivatePlan plan = tuning::draw_private_plan(
      tuning_config, static_cast<int>(experiment::expand_candidates(tuning_config).size()),
      tuning_config.seed);
  // stderr is the curator's console: |X1| and K are never released (docs/privacy-model.md).
  std::fprintf(stderr,
               "tune %s: %s over %zu candidates of %lld steps, n = %lld; curator only, not for "
               "release: tuning subset |X1| = %lld rows, %zu runs drawn\n",
               config.name.c_str(), experiment::describe_release(config.release).c_str(),
               experiment::expand_candidates(tuning_config).size(),
               static_cast<long long>(config.privacy.steps), static_cast<long long>(n),
               static_cast<long long>(subset_size), plan.jobs.size());
  nlohmann::json tuning_phase{{"subset_size", subset_size},
                              {"runs_trained", static_cast<std::int64_t>(plan.jobs.size())},
                              {"lot_size_on_subset", tuning_config.privacy.lot_size}};
  tuning::PrivateRelease tuned;
  tuning::SearchResults tuning_results;
  if (!plan.jobs.empty()) {
    tuning::RunOptions tuning_options = options;
    tuning_options.plan = plan.jobs;
    tuning::Runner runner(tuning_config, splits.tuning, tuning_options);
    tuning_results = runner.run();
    tuned = tuning::select_private_winners(tuning_results, plan,
                                           tuning::score_noise_seed(tuning_config.seed));
  }
  const bool has_winner = !tuned.replicates.empty() && tuned.replicates[0].winner_candidate >= 0;
  if (!has_winner) {
    // K = 0 (or an incomplete search): the algorithm outputs nothing, and nothing is trained.
    std::printf("%s: the tuning search released nothing (no final run)\n",
                experiment::describe_release(config.release).c_str());
    return 0;
  }
  const auto& winner_rep = tuned.replicates[0];
  const experiment::Candidate& winner =
      tuning_results.candidates[static_cast<std::size_t>(winner_rep.winner_candidate)];
  tuning_phase["winner_candidate"] = winner_rep.winner_candidate;
  tuning_phase["winner_label"] = winner.label();
  tuning_phase["winner_score"] = winner_rep.released_score;
  // 3. One final run of the winner, its learning rate transferred (heuristic).
  const experiment::ExperimentConfig final_config =
      tuning::final_run_config(config, winner, n, final_size);
  tuning::PrivatePlan final_plan;
  final_plan.selection = experiment::PrivateSelection::kPs;
  tuning::ReplicatePlan rep;
  rep.candidates = {0};
  final_plan.replicates.push_back(rep);
  tuning::PlannedJob job;
  job.seed = derive_seed(final_config.seed, 1);
  final_plan.jobs.push_back(job);
  tuning::RunOptions final_options = options;
  final_options.plan = final_plan.jobs;
  tuning::Runner final_runner(final_config, splits.final, final_options);
  std::unique_ptr<store::StoreWriter> writer;
  if (db) {
    writer = std::make_unique<store::StoreWriter>(*db, db_retry);
    final_runner.add_listener(writer.get());
  }
  tuning::SearchResults final_results = final_runner.run();
  // Released: the full n (public), never |X2| = n - |X1| (the subset size is not covered).
  final_results.training_size = n;
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const nlohmann::json extra{{"tuning_phase", tuning_phase}};
  return finish_private_tune(final_results, final_plan, out_dir, config_path, wall,
                             final_runner.cancel_requested(), db,
                             writer ? writer->experiment_id() : 0, &extra);
}

}  // namespace dplab::cli
