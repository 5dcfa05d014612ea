// Section 5.2's pruning on known ground, shared by the engine's pruned comparison and the
// reproduction report's section 5.2 suites: the tiny experiment (support/tiny_experiment.h: 4
// DPSGD candidates, then 1 DPAdam; 2 repeats) with given final accuracies and learning curves,
// and the accuracies and curves both use, where DPSGD's curves make candidates 0 and 2 the
// times-best ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "support/tiny_experiment.h"
#include "tuning/results.h"

namespace dplab::testing {

// kTimesBestAccuracies[c][r]: candidate c's final accuracy in repeat r.
inline const std::vector<std::vector<double>> kTimesBestAccuracies = {
    {0.70, 0.80}, {0.60, 0.65}, {0.90, 0.75}, {0.50, 0.55}, {0.85, 0.86}};
// kTimesBestCurves[c][p]: candidate c's accuracy at iteration 10 (p + 1), in both repeats.
inline const std::vector<std::vector<double>> kTimesBestCurves = {{0.9, 0.9, 0.1, 0.1, 0.1},
                                                                  {0.2, 0.2, 0.2, 0.2, 0.2},
                                                                  {0.1, 0.1, 0.9, 0.9, 0.9},
                                                                  {0.3, 0.3, 0.3, 0.3, 0.3},
                                                                  {0.5, 0.5, 0.5, 0.5, 0.5}};

// The tiny experiment with every job finished: final accuracies acc[c][r] and curves at
// iterations 10..50 whose accuracy is curve[c][point] for both repeats.
inline tuning::SearchResults tiny_results_with_curves(
    const std::vector<std::vector<double>>& acc = kTimesBestAccuracies,
    const std::vector<std::vector<double>>& curve = kTimesBestCurves) {
  tuning::SearchResults results;
  results.config = tiny_experiment();
  results.candidates = experiment::expand_candidates(results.config);
  for (std::size_t c = 0; c < results.candidates.size(); ++c) {
    for (int r = 0; r < results.config.repeats; ++r) {
      tuning::JobResult job;
      job.candidate = static_cast<int>(c);
      job.repeat = r;
      job.status = tuning::JobStatus::kFinished;
      job.final_val_accuracy = acc[c][static_cast<std::size_t>(r)];
      for (std::size_t p = 0; p < curve[c].size(); ++p) {
        training::CurvePoint point;
        point.iteration = static_cast<std::int64_t>(10 * (p + 1));
        point.val_accuracy = curve[c][p];
        job.curve.push_back(point);
      }
      results.jobs.push_back(job);
    }
  }
  return results;
}

}  // namespace dplab::testing
