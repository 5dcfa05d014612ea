#include "tuning/search_phases.h"

namespace dplab::tuning {

experiment::OptimizerConfig winner_entry(const experiment::Candidate& winner,
                                         double learning_rate) {
  using experiment::Param;
  experiment::OptimizerConfig entry;
  entry.kind = winner.optimizer.kind;
  entry.clipping = winner.clipping;  // automatic clipping: no clip axis (entry_takes)
  entry.clip_stability = winner.clip_stability;
  for (int i = 0; i < experiment::kNumParams; ++i) {
    const auto p = static_cast<Param>(i);
    if (!experiment::entry_takes(entry, p)) continue;
    experiment::ParamSpec spec;
    spec.kind = experiment::ParamSpec::Kind::kValues;
    spec.values = {p == Param::kLearningRate ? learning_rate : winner.value(p)};
    entry.grid[i] = spec;
  }
  return entry;
}

}  // namespace dplab::tuning
