#include "release/model_release.h"

#include "core/error.h"
#include "release/search_release.h"

namespace dplab::release {

Release model_release(const tuning::SearchResults& runs,
                      const std::optional<tuning::PrivateRelease>& winners,
                      const std::optional<SpentBudget>& spent) {
  if (runs.config.release.mode == experiment::ReleaseMode::kExplore || !winners) {
    throw InvalidArgument(
        "this run explores: it released no model (dplab-cli tune --save-models best|all writes "
        "explore models)");
  }
  Release release = search_release(runs, winners, false, spent);
  if (release.models.empty()) {
    throw InvalidArgument(release.released.contains("models_not_kept")
                              ? "the released winner's model was not kept (a run read back from "
                                "a history written before schema v6, or trained in an earlier "
                                "attempt): nothing to export"
                              : "this private search released no winner: no model to export");
  }
  release.tables.clear();
  return release;
}

}  // namespace dplab::release
