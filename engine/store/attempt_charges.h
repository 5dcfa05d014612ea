// What each attempt at a run charged, and the run's spent budget: the composition of every
// attempt's charge (issue #42 finding 2: charges only add). Internal to store/ (schema v5, table
// `attempts`; store.h).
//
// An attempt is one process writing the run: the first run, each resume (after a cancel, a kill
// or a full disk) and a cluster merge. It is charged what IT trained: the jobs it ran, not the
// jobs kept from earlier attempts. A job re-run after a cancel is charged again by the re-run
// (its earlier partial queries stay charged by the earlier attempt: with secure noise the re-run
// draws fresh noise, so the two are separate mechanisms).
//   explore  the RDP curve of the attempt's queries (the runs trained compose order by order);
//   private  the selection's whole cost (every replicate) when any of its runs touched the data
//            (queries > 0), else nothing: conservative, since a resumed private search releases
//            one winner per replicate, not one per attempt (docs/privacy-model.md).
// An attempt still open (being written, or its writer died before it ended) is charged an upper
// bound: the jobs it stored exactly, every other job it set out to train at its full T steps.
// Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store/store.h"
#include "tuning/results.h"

namespace dplab::store {

struct AttemptCharge {
  std::int64_t attempt = 0;  // 1, 2, ... in the order they ran
  std::string kind;          // "run", "resume", "merge", "migrated" (back-filled by schema v5)
  bool open = false;         // not ended yet (its charge is the upper bound above)
  std::string outcome;       // finished | cancelled | incomplete | interrupted | migrated; "" open
  std::int64_t planned_jobs = 0;  // the jobs it set out to train
  std::int64_t runs_trained = 0;  // of those, the runs that touched the data (queries > 0)
  std::int64_t queries = 0;       // their noisy-gradient queries
  double epsilon = 0;             // at `delta`; NaN: not computable (e.g. sigma = 0)
  double delta = 0;
  // The charge's RDP curve (empty: only (epsilon, delta) exists, as for private lt).
  std::vector<double> rdp_orders;
  std::vector<double> rdp;
};

// The charge of the jobs in `trained`: a run's results holding only the jobs this attempt
// trained (every other job with queries = 0). Nothing trained: epsilon = delta = 0, no curve
// (private-subsampled excepted: its tuning phase ran before the stored final run).
AttemptCharge charge_of_jobs(const tuning::SearchResults& trained);

// The jobs an open attempt is charged for: `run` (config and mechanism) with the jobs it stored
// (their queries exactly) and planned_jobs - stored.size() more at the full T steps each.
tuning::SearchResults open_attempt_jobs(const tuning::SearchResults& run,
                                        const std::vector<tuning::JobResult>& stored,
                                        std::int64_t planned_jobs);

// The spent budget of a run from its attempts' charges, converted at the run's delta when they
// compose by RDP (math in attempt_charges.cpp). attempts = every attempt, charged or not.
SpentBudget compose_attempts(const std::vector<AttemptCharge>& attempts, double run_delta);

}  // namespace dplab::store
