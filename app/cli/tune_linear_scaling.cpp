// `dplab-cli tune --release private-linear-scaling` (tune_release.h,
// tuning/linear_scaling_search.h).
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/tune_progress.h"
#include "cli/tune_release.h"
#include "core/error.h"
#include "release/linear_scaling_release.h"
#include "store/store.h"
#include "tuning/linear_scaling_search.h"

namespace dplab::cli {

int run_linear_scaling_tune(const experiment::ExperimentConfig& config,
                            std::shared_ptr<const data::TrainValidationSplit> data,
                            const tuning::RunOptions& options, const std::string& out_dir,
                            const std::string& config_path, store::Store* db, double db_retry) {
  const auto started = std::chrono::steady_clock::now();
  // The three phases (tuning/linear_scaling_search.h, the same code as dplab.tune's); the store
  // records the final run only: its stored cost (release_cost of its config) is the whole
  // procedure's, trials included.
  std::unique_ptr<store::StoreWriter> writer;
  tuning::LinearScalingRunHooks hooks;
  hooks.on_runner = [&](tuning::Runner* runner, int phase) {
    if (runner) {
      std::fprintf(stderr, "tune %s: %s\n", config.name.c_str(),
                   phase < 2 ? (phase == 0 ? "trial round 1 of 2 (every candidate once)"
                                           : "trial round 2 of 2 (every candidate once)")
                             : "final run at the extrapolated learning rate");
    }
    if (!runner || phase != 2 || !db) return;
    writer = std::make_unique<store::StoreWriter>(*db, db_retry);
    runner->add_listener(writer.get());
  };
  const tuning::LinearScalingRun run =
      tuning::run_linear_scaling_search(config, data, options, hooks);
  print_private_warning(run.first_warning, "dplab-cli tune");
  if (!run.has_final) {
    std::printf("%s: the trial rounds released nothing (no final run)\n",
                experiment::describe_release(config.release).c_str());
    return run.cancelled ? 130 : 1;
  }
  std::printf("%s\n", release::linear_scaling_fit_text(run.fit).c_str());
  // CURATOR ONLY: the trial rounds' winners and scores (the fit is what is released).
  const nlohmann::json curator{
      {"trial_rounds",
       {{{"winner_candidate", run.round_winner[0]}, {"winner_score", run.round_score[0]}},
        {{"winner_candidate", run.round_winner[1]}, {"winner_score", run.round_score[1]}}}},
      {"trial_runs", run.trial_runs}};
  const nlohmann::json released = release::linear_scaling_released_facts(run.fit);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return finish_private_tune(run.final_results, run.final_plan, out_dir, config_path, wall,
                             run.cancelled, db, writer ? writer->experiment_id() : 0, &curator,
                             &released);
}

}  // namespace dplab::cli
