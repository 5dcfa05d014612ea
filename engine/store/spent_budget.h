// What a run has spent over all its attempts (Store::spent_budget, store/store.h): a light
// header of its own so that views can hold one without the store's.
#pragma once

#include <string>

namespace dplab::store {

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

}  // namespace dplab::store
