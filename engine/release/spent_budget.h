// What a stored run has spent over all its attempts (run, cancel, resume, kill, merge), and how a
// release states it. The store composes the attempts (store/attempt_charges.h,
// Store::spent_budget); this type and the one rule that turns it into a release's headline live
// here, below the store, so that the release builders (search_release.h), the history and the
// GUI header all state the same number with the same words.
#pragma once

#include <string>

#include "tuning/release_cost.h"

namespace dplab::release {

// compose_attempts (store/attempt_charges.h): epsilon at delta (NaN: not computable); attempts =
// how many attempts the run had; composition = "none" (nothing trained), "single" (one attempt
// charged), "rdp" (curves added order by order, converted at the run's delta) or "basic" (sum of
// eps, sum of delta).
struct SpentBudget {
  double epsilon = 0;
  double delta = 0;
  int attempts = 0;
  std::string composition;
};

// The release cost of a stored run, with the epsilon it has SPENT: epsilon and delta are the
// composition of every attempt's charge (>= the cost of the jobs it holds when a cancelled job was
// re-run), and `covers` says over how many attempts and how they composed when more than one
// attempt is recorded.
tuning::ReleaseCost with_spent_budget(tuning::ReleaseCost cost, const SpentBudget& spent);

}  // namespace dplab::release
