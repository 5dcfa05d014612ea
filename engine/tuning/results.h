// Plain result records of a tuning run: what each (candidate, repeat) job produced. The runner
// fills them live; the store saves and reloads them; honest selection, aggregates and CSV export
// are pure functions of a SearchResults, so a search reloaded from the run history gives the
// same numbers as the live one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "experiment/experiment_config.h"
#include "training/trainer.h"

namespace dplab::tuning {

// kDiverged: training stopped because the parameters diverged (training::diverged_parameters:
// decided from the parameters only); selection scores it as the worst score, never drops it;
enum class JobStatus { kPending, kRunning, kFinished, kCancelled, kFailed, kDiverged };
std::string to_string(JobStatus s);
JobStatus parse_job_status(const std::string& text);

struct JobResult {
  int candidate = 0;
  int repeat = 0;
  std::uint64_t seed = 0;  // derive_seed(experiment seed, candidate, repeat)
  JobStatus status = JobStatus::kPending;
  std::vector<training::CurvePoint> curve;
  double final_val_accuracy = 0;  // NaN for regression
  double final_val_loss = 0;
  double final_train_loss = 0;  // mean loss over the whole training set at the end
  std::int64_t queries = 0;     // noisy-gradient queries made (what the accountant composes)
  double wall_seconds = 0;
  // training::TrainingResult's step_seconds and evaluation_seconds: of a job run in this process
  // only (0 for one kept from an earlier attempt or loaded from a history, which keeps neither).
  double step_seconds = 0;
  double evaluation_seconds = 0;
  std::string error;  // kFailed / kDiverged: the message
  // training::TrainingResult::warnings of the job (a silent failure flagged: lots off q n,
  // frozen parameters). Printed by tune / run-jobs; not kept in a run history.
  std::vector<std::string> warnings;
  // The trained model (RunOptions::keep_models; null otherwise, for a job not run in this
  // process, e.g. one kept from an earlier attempt of a resumed search, or loaded from a history).
  std::shared_ptr<const models::ExportedModel> model;
};

// The one scoring rule of selection for a job's outcome (honest selection, private release):
// a finished job scores its final metrics; a diverged job scores the WORST value — accuracy 0,
// training loss +inf — instead of being voided, so that which runs count never depends on an
// un-noised loss (issue #23 item 5). Pending, cancelled and failed jobs are not scored.
bool is_scored(const JobResult& job);            // finished or diverged
double scored_accuracy(const JobResult& job);    // final_val_accuracy, or 0 if diverged
double scored_train_loss(const JobResult& job);  // final_train_loss, or +inf if diverged
// The validation MSE of the job's final model: its last curve point's val_mse (the trainer
// records a point on the final model, trainer.cpp, and the store keeps curve points, so a search
// reloaded from the history gives the same number); NaN without a curve.
double final_val_mse(const JobResult& job);
double scored_val_mse(const JobResult& job);  // final_val_mse, or +inf if diverged
// What selection compares (issue #42 finding 5): a search scored by loss (SearchResults::
// is_regression: regression, reconstruction) is scored by the validation MSE, lower is better,
// measured on the validation set like the accuracy (public, or noised when validation is
// private) and NEVER by the training loss, an un-noised function of the private training set
// that no epsilon covers.
//   scored_metric: accuracy, or validation MSE (the number shown);
//   selection_score: higher is better: the accuracy, or minus the MSE; NaN scores -inf.
double scored_metric(const JobResult& job, bool regression);
double selection_score(const JobResult& job, bool regression);

// The privacy mechanism of one run, enough to recompute any epsilon later.
struct RunMechanism {
  double noise_multiplier = 0;  // sigma
  double sampling_rate = 0;     // q = L / n
  std::int64_t steps = 0;       // T (queries)
  double delta = 0;             // delta_f of the search
};

struct SearchResults {
  experiment::ExperimentConfig config;
  std::vector<experiment::Candidate> candidates;
  std::vector<JobResult> jobs;  // index = candidate * repeats + repeat
  RunMechanism mechanism;
  std::int64_t training_size = 0;    // n
  std::int64_t validation_size = 0;  // n_val (the sensitivity of the accuracy is 1/n_val)
  bool is_regression = false;        // scores: lowest final validation MSE instead of accuracy
  data::InputEncoding input;         // how the data's rows became features (a model's input)

  const JobResult& job(int candidate, int repeat) const {
    return jobs[static_cast<std::size_t>(candidate * config.repeats + repeat)];
  }
};

}  // namespace dplab::tuning
