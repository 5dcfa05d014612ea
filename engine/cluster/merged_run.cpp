#include "cluster/merged_run.h"
#include "core/json_text.h"

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "store/store.h"
#include "tuning/private_release_view.h"

namespace dplab::cluster {

MergedRun store_merged_run(const SearchPlan& plan, const MergeReport& merged,
                           store::Store& history) {
  MergedRun out;
  const tuning::SearchResults& results = merged.results;
  store::StoreWriter writer(history);
  writer.record_as_merge();  // the attempt that charges every job the shards trained
  writer.on_start(results);
  for (const auto& job : results.jobs) writer.on_job_finished(job);
  writer.on_finished(results, false);
  if (const auto error = writer.first_error())
    throw IoError(history.path() + ": the merged run could not be stored: " + *error);
  out.run_id = writer.experiment_id();
  if (plan.private_plan) {
    out.release = tuning::select_private_winners(results, *plan.private_plan,
                                                 tuning::score_noise_seed(results.config.seed));
    history.save_summary(out.run_id, "private_release",
                         json_text(tuning::private_release_json(*out.release)));
  }
  return out;
}

}  // namespace dplab::cluster
