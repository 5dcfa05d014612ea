// Parallel coordinates of a search (Inselberg 1985): one vertical axis per tuned hyperparameter
// (alpha, C, beta1, beta2, m — those that some candidate has) and a last axis for the score
// (mean final validation accuracy, or final validation MSE for regression; honest_selection.h
// score_candidates), one polyline per candidate with a finished job.
//
// Axis scale: logarithmic where the grid is log-spaced — a log10 grid or log-uniform range in
// the experiment (experiment_config.h ParamSpec), or an explicit list of >= 3 values in
// geometric progression (consecutive ratios equal within 1e-6) — and all values are > 0;
// otherwise linear. axis_fraction maps a value to [0, 1] on its axis (log10 on log axes); an
// axis whose values are all equal puts them at 0.5. A candidate without the hyperparameter (DPSGD
// has no beta1) has NaN there.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "tuning/results.h"

namespace dplab::tuning {

struct ParallelAxis {
  std::string name;  // "learning_rate", "clip", "beta1", "beta2", "momentum", "accuracy", "loss"
  bool is_score = false;
  bool log = false;
  double low = 0, high = 0;    // range of the finite values
  std::vector<double> values;  // one per row; NaN: not a hyperparameter of that candidate
};

struct ParallelCoordinates {
  std::vector<int> candidates;       // rows: candidates with a finished score
  std::vector<int> optimizer_index;  // per row
  std::vector<bool> winner;          // per row: its optimizer's winner (tuning/winners.h)
  std::vector<ParallelAxis> axes;    // hyperparameters, then the score
  bool regression = false;
};

ParallelCoordinates parallel_coordinates(const SearchResults& results);

double axis_fraction(const ParallelAxis& axis, double value);
// >= 3 distinct positive values with equal consecutive ratios (sorted; relative tolerance 1e-6).
bool is_geometric(std::vector<double> values);

}  // namespace dplab::tuning
