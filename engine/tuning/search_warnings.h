// What a finished search says about its training guards' warnings (training/training_guards.h:
// lot sizes off q n, parameters that never moved, ...), one rule for every door: `tune`,
// `run-jobs`, the phased modes, the GUI's message log.
//
// Explore: one line per warning, naming its job (candidate, repeat); the runs are all public.
// A private release: at most one line, without a count and marked curator only. Its runs other
// than the winner are not released; neither which of them warned nor how many is (for LT / PS,
// the number of runs K is itself curator-only, and "6 runs warned" is a lower bound on K). A
// phased mode (private-subsampled, private-linear-scaling) adds its earlier phases' runs, which
// are never shown: their first warning stands for the whole procedure.
#pragma once

#include <string>
#include <vector>

#include "tuning/results.h"

namespace dplab::tuning {

// The first warning of any job of `results`, in job order ("" if none warned).
std::string first_warning(const SearchResults& results);

// "warning (curator only, not for release): at least one run of the search warned; the first:
// TEXT" (empty `first`: no line, "").
std::string private_warning_line(const std::string& first);

// The lines to show for `results` (its config's release mode decides): explore "warning:
// candidate C, repeat R: TEXT" per warning; a private release private_warning_line(first), or
// nothing.
std::vector<std::string> search_warning_lines(const SearchResults& results);

}  // namespace dplab::tuning
