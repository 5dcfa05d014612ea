// What a view may show of a PRIVATE search (release_config.h), and how a private search's runs
// are laid out for the charts and tables that expect the explore grid.
//
// A private search trains the runs its selection drew up front (private_search.h): job i of
// SearchResults::jobs is global run i (JobResult::repeat = i), and a candidate may be drawn
// any number of times (LT, PS) or once (MA). Only each replicate's winner is released; every
// other run is private and may be shown only under the "not private: for teaching only" switch.
//
// grid_shaped_runs: the chosen runs laid out as an explore grid (jobs[c * R + r], R = the most
// runs of any one candidate among the chosen ones, and at least the release's replicate count
// config.repeats; empty slots kPending), so that aggregates,
// heatmaps and tables work unchanged. The release config stays private, so release_cost of the
// result is still the private cost.
// private_release_json / parse_private_release: the winners of a private search (what the run
// history keeps to reopen it showing only what was released).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "tuning/private_search.h"
#include "tuning/results.h"

namespace dplab::tuning {

// The global indices of the released runs (each replicate's winner; none while incomplete).
std::vector<std::int64_t> released_jobs(const PrivateRelease& release);
// Every run that was trained (any final status other than kPending).
std::vector<std::int64_t> trained_jobs(const SearchResults& runs);

// The runs `jobs` (indices into runs.jobs) as an explore-shaped grid; see above. Throws
// InvalidArgument for an index out of range.
SearchResults grid_shaped_runs(const SearchResults& runs, const std::vector<std::int64_t>& jobs);

// Where a private release's randomness came from, as every output states it: "secure: ..." (OS
// entropy + ChaCha20, no seed written) or "not secure: the seed in the config reproduces the
// noise ...": a seeded run can be replayed, and its noise undone, by whoever holds the config.
std::string noise_source_text(const experiment::ReleaseConfig& release);

nlohmann::json private_release_json(const PrivateRelease& release);
// Throws ParseError naming the key for a malformed object.
PrivateRelease parse_private_release(const nlohmann::json& j);

}  // namespace dplab::tuning
