// The winner of each optimizer: the candidate honest selection picks (honest_selection.h
// best_score: the best mean final validation accuracy over finished repeats, or the lowest final
// validation MSE for regression; diverged runs never win). Cheap: scores only, no accounting. The
// results table, the charts and the parallel coordinates highlight these, so every view agrees with
// `dplab-cli tune`'s summary.
#pragma once

#include <vector>

#include "tuning/results.h"

namespace dplab::tuning {

// One entry per optimizer of the config (config order): the winning candidate index, or -1 when
// none of its candidates has a finished job yet.
std::vector<int> winners_per_optimizer(const SearchResults& results);

}  // namespace dplab::tuning
