// A released model applied to new rows (dplab-cli predict, the Python module's Model.predict):
// the predictions table, one row per input row. Predictions are a post-processing of the released
// model, so they are covered by the model's ε with respect to its TRAINING data (the new rows are
// the user's own); every row carries the model's ε label (epsilon_label), like every released CSV.
//
// Columns: `row` (the input file's line for a CSV, else the 0-based row index), then
//   classification: `predicted` (the class label) and `p_<label>` per class (probabilities);
//   regression:     `predicted`;
//   reconstruction: `output_0` ... `output_<d-1>` (the autoencoder's image, HWC order).
#pragma once

#include <vector>

#include "core/csv_table.h"
#include "release/model_artefact.h"

namespace dplab::release {

// The model's outputs for the rows of `input` (encoded by load_model_input), computed in blocks
// (bounded memory whatever the number of rows): probabilities or values (models::predict_outputs).
Matrix model_outputs(const LoadedModel& model, const data::Dataset& input);

// The predictions table of `outputs` (model_outputs). `rows`: the input's line numbers (or empty:
// 0-based row indices).
csv::CsvTable predictions_table(const LoadedModel& model, const Matrix& outputs,
                                const std::vector<long>& rows);

// Fraction of rows whose predicted class is the input's label (classification inputs with
// labels), the mean squared error (regression), NaN for a reconstruction: predict's summary.
double prediction_score(const LoadedModel& model, const Matrix& outputs,
                        const data::Dataset& input);

}  // namespace dplab::release
