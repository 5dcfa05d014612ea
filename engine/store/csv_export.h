// CSV export of a search (for papers and slides): long format, one row per learning-curve point
// with every hyperparameter as a column, and the per-optimizer aggregates behind the paper's
// Figures 2, 4/5 and 7. Numbers are written with 17 significant digits; NaN is an empty field.
// Errors: IoError naming the file.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "store/csv_table.h"
#include "tuning/aggregates.h"
#include "tuning/results.h"

namespace dplab::store {

// Columns: candidate, repeat, optimizer, learning_rate, clip, momentum, beta1, beta2,
// adam_epsilon, seed, status, iteration, train_loss, val_loss, val_accuracy, epsilon_per_run (the
// epsilon of THIS run's queries so far, not of the search: that is the label's), step_size,
// clip_threshold (the C the next step uses: OSO-DPSGD's / FixedQuantile's live C_t, else the
// candidate's C; empty for runs stored before it was recorded), val_mse (models without accuracy).
// OSO-DPSGD's live rho_t is step_size.
// Every job with points is written (cancelled jobs too: see `status`).
void write_curves_csv(const tuning::SearchResults& results, std::ostream& out);
// Columns: optimizer, iteration, best, median, best_candidate, metric (val_accuracy|train_loss).
void write_aggregate_curves_csv(const std::vector<tuning::OptimizerAggregates>& aggregates,
                                bool regression, std::ostream& out);
// Columns: optimizer, learning_rate, clip, final_train_loss, final_accuracy, times_best (the
// table the GUI heatmap exports, the same fields as alpha_clip_grid.csv).
CsvTable alpha_clip_grid_table(const std::vector<tuning::OptimizerAggregates>& aggregates);
void write_alpha_clip_grid_csv(const std::vector<tuning::OptimizerAggregates>& aggregates,
                               std::ostream& out);

// Writes curves.csv, aggregate_curves.csv and alpha_clip_grid.csv into `directory` (created if
// missing), each starting with one comment line, the epsilon label of the search
// (tuning::epsilon_csv_comment: "# dplab: eps <= ... (mode: what it covers; delta; validation);
// accountant: rdp; eps rounded up to 2 decimals"); read them with pandas.read_csv(...,
// comment="#"). Returns the paths written.
std::vector<std::string> export_csv(const tuning::SearchResults& results,
                                    const std::string& directory);

}  // namespace dplab::store
