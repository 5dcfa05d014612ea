// The ranking of an optimizer's candidates by mean final validation accuracy (main paper
// Figure 3: DPAdam's (alpha, beta1, beta2) grid, "the default ranks near the top"), with the
// optimizer's default marked: the candidate whose every tuned hyperparameter except the clip C
// equals optim::default_spec (DPAdam: alpha = 1e-3, beta1 = 0.9, beta2 = 0.999, Kingma & Ba).
// Rank 1 is the best; ties keep the candidate order. Only finished jobs count; a candidate
// without one is left out. Classification only. Pure functions; thread-safe.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tuning/results.h"

namespace dplab::tuning {

struct RankedCandidate {
  int rank = 0;  // 1 = best
  int candidate = 0;
  double mean_accuracy = 0;  // over finished repeats
  double sd_accuracy = 0;    // sample standard deviation over repeats (0 with one)
  int repeats_finished = 0;
  bool is_default = false;
};

struct CandidateRanking {
  int optimizer_index = 0;
  std::string optimizer;
  std::vector<RankedCandidate> rows;  // best first
  int default_rank = 0;               // 0: the default is not in the grid (or did not finish)
  double best_accuracy = 0;
  double default_accuracy = 0;  // NaN when default_rank == 0
};

// Throws InvalidArgument for a regression search.
CandidateRanking rank_candidates(const SearchResults& results, int optimizer_index);

// CSV: rank,candidate,optimizer,learning_rate,beta1,beta2,momentum,clip,mean_final_accuracy,
// sd_final_accuracy,repeats,is_default (one row per ranked candidate, best first).
void write_ranking_csv(const CandidateRanking& ranking, const SearchResults& results,
                       std::ostream& out);

}  // namespace dplab::tuning
