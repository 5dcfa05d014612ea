// Noisy-gradient queries versus optimizer updates. dplab's T (privacy.steps, --steps) counts
// noisy-gradient QUERIES, because that is what the accountant composes. Most optimizers make one
// query per update; ADADP (Koskela & Honkela 2020, Alg. 1) makes two per update (a full step and
// two half steps, each half step on a fresh lot), so at equal T it makes half the updates. These
// functions are the one mapping between the two counts (the GUI's "optimizer steps" axis, the
// README, and AdaDp::queries_per_step() all use them).
#pragma once

#include <cstdint>

#include "optim/optimizer.h"

namespace dplab::optim {

// Noisy-gradient queries one update of `kind` makes: 2 for ADADP, else 1.
int queries_per_update(OptimizerKind kind);

// Updates completed after `queries` queries: floor(queries / queries_per_update(kind)) (the
// trainer never starts an update it cannot finish within T). queries must be >= 0.
std::int64_t updates_for_queries(OptimizerKind kind, std::int64_t queries);

// Queries that `updates` updates of `kind` cost: updates * queries_per_update(kind).
std::int64_t queries_for_updates(OptimizerKind kind, std::int64_t updates);

}  // namespace dplab::optim
