// Queries <-> optimizer updates (update_count.h).
#include "optim/update_count.h"

#include <string>

#include "core/error.h"

namespace dplab::optim {

int queries_per_update(OptimizerKind kind) {
  return kind == OptimizerKind::kAdaDp ? 2 : 1;
}

std::int64_t updates_for_queries(OptimizerKind kind, std::int64_t queries) {
  if (queries < 0) {
    throw InvalidArgument("queries = " + std::to_string(queries) + " must be >= 0");
  }
  return queries / queries_per_update(kind);
}

std::int64_t queries_for_updates(OptimizerKind kind, std::int64_t updates) {
  if (updates < 0) {
    throw InvalidArgument("updates = " + std::to_string(updates) + " must be >= 0");
  }
  return updates * queries_per_update(kind);
}

}  // namespace dplab::optim
