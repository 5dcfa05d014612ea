// The summary of a search that a report carries next to its charts (summary.json): which run it
// is (experiment name, data set, n, task), the DP mechanism of every run (σ, q = L/n, T, δ),
// the best candidate per optimizer with its parameters and score (honest_selection.h: mean final
// validation accuracy, or final validation MSE for regression), and the privacy numbers of
// selecting among each optimizer's K candidates (single run, MA, LT; main paper section 3; these
// are PLANNING figures) plus the ε of what the report releases: tuning::release_cost (explore:
// every run trained composed in RDP with the queries it made; private modes: the selection's
// cost, only the winner released), with its label.
// Pure functions of a SearchResults, so a run reopened from the history gives the same summary.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "tuning/honest_selection.h"
#include "tuning/release_cost.h"
#include "tuning/results.h"

namespace dplab::tuning {

// The candidate's parameters as JSON (null for index < 0).
nlohmann::json candidate_json(const SearchResults& results, int candidate_index);
// One selection report (per optimizer or for the whole search) as JSON.
nlohmann::json selection_report_json(const SearchResults& results, const SelectionReport& report);

struct RunSummary {
  std::vector<SelectionReport> per_optimizer;  // honest_selection_per_optimizer
  int jobs_total = 0;                          // K_total · repeats
  int jobs_finished = 0;
  ReleaseCost release;  // release_cost(results): what the report's epsilon covers
};

RunSummary summarize_run(const SearchResults& results);
nlohmann::json run_summary_json(const SearchResults& results, const RunSummary& summary);
// A short human-readable README (Markdown) of the same numbers.
std::string run_summary_markdown(const SearchResults& results, const RunSummary& summary);

}  // namespace dplab::tuning
