#include "tuning/winners.h"

#include "tuning/honest_selection.h"

namespace dplab::tuning {

std::vector<int> winners_per_optimizer(const SearchResults& results) {
  std::vector<int> out;
  for (std::size_t o = 0; o < results.config.optimizers.size(); ++o) {
    const auto scores = score_candidates(
        results, experiment::candidates_of(results.candidates, static_cast<int>(o)));
    const CandidateScore* best = best_score(scores);
    out.push_back(best ? best->candidate : -1);
  }
  return out;
}

}  // namespace dplab::tuning
