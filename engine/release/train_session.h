// One training run from named settings to its Release, as `dplab-cli train` and the Python
// module's dplab.train run it (one implementation for both doors): the request's rules (the run
// settings of experiment/run_settings.h, the accountant, secure noise), the training itself, the
// epsilon of the queries made under the chosen accountant, its label with what it does not cover
// (the training losses; a scaling fitted on the private data), the Release of the run
// (train_release.h: curve.csv and release.json) and summary.json's object.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/settings.h"
#include "data/dataset.h"
#include "experiment/run_settings.h"
#include "privacy/selection/accountant_settings.h"
#include "release/release.h"
#include "training/trainer.h"

namespace dplab::release {

struct TrainRequest {
  experiment::RunSettings run;
  privacy::AccountantSettings accountants;
  // Lots and noise from the operating system (getrandom, ChaCha20, the discrete Gaussian); the
  // seed is drawn from the OS too and never written.
  bool secure = false;
  // "threads" T: the lot's per-example work split over T threads (training::TrainingConfig::
  // threads; the same model for every T >= 1). 0 (not given): the model itself, as tune's jobs.
  int threads = 0;
  SettingSpelling spelling = SettingSpelling::kFlag;  // how messages name the settings
};

// The settings train reads: every run setting, "accountant", "pld-precision", "threads"
// (training::require_lot_threads) and the switch "secure" (a private optimizer only, and no
// seed). Other settings are the caller's.
TrainRequest read_train_request(const Settings& settings);

struct TrainSession {
  training::TrainingResult result;
  Release release;         // curve.csv and release.json (train_release.h)
  nlohmann::json summary;  // summary.json: config, data, privacy, final, status
  double epsilon = 0;      // at delta under the chosen accountant (+inf: non-private baseline)
  std::string epsilon_label;
  bool accuracy = true;  // the model's metric is accuracy (else MSE: regression, reconstruction)
};

// Whether a run of `settings` on `all` reports validation accuracy (else the mean squared error:
// regression, reconstruction).
bool reports_accuracy(const data::Dataset& all, const experiment::RunSettings& settings);

// Trains `split` (prepared from `all`, data/prepare_split.h) as `request` says. `hooks` carries
// the caller's on_point / on_step / cancel / pause; epsilon_after is set here (the chosen
// accountant). Throws InvalidArgument naming the setting (lot-size > n, a model that does not fit
// the data, ...). A cancelled run returns its curve so far (result.cancelled; epsilon covers the
// steps taken).
TrainSession run_train_session(const data::Dataset& all, const data::TrainValidationSplit& split,
                               const TrainRequest& request, training::TrainingHooks hooks = {});

// curve.csv and release.json (the one release writer), then summary.json, into `dir`.
void write_train_session(const TrainSession& session, const std::string& dir);

}  // namespace dplab::release
