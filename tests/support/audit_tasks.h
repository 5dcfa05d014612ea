// The audit suites' small logistic task (tests/engine: one-run audit, reserved-coordinates
// audit, privacy-gap sweep): synthetic binary data with 5 % label noise, split 75 / 25, and a
// DP-SGD logistic-regression run on it (learning rate 0.5, clip 1).
#pragma once

#include <cstdint>

#include "core/types.h"
#include "data/synthetic.h"
#include "training/trainer.h"

namespace dplab::testing {

// `samples` rows of `dim` features (data seed 3, split seed 4).
inline data::TrainValidationSplit synthetic_audit_task(Index dim, Index samples) {
  data::SyntheticBinaryOptions o;
  o.num_samples = samples;
  o.dim = dim;
  o.label_noise = 0.05;
  o.seed = 3;
  return data::split_train_validation(data::make_synthetic_binary(o), 0.25, 4);
}

// DP-SGD on logistic regression with noise multiplier `sigma`, lot size L and T steps.
inline training::TrainingConfig dpsgd_logistic_run(double sigma, double lot_size,
                                                   std::int64_t steps, std::uint64_t seed) {
  training::TrainingConfig config;
  config.model.kind = models::ModelKind::kLogisticRegression;
  config.optimizer = optim::default_spec(optim::OptimizerKind::kDpSgd);
  config.optimizer.learning_rate = 0.5;
  config.dp.clip = 1.0;
  config.dp.noise_multiplier = sigma;
  config.dp.lot_size = lot_size;
  config.steps = steps;
  config.seed = seed;
  return config;
}

}  // namespace dplab::testing
