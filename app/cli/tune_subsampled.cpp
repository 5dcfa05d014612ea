// `dplab-cli tune --release private-subsampled` (tune_release.h, tuning/subsampled_search.h).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/tune_progress.h"
#include "cli/tune_release.h"
#include "core/error.h"
#include "store/store.h"
#include "tuning/private_search.h"
#include "tuning/subsampled_search.h"

namespace dplab::cli {

int run_subsampled_tune(const experiment::ExperimentConfig& config,
                        std::shared_ptr<const data::TrainValidationSplit> data,
                        const tuning::RunOptions& options, const std::string& out_dir,
                        const std::string& config_path, store::Store* db, double db_retry,
                        bool show_curator) {
  if (db && config.release.final_data == privacy::FinalRunData::kComplement) {
    // The stored run's training size would be |X2| = n - |X1|, and |X1| is not covered.
    throw UsageError(
        "--db with final_data \"complement\" is not available yet: the stored "
        "training size would reveal the tuning subset's size");
  }
  if (db && config.repeats > 1) {
    // Each replicate's final run would be its own stored experiment; not wired yet.
    throw UsageError(
        "--db with --release private-subsampled and repeats > 1 is not available yet: store "
        "one procedure (repeats 1) per experiment");
  }
  const auto started = std::chrono::steady_clock::now();
  // Steps 1-3 (tuning/subsampled_search.h, the same code as the GUI's); the store records the
  // final run only.
  std::unique_ptr<store::StoreWriter> writer;
  tuning::SubsampledRunHooks hooks;
  hooks.on_runner = [&](tuning::Runner* runner, bool final_phase) {
    if (!runner || !final_phase || !db) return;
    writer = std::make_unique<store::StoreWriter>(*db, db_retry);
    runner->add_listener(writer.get());
  };
  const tuning::SubsampledRun run = tuning::run_subsampled_search(config, data, options, hooks);
  print_private_warning(run.first_warning, "dplab-cli tune");
  // |X1| and K are never released (docs/privacy-model.md); stderr ends up in Slurm and CI logs,
  // so they are printed only on request (--show-curator).
  if (!show_curator) {
    std::fprintf(stderr,
                 "tune %s: %s, %lld steps, n = %lld; the tuning subset's size and the number of "
                 "runs are private (curator-only.json; --show-curator prints them)\n",
                 config.name.c_str(), experiment::describe_release(config.release).c_str(),
                 static_cast<long long>(config.privacy.steps),
                 static_cast<long long>(data->train.size()));
  } else {
    std::fprintf(stderr,
                 "tune %s: %s, %lld steps, n = %lld; curator only, not for release: tuning subset "
                 "|X1| = %lld rows, %lld runs drawn\n",
                 config.name.c_str(), experiment::describe_release(config.release).c_str(),
                 static_cast<long long>(config.privacy.steps),
                 static_cast<long long>(data->train.size()),
                 static_cast<long long>(run.subset_size), static_cast<long long>(run.runs_trained));
    if (run.replicates.size() > 1) {
      for (std::size_t r = 0; r < run.replicates.size(); ++r) {
        std::fprintf(stderr,
                     "tune %s: replicate %zu, curator only, not for release: |X1| = %lld rows, "
                     "%lld runs drawn\n",
                     config.name.c_str(), r + 1,
                     static_cast<long long>(run.replicates[r].subset_size),
                     static_cast<long long>(run.replicates[r].runs_trained));
      }
    }
  }
  if (!run.has_final) {
    // K = 0 (or an incomplete search): the algorithm outputs nothing, and nothing is trained.
    std::printf("%s: the tuning search released nothing (no final run)\n",
                experiment::describe_release(config.release).c_str());
    return 0;
  }
  nlohmann::json tuning_phase{{"subset_size", run.subset_size},
                              {"runs_trained", run.runs_trained},
                              {"lot_size_on_subset", run.lot_size_on_subset},
                              {"winner_candidate", run.winner_candidate},
                              {"winner_label", run.winner_label},
                              {"winner_score", run.winner_score}};
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  nlohmann::json extra{{"tuning_phase", tuning_phase}};
  if (run.replicates.size() > 1) {
    // Curator only, like tuning_phase (replicate 1's): every replicate's tuning phase.
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& r : run.replicates) {
      phases.push_back({{"subset_size", r.subset_size},
                        {"runs_trained", r.runs_trained},
                        {"lot_size_on_subset", r.lot_size_on_subset},
                        {"winner_candidate", r.winner_candidate},
                        {"winner_label", r.winner_label},
                        {"winner_score", r.winner_score},
                        {"released_a_final_run", r.has_final}});
    }
    extra["tuning_phases"] = phases;
  }
  return finish_private_tune(run.final_results, run.final_plan, out_dir, config_path, wall,
                             run.cancelled, db, writer ? writer->experiment_id() : 0, &extra);
}

}  // namespace dplab::cli
