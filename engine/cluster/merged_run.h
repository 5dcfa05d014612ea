// The run-history step of `dplab-cli history merge` (issue #28), one function for the CLI and the
// GUI's Merge button: the whole search of merge_shards (every planned job once, with the plan's
// seed) written into the history as a local run with --db writes it
// (store::StoreWriter, job by job), and for a private release the winners selected as tune
// selects them (select_private_winners with the plan's draws and seed) kept as the run's
// "private_release" summary, so that the history reopens it showing only what is released.
// The CLI then writes tune's files (finish_explore_tune / finish_private_tune).
// Errors: IoError naming the job or file (merge_shards) or the history.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cluster/search_plan.h"
#include "tuning/private_search.h"

namespace dplab::store {
class Store;
}

namespace dplab::cluster {

struct MergedRun {
  std::int64_t run_id = -1;                       // the run in the history
  std::optional<tuning::PrivateRelease> release;  // a private release: its winners
};

MergedRun store_merged_run(const SearchPlan& plan, const MergeReport& merged,
                           store::Store& history);

}  // namespace dplab::cluster
