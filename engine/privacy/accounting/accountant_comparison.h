// Series for the "accountants disagree" view: epsilon of the same mechanism under RDP and PLD
// as the number of steps T grows (one run) and as the number of candidates K grows (the MA
// release: K runs composed). The gap between the curves is what RDP's looseness costs.
// Pure engine functions; a PLD point costs ~5-50 ms, so callers on a GUI thread run them in a
// worker (ui/ does). Thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "privacy/accounting/pld/pld_accountant.h"
#include "privacy/accounting/rdp_accountant.h"

namespace dplab::privacy {

struct AccountantGapPoint {
  std::int64_t x = 0;  // T (steps) or K (candidates)
  double epsilon_rdp = 0.0;
  double epsilon_pld = 0.0;
  double pld_error_bound = 0.0;
};

// T evenly spaced (geometrically when the range spans > 1 decade): points values from
// steps_first to steps_last. run.steps is ignored.
std::vector<AccountantGapPoint> accountant_gap_vs_steps(const SubsampledGaussian& run, double delta,
                                                        std::int64_t steps_first,
                                                        std::int64_t steps_last, int points,
                                                        const PldOptions& pld = {});

// K = 1..max_candidates (at most `points` values, spread), each K runs of run.steps.
std::vector<AccountantGapPoint> accountant_gap_vs_candidates(const SubsampledGaussian& run,
                                                             double delta, int max_candidates,
                                                             int points,
                                                             const PldOptions& pld = {});

}  // namespace dplab::privacy
