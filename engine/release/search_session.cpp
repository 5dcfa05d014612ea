#include "release/search_session.h"

#include "core/error.h"
#include "core/os_entropy.h"
#include "experiment/run_count_visibility.h"
#include "release/linear_scaling_release.h"
#include "release/search_release.h"
#include "tuning/experiment_data.h"
#include "tuning/linear_scaling_search.h"
#include "tuning/objpert_search.h"
#include "tuning/private_search.h"
#include "tuning/subsampled_search.h"

namespace dplab::release {
namespace {

// Runs `runner`, telling the hooks before and after (an exception included).
tuning::SearchResults run_runner(tuning::Runner& runner, bool final_phase,
                                 const SearchSessionHooks& hooks) {
  if (hooks.on_runner) hooks.on_runner(&runner, final_phase);
  try {
    tuning::SearchResults results = runner.run();
    if (hooks.on_runner) hooks.on_runner(nullptr, final_phase);
    return results;
  } catch (...) {
    if (hooks.on_runner) hooks.on_runner(nullptr, final_phase);
    throw;
  }
}

// An explore search's first failed job as an Error (its runs are all shown, so is the failure).
void refuse_failed_jobs(const tuning::SearchResults& results) {
  for (const auto& job : results.jobs) {
    if (job.status == tuning::JobStatus::kFailed) {
      throw Error("job (candidate " + std::to_string(job.candidate) + ", repeat " +
                  std::to_string(job.repeat) + ") failed: " + job.error);
    }
  }
}

}  // namespace

SearchSession run_search_session(experiment::ExperimentConfig config, tuning::RunOptions options,
                                 const SearchSessionHooks& hooks, const data::Dataset* given) {
  if (config.release.secure) config.seed = os_random_u64();  // never printed nor written
  options.secure = config.release.secure;
  std::shared_ptr<const data::TrainValidationSplit> data =
      given ? tuning::split_experiment_data(config, *given) : tuning::load_experiment_data(config);
  if (hooks.prepare_data) data = hooks.prepare_data(std::move(data));
  SearchSession session;
  session.notes = data->notes;
  session.notes.push_back("preprocessing: " + data->preprocessing.description);
  session.hides_run_count = experiment::hides_run_count(config.release);
  if (config.release.subsampled) {
    tuning::SubsampledRunHooks phase_hooks;
    phase_hooks.on_runner = hooks.on_runner;
    const tuning::SubsampledRun run =
        tuning::run_subsampled_search(config, std::move(data), options, phase_hooks);
    session.cancelled = run.cancelled;
    if (!run.has_final) {
      // K = 0 or a cancelled tuning phase: the algorithm outputs nothing.
      session.release.experiment = config.name;
      session.release.mode = experiment::describe_release(config.release);
      session.release.cancelled = run.cancelled;
      session.release.privacy = nlohmann::json::object();
      session.release.released = {{"nothing", "the tuning search released nothing (no final run)"}};
      return session;
    }
    const tuning::PrivateRelease winners = tuning::select_private_winners(
        run.final_results, run.final_plan, tuning::score_noise_seed(run.final_results.config.seed));
    session.release = private_release(run.final_results, winners, run.cancelled);
    session.results = run.final_results;
    session.selection = winners;
    return session;
  }
  if (config.release.linear_scaling) {
    tuning::LinearScalingRunHooks phase_hooks;
    if (hooks.on_runner) {
      phase_hooks.on_runner = [&](tuning::Runner* runner, int phase) {
        hooks.on_runner(runner, phase == 2);
      };
    }
    const tuning::LinearScalingRun run =
        tuning::run_linear_scaling_search(config, std::move(data), options, phase_hooks);
    session.cancelled = run.cancelled;
    session.release = linear_scaling_release(run, config.name);
    return session;
  }
  const bool is_private = config.release.mode == experiment::ReleaseMode::kPrivate;
  tuning::PrivatePlan plan;
  if (is_private) plan = tuning::draw_private_jobs(config, *data, options);
  tuning::Runner runner(config, data, options);
  const tuning::SearchResults results = run_runner(runner, false, hooks);
  session.cancelled = runner.cancel_requested();
  if (is_private) {
    const tuning::PrivateRelease winners =
        tuning::select_private_winners(results, plan, tuning::score_noise_seed(config.seed));
    session.release = private_release(results, winners, session.cancelled);
    session.results = results;
    session.selection = winners;
    return session;
  }
  refuse_failed_jobs(results);
  // Objective-perturbation candidates (if any) run after the DP-SGD jobs, charged with them.
  const tuning::ObjpertSearch objpert =
      session.cancelled ? tuning::ObjpertSearch{}
                        : tuning::run_objpert_search(config, *data, hooks.cancel);
  session.cancelled = session.cancelled || (hooks.cancel && hooks.cancel->load());
  session.release = explore_release(results, session.cancelled, std::nullopt, &objpert);
  return session;
}

}  // namespace dplab::release
