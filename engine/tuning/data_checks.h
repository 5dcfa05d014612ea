// Checks of an experiment against the data it will train on, before any run: the training and
// validation sets are not empty, L <= n, and the model fits the task (linear regression needs a
// real-valued target; logistic regression and the TLNN need class labels). Throws
// InvalidArgument naming the field. Used by the Runner and by the GUI form once the data is loaded.
#pragma once

#include "data/dataset.h"
#include "experiment/experiment_config.h"

namespace dplab::tuning {

void validate_against_data(const experiment::ExperimentConfig& config,
                           const data::TrainValidationSplit& data);

// Whether the search scores candidates by loss (SearchResults::is_regression) rather than by
// accuracy: regression data, or a model without accuracy (an autoencoder's reconstruction MSE;
// models/model_metric.h). One rule for the Runner and the GUI's live plan.
bool scored_by_loss(const experiment::ExperimentConfig& config,
                    const data::TrainValidationSplit& data);

// A search scored by loss is selected on the validation MSE (results.h selection_score), whose
// sensitivity is unbounded (one validation example can move it arbitrarily): the score noise of
// validation "private" (calibrated to the accuracy's 1/n_val) would not cover it. Throws
// InvalidArgument naming release.validation for that combination; validate_against_data calls it.
void check_score_noise_applies(const experiment::ReleaseConfig& release, bool scored_by_loss);

}  // namespace dplab::tuning
