// The tables of a search's release (for papers and slides): long format, one row per
// learning-curve point with every hyperparameter as a column; the per-optimizer aggregates behind
// the paper's Figures 2, 4/5 and 7; the alpha-C grid; and a private search's winners. Numbers
// are core/number_text.h's (shortest round trip; NaN an empty field). Each column's privacy class
// is field_class.cpp's row for the table's file. Pure functions; thread-safe.
#pragma once

#include <vector>

#include "core/csv_table.h"
#include "tuning/aggregates.h"
#include "tuning/private_search.h"
#include "tuning/results.h"

namespace dplab::release {

// curves.csv: candidate, repeat, optimizer, learning_rate, clip, momentum, beta1, beta2,
// adam_epsilon, seed, status, iteration, train_loss, val_loss, val_accuracy, epsilon_per_run (the
// epsilon of THIS run's queries so far, not of the search: that is the label's), step_size,
// clip_threshold (the C the next step uses: OSO-DPSGD's / FixedQuantile's live C_t, else the
// candidate's C; empty for runs stored before it was recorded), val_mse (models without
// accuracy). OSO-DPSGD's live rho_t is step_size. Every job with points is written (cancelled
// jobs too: see `status`).
csv::CsvTable curves_table(const tuning::SearchResults& results);
// aggregate_curves.csv: optimizer, iteration, best, median, best_candidate, metric.
csv::CsvTable aggregate_curves_table(const std::vector<tuning::OptimizerAggregates>& aggregates,
                                     const std::string& metric);
// alpha_clip_grid.csv: optimizer, learning_rate, clip, final_train_loss, final_accuracy,
// times_best (the table the GUI heatmap exports too).
csv::CsvTable alpha_clip_grid_table(const std::vector<tuning::OptimizerAggregates>& aggregates);
// curve.csv of one training run: iteration, train_loss, val_loss, val_accuracy,
// epsilon_per_run, step_size, clip (the live C_t of adaptive clipping; the fixed C otherwise;
// empty without clipping), val_mse (regression and reconstruction; empty for classifiers).
csv::CsvTable curve_table(const std::vector<training::CurvePoint>& curve);
// winners.csv of a private search: replicate, candidate, label, iteration, val_accuracy — each
// released winner's validation curve (validation public), or its one noisy score at its number
// of queries (validation private). Nothing else of any run.
csv::CsvTable winners_table(const tuning::SearchResults& results,
                            const tuning::PrivateRelease& release);

}  // namespace dplab::release
