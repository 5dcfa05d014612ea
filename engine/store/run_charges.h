// What a run's jobs charge, as the store records it in experiments.release_mode / runs_trained /
// runs_charged (internal to store/): written when an attempt ends (Store::end_attempt) and
// back-filled for runs stored before schema v3 (the migration), from the same function. The
// run's epsilon column is its spent budget over all attempts (store/attempt_charges.h).
#pragma once

#include <cstdint>
#include <limits>

#include "tuning/results.h"

namespace dplab::store {

// (runs trained, runs charged or -1, epsilon) of a search, from the engine's release cost.
struct Charges {
  std::int64_t runs_trained = 0;
  std::int64_t runs_charged = -1;
  double epsilon = std::numeric_limits<double>::quiet_NaN();
};
Charges charges_of(const tuning::SearchResults& results);

}  // namespace dplab::store
