// Reading the run history: the list of runs, one run's results (with or without curves), the
// jobs a run has stored, and its summaries. Every public function takes the Store's mutex.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "models/model_parameters.h"
#include "release/input_encoding_json.h"
#include "store/attempt_charges.h"
#include "store/run_status.h"
#include "store/sqlite_statement.h"
#include "store/store.h"
#include "store/writer_identity.h"
#include "tuning/runner.h"

namespace dplab::store {

std::int64_t Store::stored_jobs(std::int64_t experiment_id) const {
  std::lock_guard lock(mutex_);
  Statement s(db_, path_, "SELECT COUNT(*) FROM jobs WHERE experiment_id = ?");
  s.bind(1, experiment_id);
  s.step();
  return s.integer(0);
}

std::int64_t Store::stored_results(std::int64_t experiment_id) const {
  std::lock_guard lock(mutex_);
  Statement s(db_, path_,
              "SELECT COUNT(*) FROM jobs WHERE experiment_id = ? AND status IN (?, ?, ?)");
  s.bind(1, experiment_id)
      .bind(2, tuning::to_string(tuning::JobStatus::kFinished))
      .bind(3, tuning::to_string(tuning::JobStatus::kDiverged))
      .bind(4, tuning::to_string(tuning::JobStatus::kFailed));
  s.step();
  return s.integer(0);
}

std::optional<std::string> Store::load_summary(std::int64_t experiment_id,
                                               const std::string& kind) const {
  std::lock_guard lock(mutex_);
  Statement s(db_, path_, "SELECT json FROM summaries WHERE experiment_id = ? AND kind = ?");
  s.bind(1, experiment_id).bind(2, kind);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

std::vector<AttemptCharge> Store::attempts(std::int64_t experiment_id) const {
  std::lock_guard lock(mutex_);
  return attempts_unlocked(experiment_id);
}

SpentBudget Store::spent_budget(std::int64_t experiment_id) const {
  std::lock_guard lock(mutex_);
  return spent_budget_unlocked(experiment_id);
}

std::vector<AttemptCharge> Store::attempts_unlocked(std::int64_t experiment_id) const {
  std::vector<AttemptCharge> out;
  if (!has_attempts_) {
    // A v4 file read read-only: the run is its one attempt, charged what it holds.
    AttemptCharge c = charge_of_jobs(load_results_unlocked(experiment_id, false));
    c.attempt = 1;
    c.kind = "migrated";
    c.outcome = "migrated";
    out.push_back(c);
    return out;
  }
  Statement q(db_, path_,
              "SELECT attempt, kind, open, outcome, planned_jobs, runs_trained, queries, epsilon, "
              "delta, rdp_orders, rdp FROM attempts WHERE experiment_id = ? ORDER BY attempt");
  q.bind(1, experiment_id);
  std::optional<tuning::SearchResults> run;  // loaded once, for open attempts only
  while (q.step()) {
    AttemptCharge c;
    c.attempt = q.integer(0);
    c.kind = q.text(1);
    c.open = q.integer(2) != 0;
    c.outcome = q.text(3);
    c.planned_jobs = q.integer(4);
    if (c.open) {
      // Not ended: the jobs it stored exactly, every other job it set out to train at T.
      if (!run) run = load_results_unlocked(experiment_id, false);
      std::vector<tuning::JobResult> stored;
      Statement j(db_, path_, "SELECT queries FROM jobs WHERE experiment_id = ? AND attempt = ?");
      j.bind(1, experiment_id).bind(2, c.attempt);
      while (j.step()) {
        tuning::JobResult job;
        job.queries = j.integer(0);
        stored.push_back(job);
      }
      AttemptCharge bound = charge_of_jobs(open_attempt_jobs(*run, stored, c.planned_jobs));
      bound.attempt = c.attempt;
      bound.kind = c.kind;
      bound.open = true;
      bound.planned_jobs = c.planned_jobs;
      out.push_back(bound);
      continue;
    }
    c.runs_trained = q.integer(5);
    c.queries = q.integer(6);
    c.epsilon = q.real(7);
    c.delta = q.real(8);
    c.rdp_orders = q.reals(9);
    c.rdp = q.reals(10);
    out.push_back(c);
  }
  return out;
}

SpentBudget Store::spent_budget_unlocked(std::int64_t experiment_id) const {
  Statement d(db_, path_, "SELECT delta FROM experiments WHERE id = ?");
  d.bind(1, experiment_id);
  if (!d.step()) throw IoError(path_ + ": no experiment with id " + std::to_string(experiment_id));
  const double run_delta = d.real(0);
  return compose_attempts(attempts_unlocked(experiment_id), run_delta);
}

std::vector<ExperimentRecord> Store::list_experiments() const {
  std::lock_guard lock(mutex_);
  Statement s(db_, path_,
              "SELECT e.id, e.name, e.created_at, e.status, "
              "(SELECT COUNT(*) FROM candidates c WHERE c.experiment_id = e.id), "
              "e.config_json, "
              "(SELECT COUNT(*) FROM jobs j WHERE j.experiment_id = e.id AND j.status = ?), "
              "e.release_mode, e.runs_trained, e.runs_charged, e.epsilon, "
              "(SELECT COUNT(*) FROM jobs j WHERE j.experiment_id = e.id), "
              "e.writer_host, e.writer_boot, e.writer_pid, e.writer_start "
              "FROM experiments e ORDER BY e.id DESC");
  s.bind(1, tuning::to_string(tuning::JobStatus::kFinished));
  std::vector<ExperimentRecord> out;
  while (s.step()) {
    ExperimentRecord r;
    r.id = s.integer(0);
    r.name = s.text(1);
    r.created_at = s.text(2);
    r.status = s.text(3);
    // A running run whose writer is gone is interrupted, whether or not an opener could mark
    // it (a read-only one writes nothing): decided here at read time, as mark_interrupted_runs.
    if (parse_run_status(r.status) == RunStatus::kRunning &&
        writer_state({s.text(12), s.text(13), s.integer(14), s.integer(15)}) ==
            WriterState::kGone) {
      r.status = to_string(RunStatus::kInterrupted);
    }
    r.num_candidates = s.integer(4);
    // For the jobs count only: a config that does not read (its error is load_results's, which
    // names the key) counts one repeat, so the run is still listed.
    std::int64_t repeats = 1;
    try {
      const nlohmann::json config = parse_json_text(s.text(5), path_);
      repeats = JsonReader(config, "").optional_integer("repeats").value_or(1);
    } catch (const Error&) {
    }
    r.jobs_total = r.num_candidates * repeats;
    r.jobs_finished = s.integer(6);
    r.release_mode = s.text(7);
    r.runs_trained = s.integer(8);
    r.runs_charged = s.text(9).empty() ? -1 : s.integer(9);
    r.epsilon = s.real(10);
    try {
      // The composition of every attempt's charge, an open one at its upper bound.
      const SpentBudget spent = spent_budget_unlocked(r.id);
      r.epsilon = spent.epsilon;
      r.spent_delta = spent.delta;
      r.attempts = spent.attempts;
      r.composition = spent.composition;
    } catch (const Error&) {
      // A run whose config no longer parses keeps its recorded epsilon; it still lists.
    }
    // A private search trains the runs its selection drew, not candidates x repeats.
    if (r.release_mode.rfind("private", 0) == 0)
      r.jobs_total = std::max(r.runs_trained, s.integer(11));
    out.push_back(r);
  }
  return out;
}

tuning::SearchResults Store::load_results(std::int64_t experiment_id, bool with_curves) const {
  std::lock_guard lock(mutex_);
  return load_results_unlocked(experiment_id, with_curves);
}

tuning::SearchResults Store::load_results_unlocked(std::int64_t experiment_id,
                                                   bool with_curves) const {
  tuning::SearchResults res;
  {
    Statement e(
        db_, path_,
        "SELECT config_json, training_size, is_regression, noise_multiplier, sampling_rate, "
        "steps, delta FROM experiments WHERE id = ?");
    e.bind(1, experiment_id);
    if (!e.step())
      throw IoError(path_ + ": no experiment with id " + std::to_string(experiment_id));
    try {
      res.config = experiment::parse_experiment(parse_json_text(e.text(0), path_));
    } catch (const std::exception& ex) {
      throw IoError(path_ + ": experiment " + std::to_string(experiment_id) +
                    " has a bad config: " + ex.what());
    }
    res.training_size = e.integer(1);
    res.is_regression = e.integer(2) != 0;
    res.mechanism = {e.real(3), e.real(4), e.integer(5), e.real(6)};
  }
  {
    // Adam's epsilon: candidates.adam_epsilon since schema 7; a v6 file opened read-only still
    // calls it epsilon (store/schema_version.h).
    Statement renamed(db_, path_,
                      "SELECT 1 FROM pragma_table_info('candidates') WHERE name = 'adam_epsilon'");
    const std::string adam_epsilon = renamed.step() ? "adam_epsilon" : "epsilon";
    const std::string sql =
        "SELECT candidate, optimizer_index, index_in_optimizer, optimizer, learning_rate, clip, "
        "momentum, beta1, beta2, " +
        adam_epsilon + " FROM candidates WHERE experiment_id = ? ORDER BY candidate";
    Statement c(db_, path_, sql.c_str());
    c.bind(1, experiment_id);
    while (c.step()) {
      experiment::Candidate cand;
      cand.index = static_cast<int>(c.integer(0));
      cand.optimizer_index = static_cast<int>(c.integer(1));
      cand.index_in_optimizer = static_cast<int>(c.integer(2));
      cand.optimizer.kind = optim::parse_optimizer_kind(c.text(3));
      cand.optimizer.learning_rate = c.real(4);
      cand.clip = c.real(5);
      cand.optimizer.momentum = c.real(6);
      cand.optimizer.beta1 = c.real(7);
      cand.optimizer.beta2 = c.real(8);
      cand.optimizer.epsilon = c.real(9);
      // The clipping rule is the optimizer entry's (the stored config), not a column.
      if (cand.optimizer_index >= 0 &&
          cand.optimizer_index < static_cast<int>(res.config.optimizers.size())) {
        const auto& entry = res.config.optimizers[static_cast<std::size_t>(cand.optimizer_index)];
        cand.clipping = entry.clipping;
        cand.clip_stability = entry.clip_stability;
      }
      res.candidates.push_back(cand);
    }
  }
  const int repeats = res.config.repeats;
  // Private release modes: job i is global run i (its `repeat`), candidates as drawn.
  const bool drawn = res.config.release.mode == experiment::ReleaseMode::kPrivate;
  if (drawn) {
    // The runs drawn: what the first attempt set out to train (schema v5), else what the run
    // holds. A run cancelled or killed before its last drawn runs started has no row for them,
    // and resume_from needs them all (it refused "job count differs").
    Statement n(db_, path_,
                has_attempts_
                    ? "SELECT MAX(COALESCE(runs_trained, 0), (SELECT COALESCE(MAX(repeat) + 1, 0) "
                      "FROM jobs WHERE experiment_id = ?), (SELECT COALESCE(MAX(planned_jobs), 0) "
                      "FROM attempts WHERE experiment_id = ? AND kind IN ('run', 'merge'))) FROM "
                      "experiments WHERE id = ?"
                    : "SELECT MAX(COALESCE(runs_trained, 0), (SELECT COALESCE(MAX(repeat) + 1, 0) "
                      "FROM jobs WHERE experiment_id = ?), ?) FROM experiments WHERE id = ?");
    n.bind(1, experiment_id).bind(2, has_attempts_ ? experiment_id : 0).bind(3, experiment_id);
    n.step();
    const std::int64_t runs = n.integer(0);
    if (runs > 10'000'000) {
      throw IoError(path_ + ": experiment " + std::to_string(experiment_id) + " claims " +
                    std::to_string(runs) + " runs (a damaged run history?)");
    }
    res.jobs.resize(static_cast<std::size_t>(std::max<std::int64_t>(0, runs)));
    for (std::size_t i = 0; i < res.jobs.size(); ++i) res.jobs[i].repeat = static_cast<int>(i);
  } else {
    res.jobs.resize(res.candidates.size() * static_cast<std::size_t>(repeats));
    for (std::size_t i = 0; i < res.jobs.size(); ++i) {
      res.jobs[i].candidate = static_cast<int>(i) / repeats;
      res.jobs[i].repeat = static_cast<int>(i) % repeats;
    }
  }
  // Schema v6: how the data's rows became features, and each job's trained model (if kept).
  if (has_models_ && with_curves) {
    Statement e(db_, path_, "SELECT input_encoding FROM experiments WHERE id = ?");
    e.bind(1, experiment_id);
    if (e.step() && !e.is_null(0)) {
      try {
        res.input = release::read_input_json(parse_json_text(e.text(0), path_),
                                             "experiments.input_encoding");
      } catch (const std::exception& ex) {
        throw IoError(path_ + ": experiment " + std::to_string(experiment_id) +
                      " has a bad input encoding: " + ex.what());
      }
    }
  }
  Statement j(db_, path_,
              has_models_ && with_curves
                  ? "SELECT id, candidate, repeat, seed, status, final_val_accuracy, "
                    "final_val_loss, final_train_loss, queries, wall_seconds, error, "
                    "model_params, model_shape FROM jobs WHERE experiment_id = ?"
                  : "SELECT id, candidate, repeat, seed, status, final_val_accuracy, "
                    "final_val_loss, final_train_loss, queries, wall_seconds, error FROM jobs "
                    "WHERE experiment_id = ?");
  j.bind(1, experiment_id);
  Statement p(
      db_, path_,
      "SELECT iteration, train_loss, val_loss, val_accuracy, epsilon, step_size, clip, val_mse "
      "FROM curve_points WHERE job_id = ? ORDER BY iteration");
  // Every job of a search trains the same model kind (the experiment's, with its variants).
  const models::ModelSpec spec =
      res.candidates.empty()
          ? models::ModelSpec{}
          : tuning::job_training_config(res.config, res.candidates.front(), 0).model;
  while (j.step()) {
    const auto c = j.integer(1), r = j.integer(2);
    if (c < 0 || r < 0 || static_cast<std::size_t>(c) >= res.candidates.size()) continue;
    if (drawn ? static_cast<std::size_t>(r) >= res.jobs.size() : r >= repeats) continue;
    tuning::JobResult& job = res.jobs[static_cast<std::size_t>(drawn ? r : c * repeats + r)];
    job.candidate = static_cast<int>(c);
    job.seed = static_cast<std::uint64_t>(j.integer(3));
    job.status = tuning::parse_job_status(j.text(4));
    job.final_val_accuracy = j.real(5);
    job.final_val_loss = j.real(6);
    job.final_train_loss = j.real(7);
    job.queries = j.integer(8);
    job.wall_seconds = j.real(9);
    job.error = j.text(10);
    if (!with_curves) continue;
    if (has_models_ && !j.is_null(11) && !res.candidates.empty()) {
      try {
        const auto shape = parse_json_text(j.text(12), path_);
        job.model = std::make_shared<const models::ExportedModel>(
            models::exported_from_parameters(spec, shape.at("input_dim").get<Index>(),
                                             shape.at("num_classes").get<int>(), j.floats(11)));
      } catch (const std::exception& ex) {
        throw IoError(path_ + ": experiment " + std::to_string(experiment_id) + ", job (" +
                      std::to_string(c) + ", " + std::to_string(r) +
                      "): a bad stored model: " + ex.what());
      }
    }
    p.reset();
    p.bind(1, j.integer(0));
    while (p.step()) {
      training::CurvePoint point;
      point.iteration = p.integer(0);
      point.train_loss = p.real(1);
      point.val_loss = p.real(2);
      point.val_accuracy = p.real(3);
      point.epsilon = p.real(4);
      point.step_size = p.real(5);
      point.clip = p.real(6);
      point.val_mse = p.real(7);
      job.curve.push_back(point);
    }
  }
  return res;
}

}  // namespace dplab::store
