// A whole search from its experiment to its Release, for the doors that only want the release:
// the Python module's dplab.tune. The steps are the engine's, in the order `dplab-cli tune` runs
// them (which adds the run history, plans, resume and its printed report around the same calls):
//   explore                 every job (tuning::Runner), then the objective-perturbation entries;
//                           explore_release (search_release.h);
//   private (ma / lt / ps)  the jobs drawn up front (tuning::draw_private_jobs), the winners
//                           selected (tuning::select_private_winners with the experiment's score
//                           noise seed), private_release: the winners only, nothing when cancelled;
//   private-subsampled      tuning::run_subsampled_search, then private_release of its final run;
//   private-linear-scaling  tuning::run_linear_scaling_search, then linear_scaling_release.
// Secure noise (release.secure) draws the experiment seed from the operating system, as tune
// does. What K and the wall time reveal stays in Release::curator, which a door must not show.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "experiment/experiment_config.h"
#include "release/release.h"
#include "tuning/private_search.h"
#include "tuning/results.h"
#include "tuning/runner.h"

namespace dplab::release {

struct SearchSessionHooks {
  // Called with each Runner before it runs (to read its progress, cancel or pause it) and with
  // nullptr once it has run; `final_phase`: the final run of private-subsampled. May be empty.
  std::function<void(tuning::Runner* runner, bool final_phase)> on_runner;
  // Checked by the objective-perturbation entries (the runners are cancelled via on_runner).
  const std::atomic<bool>* cancel = nullptr;
  // Called once with the loaded split, before anything is drawn or trained; the search runs on
  // what it returns (the audit of a tuning release adds its canaries to the training rows,
  // release/tuning_audit.h). May be empty.
  std::function<std::shared_ptr<const data::TrainValidationSplit>(
      std::shared_ptr<const data::TrainValidationSplit>)>
      prepare_data;
};

struct SearchSession {
  Release release;
  bool cancelled = false;
  // A private LT / PS search (experiment::hides_run_count): no count, throughput or time of its
  // runs may be shown.
  bool hides_run_count = false;
  // What loading the data changed (Dataset::notes) and how it was scaled, as tune prints them.
  std::vector<std::string> notes;
  // Private modes: the runs the release was selected from (private-subsampled: the final
  // phase's) and the selection. CURATOR ONLY (every run's result, hence K): for an engine
  // caller that audits the release (release/tuning_audit.h), never for a door to show.
  tuning::SearchResults results;
  tuning::PrivateRelease selection;
};

// Loads the experiment's data (tuning::load_experiment_data, after the secure seed is drawn: the
// split follows the experiment seed unless split_seed is given), then searches. `given`: data
// handed over in memory (dplab.tune(experiment, X, y)), split as the experiment says
// (tuning::split_experiment_data) instead of loading its `dataset` source. Throws
// InvalidArgument naming the problem (a config that does not fit the data, a private mode it
// cannot run), and Error naming the first failed job of an explore search (tune exits 1 then).
SearchSession run_search_session(experiment::ExperimentConfig config, tuning::RunOptions options,
                                 const SearchSessionHooks& hooks = {},
                                 const data::Dataset* given = nullptr);

}  // namespace dplab::release
