#include "store/run_charges.h"

#include "core/error.h"
#include "tuning/release_cost.h"

namespace dplab::store {

Charges charges_of(const tuning::SearchResults& results) {
  Charges c;
  for (const auto& job : results.jobs) c.runs_trained += job.queries > 0 ? 1 : 0;
  try {
    const tuning::ReleaseCost cost = tuning::release_cost(results);
    c.epsilon = cost.epsilon;
    const bool random_count = cost.release.mode == experiment::ReleaseMode::kPrivate &&
                              cost.release.selection == experiment::PrivateSelection::kPs;
    c.runs_charged = random_count ? -1 : cost.runs_charged;
  } catch (const Error&) {
    // Not computable (e.g. a mechanism without noise): left unknown.
  }
  return c;
}

}  // namespace dplab::store
