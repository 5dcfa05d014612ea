// Everything that changes the run history: a run and its candidates, each job with its curve in
// one transaction, the run's end status and charges, claiming a run to resume it, stale runs,
// summaries, deleting and renaming. Every function takes the Store's mutex.
#include <sqlite3.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/json_text.h"
#include "experiment/experiment_config.h"
#include "experiment/release_config.h"
#include "models/model_parameters.h"
#include "release/input_encoding_json.h"
#include "store/attempt_charges.h"
#include "store/run_charges.h"
#include "store/run_status.h"
#include "store/sqlite_statement.h"
#include "store/sqlite_transaction.h"
#include "store/store.h"
#include "store/writer_identity.h"

namespace dplab::store {
namespace {

std::string selection_rule(const experiment::ExperimentConfig& config) {
  return config.tuning.strategy == experiment::Strategy::kLt ? "lt" : "ma";
}

const char* to_string(AttemptKind kind) {
  switch (kind) {
    case AttemptKind::kResume:
      return "resume";
    case AttemptKind::kMerge:
      return "merge";
    case AttemptKind::kRun:
      break;
  }
  return "run";
}

// A new attempt, open: it sets out to train planned_jobs jobs (its charge is read as an upper
// bound from them until it ends).
void insert_attempt(sqlite3* db, const std::string& path, std::int64_t experiment_id,
                    std::int64_t attempt, AttemptKind kind, std::int64_t planned_jobs) {
  Statement a(db, path,
              "INSERT INTO attempts(experiment_id, attempt, kind, open, planned_jobs) "
              "VALUES(?,?,?,1,?)");
  a.bind(1, experiment_id).bind(2, attempt).bind(3, to_string(kind)).bind(4, planned_jobs);
  a.run();
}

// An attempt ends: its charge is written and it is no longer open.
void write_attempt_charge(sqlite3* db, const std::string& path, std::int64_t experiment_id,
                          std::int64_t attempt, const AttemptCharge& c, std::string_view outcome) {
  Statement u(db, path,
              "UPDATE attempts SET open = 0, outcome = ?, runs_trained = ?, queries = ?, "
              "epsilon = ?, delta = ?, rdp_orders = ?, rdp = ? WHERE experiment_id = ? AND "
              "attempt = ?");
  u.bind(1, outcome)
      .bind(2, c.runs_trained)
      .bind(3, c.queries)
      .bind(4, c.epsilon)
      .bind(5, c.delta)
      .bind(6, c.rdp_orders)
      .bind(7, c.rdp)
      .bind(8, experiment_id)
      .bind(9, attempt);
  u.run();
}

}  // namespace

std::int64_t Store::begin_experiment(const tuning::SearchResults& plan, AttemptKind kind) {
  std::lock_guard lock(mutex_);
  Transaction transaction(db_, path_);
  Statement e(
      db_, path_,
      "INSERT INTO experiments(name, status, config_json, training_size, is_regression, "
      "noise_multiplier, sampling_rate, steps, delta, writer_host, writer_boot, writer_pid, "
      "writer_start, release_mode, runs_trained, input_encoding) "
      "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,0,?)");
  const WriterIdentity me = current_writer();
  e.bind(1, plan.config.name)
      .bind(2, to_string(RunStatus::kRunning))
      .bind(3, json_text(experiment::to_json(plan.config)))
      .bind(4, plan.training_size)
      .bind(5, plan.is_regression ? 1 : 0)
      .bind(6, plan.mechanism.noise_multiplier)
      .bind(7, plan.mechanism.sampling_rate)
      .bind(8, plan.mechanism.steps)
      .bind(9, plan.mechanism.delta)
      .bind(10, me.host)
      .bind(11, me.boot_id)
      .bind(12, me.pid)
      .bind(13, me.start_ticks)
      .bind(14, experiment::describe_release(plan.config.release))
      // How the rows became features: what a stored model needs to be released again.
      .bind(15, json_text(release::input_json(plan.input, 0)));
  e.run();
  const std::int64_t id = sqlite3_last_insert_rowid(db_);
  Statement c(db_, path_, "INSERT INTO candidates VALUES(?,?,?,?,?,?,?,?,?,?,?)");
  for (const auto& cand : plan.candidates) {
    c.reset();
    c.bind(1, id)
        .bind(2, cand.index)
        .bind(3, cand.optimizer_index)
        .bind(4, cand.index_in_optimizer)
        .bind(5, optim::to_string(cand.optimizer.kind))
        .bind(6, cand.optimizer.learning_rate)
        .bind(7, cand.clip)
        .bind(8, cand.optimizer.momentum)
        .bind(9, cand.optimizer.beta1)
        .bind(10, cand.optimizer.beta2)
        .bind(11, cand.optimizer.epsilon);
    c.run();
  }
  insert_attempt(db_, path_, id, 1, kind, std::ssize(plan.jobs));
  transaction.commit();
  return id;
}

void Store::record_job(std::int64_t experiment_id, const tuning::SearchResults& plan,
                       const tuning::JobResult& job, std::int64_t attempt) {
  const auto& cand = plan.candidates.at(static_cast<std::size_t>(job.candidate));
  const int k =
      static_cast<int>(experiment::candidates_of(plan.candidates, cand.optimizer_index).size());
  const double gamma = plan.config.tuning.gamma ? *plan.config.tuning.gamma : 1.0 / k;
  std::lock_guard lock(mutex_);
  Transaction transaction(db_, path_);
  // A job re-run on resume replaces its earlier (cancelled) row and that row's points.
  Statement d(db_, path_,
              "DELETE FROM jobs WHERE experiment_id = ? AND candidate = ? AND repeat = ?");
  d.bind(1, experiment_id).bind(2, job.candidate).bind(3, job.repeat);
  d.run();
  Statement j(
      db_, path_,
      "INSERT INTO jobs(experiment_id, candidate, repeat, seed, status, "
      "final_val_accuracy, final_val_loss, final_train_loss, queries, wall_seconds, error, "
      "noise_multiplier, sampling_rate, steps, selection_rule, num_candidates, gamma, delta, "
      "delta2, attempt, model_params, model_shape) "
      "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  j.bind(1, experiment_id)
      .bind(2, job.candidate)
      .bind(3, job.repeat)
      .bind(4, static_cast<std::int64_t>(job.seed))  // bit pattern of the uint64
      .bind(5, tuning::to_string(job.status))
      .bind(6, job.final_val_accuracy)
      .bind(7, job.final_val_loss)
      .bind(8, job.final_train_loss)
      .bind(9, job.queries)
      .bind(10, job.wall_seconds)
      .bind(11, job.error)
      .bind(12, plan.mechanism.noise_multiplier)
      .bind(13, plan.mechanism.sampling_rate)
      .bind(14, plan.mechanism.steps)
      .bind(15, selection_rule(plan.config))
      .bind(16, k)
      .bind(17, gamma)
      .bind(18, plan.mechanism.delta)
      .bind(19, plan.config.tuning.delta2);
  if (attempt > 0) j.bind(20, attempt);  // else NULL: written outside an attempt (tests)
  // A private search's trained models (its winner is any of them; explore releases none from
  // the history): the flat parameters and the shape they were built for.
  if (job.model && plan.config.release.mode == experiment::ReleaseMode::kPrivate) {
    j.bind(21, models::flat_parameters(*job.model));
    j.bind(22, nlohmann::json{{"input_dim", job.model->input_dim},
                              {"num_classes", job.model->num_classes}}
                   .dump());
  }
  j.run();
  const std::int64_t job_id = sqlite3_last_insert_rowid(db_);
  Statement p(db_, path_,
              "INSERT INTO curve_points(job_id, iteration, train_loss, val_loss, val_accuracy, "
              "epsilon, step_size, clip, val_mse) VALUES(?,?,?,?,?,?,?,?,?)");
  for (const auto& point : job.curve) {
    p.reset();
    p.bind(1, job_id)
        .bind(2, point.iteration)
        .bind(3, point.train_loss)
        .bind(4, point.val_loss)
        .bind(5, point.val_accuracy)
        .bind(6, point.epsilon)
        .bind(7, point.step_size)
        .bind(8, point.clip)
        .bind(9, point.val_mse);
    p.run();
  }
  transaction.commit();
}

void Store::finish_experiment(std::int64_t experiment_id, RunStatus status) {
  std::lock_guard lock(mutex_);
  Statement s(db_, path_, "UPDATE experiments SET status = ? WHERE id = ?");
  s.bind(1, to_string(status)).bind(2, experiment_id);
  s.run();
}

void Store::end_attempt(std::int64_t experiment_id, std::int64_t attempt,
                        const tuning::SearchResults& results, const std::vector<bool>& kept,
                        RunStatus status) {
  // What THIS attempt trained: every job of the results not kept from an earlier attempt.
  tuning::SearchResults trained = results;
  for (std::size_t i = 0; i < trained.jobs.size() && i < kept.size(); ++i) {
    if (kept[i]) trained.jobs[i].queries = 0;
  }
  const AttemptCharge charge = charge_of_jobs(trained);
  const Charges c = charges_of(results);
  std::lock_guard lock(mutex_);
  Transaction transaction(db_, path_);
  write_attempt_charge(db_, path_, experiment_id, attempt, charge, to_string(status));
  Statement s(db_, path_,
              "UPDATE experiments SET release_mode = ?, runs_trained = ?, runs_charged = ?, "
              "status = ? WHERE id = ?");
  s.bind(1, experiment::describe_release(results.config.release))
      .bind(2, c.runs_trained)
      .bind(3, c.runs_charged)
      .bind(4, to_string(status))
      .bind(5, experiment_id);
  s.run();
  update_spent_epsilon(experiment_id);
  transaction.commit();
}

void Store::update_spent_epsilon(std::int64_t experiment_id) {
  const SpentBudget spent = spent_budget_unlocked(experiment_id);
  Statement s(db_, path_, "UPDATE experiments SET epsilon = ? WHERE id = ?");
  s.bind(1, spent.epsilon).bind(2, experiment_id);
  s.run();
}

void Store::close_open_attempts(std::int64_t experiment_id) {
  // attempts_unlocked reads an open attempt at its upper bound: that bound becomes its charge,
  // so a read before and a read after give the same spent epsilon.
  bool closed = false;
  for (const AttemptCharge& a : attempts_unlocked(experiment_id)) {
    if (!a.open) continue;
    write_attempt_charge(db_, path_, experiment_id, a.attempt, a,
                         to_string(RunStatus::kInterrupted));
    closed = true;
  }
  if (closed) update_spent_epsilon(experiment_id);
}

std::int64_t Store::claim_experiment(std::int64_t experiment_id, std::int64_t planned_jobs) {
  std::lock_guard lock(mutex_);
  Transaction transaction(db_, path_);
  Statement q(db_, path_,
              "SELECT status, writer_host, writer_boot, writer_pid, writer_start FROM "
              "experiments WHERE id = ?");
  q.bind(1, experiment_id);
  if (!q.step()) throw IoError(path_ + ": no run with id " + std::to_string(experiment_id));
  // A status this version does not know (nullopt) is neither running nor finished: claimable.
  const std::optional<RunStatus> status = parse_run_status(q.text(0));
  const WriterIdentity writer{q.text(1), q.text(2), q.integer(3), q.integer(4)};
  if (status == RunStatus::kRunning && writer_state(writer) != WriterState::kGone) {
    throw IoError(path_ + ": run " + std::to_string(experiment_id) +
                  " is still being written by process " + std::to_string(writer.pid) + " on " +
                  writer.host);
  }
  if (status == RunStatus::kFinished) {
    throw IoError(path_ + ": run " + std::to_string(experiment_id) +
                  " is finished; nothing to resume");
  }
  const WriterIdentity me = current_writer();
  Statement u(db_, path_,
              "UPDATE experiments SET status = ?, writer_host = ?, writer_boot = ?, "
              "writer_pid = ?, writer_start = ? WHERE id = ?");
  u.bind(1, to_string(RunStatus::kRunning))
      .bind(2, me.host)
      .bind(3, me.boot_id)
      .bind(4, me.pid)
      .bind(5, me.start_ticks)
      .bind(6, experiment_id);
  u.run();
  // Its earlier attempts stay charged; a dead writer's open one ends at its upper bound now,
  // before this attempt replaces any of the jobs it stored.
  close_open_attempts(experiment_id);
  Statement n(db_, path_,
              "SELECT COALESCE(MAX(attempt), 0) + 1 FROM attempts WHERE experiment_id = ?");
  n.bind(1, experiment_id);
  n.step();
  const std::int64_t attempt = n.integer(0);
  insert_attempt(db_, path_, experiment_id, attempt, AttemptKind::kResume, planned_jobs);
  transaction.commit();
  return attempt;
}

std::vector<std::int64_t> Store::mark_interrupted_runs() {
  std::lock_guard lock(mutex_);
  std::vector<std::int64_t> gone;
  {
    Statement q(db_, path_,
                "SELECT id, writer_host, writer_boot, writer_pid, writer_start FROM experiments "
                "WHERE status = ?");
    q.bind(1, to_string(RunStatus::kRunning));
    while (q.step()) {
      const WriterIdentity writer{q.text(1), q.text(2), q.integer(3), q.integer(4)};
      if (writer_state(writer) == WriterState::kGone) gone.push_back(q.integer(0));
    }
  }
  for (const std::int64_t id : gone) {
    Transaction transaction(db_, path_);
    Statement u(db_, path_, "UPDATE experiments SET status = ? WHERE id = ? AND status = ?");
    u.bind(1, to_string(RunStatus::kInterrupted))
        .bind(2, id)
        .bind(3, to_string(RunStatus::kRunning));
    u.run();
    // Unless another process claimed the run meanwhile (then the open attempt is its own).
    if (sqlite3_changes(db_) > 0) close_open_attempts(id);
    transaction.commit();
  }
  return gone;
}

void Store::save_summary(std::int64_t experiment_id, const std::string& kind,
                         const std::string& json) {
  std::lock_guard lock(mutex_);
  Statement s(db_, path_, "INSERT OR REPLACE INTO summaries VALUES(?,?,?)");
  s.bind(1, experiment_id).bind(2, kind).bind(3, json);
  s.run();
}

void Store::delete_experiment(std::int64_t experiment_id) {
  std::lock_guard lock(mutex_);
  Statement s(db_, path_, "DELETE FROM experiments WHERE id = ?");
  s.bind(1, experiment_id);
  s.run();
}

void Store::rename_experiment(std::int64_t experiment_id, const std::string& name) {
  if (name.empty()) throw InvalidArgument("run name: must not be empty");
  std::lock_guard lock(mutex_);
  Statement s(db_, path_, "UPDATE experiments SET name = ? WHERE id = ?");
  s.bind(1, name).bind(2, experiment_id);
  s.run();
  if (sqlite3_changes(db_) == 0)
    throw IoError(path_ + ": no experiment with id " + std::to_string(experiment_id));
}

}  // namespace dplab::store
