// Per-optimizer aggregates of a finished search, the data behind the paper's figures:
// - max and median validation-accuracy curves over candidates (main paper Figures 4/5: "report
//   the max every 100 iterations"); each candidate's curve is the mean over its finished repeats;
//   for regression (and reconstruction) the curves are of the validation MSE and "best" is the
//   minimum — never of the training loss, which no epsilon covers (curve_metric_column);
// - the alpha-C grid of final training loss and final accuracy (Figure 2);
// - the "times best" score per (alpha, C) (appendix G, Figure 7): at each evaluation iteration,
//   +1 to the candidate with the best metric (ties: the lower candidate index), so the scores
//   sum to the number of evaluation iterations.
// Only kFinished jobs count. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tuning/results.h"

namespace dplab::tuning {

struct CurveAggregate {
  bool higher_is_better = true;  // accuracy curves; false for regression (validation MSE)
  std::vector<std::int64_t> iterations;
  std::vector<double> best;         // max accuracy (or min loss) over candidates
  std::vector<double> median;       // median over candidates
  std::vector<int> best_candidate;  // who is best at each iteration
};

struct AlphaClipGrid {
  std::vector<double> learning_rates;  // ascending, distinct
  std::vector<double> clips;           // ascending, distinct
  // Row-major [learning_rate][clip]; NaN where no finished candidate sits. When several
  // candidates share a cell (e.g. other parameters vary) the cell holds their mean.
  std::vector<double> final_train_loss;
  std::vector<double> final_accuracy;
  std::vector<int> times_best;
  std::vector<int> diverged;  // diverged jobs per cell (the heatmap labels such cells)
  std::size_t cell(std::size_t lr_index, std::size_t clip_index) const {
    return lr_index * clips.size() + clip_index;
  }
};

struct OptimizerAggregates {
  int optimizer_index = 0;
  std::string optimizer;
  CurveAggregate curves;
  AlphaClipGrid grid;
  std::vector<int> times_best_per_candidate;  // parallel to candidates_of(optimizer)
  int eval_points = 0;                        // = sum of times_best
  // The optimizer's winner (tuning/winners.h: honest selection's choice by final score; -1 if
  // none finished) and its mean-over-repeats curve at curves.iterations (NaN where it has no
  // point), which the charts highlight.
  int winner = -1;
  std::vector<double> winner_curve;
};

// The curves' metric as a CSV column value / curve field name: "val_accuracy", or "val_mse" for a
// search scored by loss (SearchResults::is_regression).
const char* curve_metric_column(bool regression);

OptimizerAggregates aggregate_optimizer(const SearchResults& results, int optimizer_index);
std::vector<OptimizerAggregates> aggregate_all(const SearchResults& results);

}  // namespace dplab::tuning
