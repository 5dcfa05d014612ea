// `dplab-cli tune` with objective-perturbation entries (experiment/objpert_entry.h): runs their
// candidates after the DP-SGD runs (tuning/objpert_search.h), prints one line per candidate and
// the best, and adds them to summary.json under "objective_perturbation". The epsilon of the
// whole search (both kinds of runs composed) is tuning::release_cost_with_objpert.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "tuning/objpert_search.h"

namespace dplab::cli {

nlohmann::json objpert_search_json(const tuning::ObjpertSearch& search);
void print_objpert_search(const tuning::ObjpertSearch& search);

}  // namespace dplab::cli
