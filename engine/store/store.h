// Store: the run history of one workspace in one SQLite file. Tables:
//   experiments  (config JSON, n, the mechanism sigma, q, T, delta, status; since v3 what was
//                 charged: release mode, runs trained, runs charged by the epsilon, epsilon)
//   candidates   (hyperparameters of each candidate)
//   jobs         (candidate, repeat, seed, status, final metrics, wall time, and the privacy
//                 mechanism: sigma, q, steps, selection rule, K, gamma, delta, delta2 — so that
//                 any epsilon can be recomputed later)
//   curve_points (one row per learning-curve point, with the live clipping threshold C_t)
//   summaries    (JSON blobs: honest-selection reports, aggregates)
//   attempts     (since v5: one row per attempt at a run — its first run, each resume, a cluster
//                 merge — with what THAT attempt charged: epsilon, delta, its RDP curve; jobs
//                 record the attempt that trained them). A run's spent epsilon is the
//                 composition of its attempts' charges (store/attempt_charges.h): it only grows.
// Schema versioned with PRAGMA user_version; WAL journal. A job's points and its final row are
// written in ONE transaction when the job ends, so a crash or kill loses at most the jobs in
// flight and a re-open shows every job that finished before, complete.
//
// Durability (issue #11): StoreWriter keeps every finished job in memory until it is committed,
// retries with back-off while the database is busy (another process holds the lock) or full,
// and reports the jobs it could not store with SQLite's reason, so a run never silently loses a
// job. Each run records its writer (host, boot id, pid, process start time); opening a Store
// marks "running" runs whose writer is gone as "interrupted" — resumable with the same seeds.
//
// Thread-safety: one SQLite connection per Store; every public function takes the Store's
// mutex, so a Store may be shared by the runner's worker threads (StoreWriter does this).
// Errors: dplab::IoError naming the file and SQLite's message.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/run_status.h"
#include "store/spent_budget.h"  // SpentBudget: what a run spent over its attempts
#include "tuning/results.h"
#include "tuning/runner.h"

struct sqlite3;

namespace dplab::store {

struct AttemptCharge;  // store/attempt_charges.h

// The schema's version and what each version added: store/schema_version.h.

// Who writes an attempt: a run (tune, the GUI's Run), a resume, or a cluster merge.
enum class AttemptKind { kRun, kResume, kMerge };

struct ExperimentRecord {
  std::int64_t id = 0;
  std::string name;
  std::string created_at;  // ISO 8601, UTC
  // running | finished | cancelled | interrupted (writer died) | incomplete (jobs not stored)
  std::string status;
  std::int64_t num_candidates = 0;
  std::int64_t jobs_total = 0;
  std::int64_t jobs_finished = 0;
  // What was charged (schema v3): "explore", "private lt", ... (tuning::describe_release); the
  // runs that touched the data; the runs the epsilon charges (explore: the runs trained; ma: K;
  // lt: the hard stop; ps: none = a random number, -1).
  std::string release_mode;
  std::int64_t runs_trained = 0;
  std::int64_t runs_charged = -1;
  // The spent epsilon: the composition of every attempt's charge (Store::spent_budget; NaN: not
  // computable), at spent_delta, over `attempts` attempts composed by `composition`.
  double epsilon = 0;
  double spent_delta = 0;
  int attempts = 0;
  std::string composition;
};

struct StoreOptions {
  int busy_timeout_ms = 5000;  // SQLite waits this long for a lock before SQLITE_BUSY
  // Test hook: PRAGMA max_page_count, so a test can make the database "full" (SQLITE_FULL).
  std::int64_t max_page_count = 0;
  // For reading only (history list / show / export): the file is opened read-only, so a history
  // on a read-only file system or without write permission can be listed. Nothing is written:
  // no schema migration (a schema older than v4 is an error saying so; a v4 file is read with
  // one attempt per run), and runs whose writer died are listed as interrupted without writing.
  // A write-ahead log (-wal) is always read: a folder that cannot hold the -shm file reads it
  // through an existing -shm, and a log that cannot be read is an error saying so.
  bool read_only = false;
  // Test hook: behave as if the file's folder could not be written (root can write anywhere).
  bool assume_folder_read_only = false;
};

class Store {
 public:
  // Opens or creates the file, migrates its schema, and marks runs whose writer died as
  // "interrupted". Throws IoError (unreadable, not a SQLite file, or written by a newer dplab).
  explicit Store(const std::string& path, StoreOptions options = {});
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const { return path_; }

  // Records an experiment, its candidates (status "running") and its first attempt (open, set
  // out to train every job of the plan); returns its id.
  std::int64_t begin_experiment(const tuning::SearchResults& plan,
                                AttemptKind kind = AttemptKind::kRun);
  // One transaction: the job's row (any final status, written by `attempt`) and its points.
  void record_job(std::int64_t experiment_id, const tuning::SearchResults& plan,
                  const tuning::JobResult& job, std::int64_t attempt = 0);
  void finish_experiment(std::int64_t experiment_id, RunStatus status);
  // Ends an attempt, in one transaction: its charge (store/attempt_charges.h: the jobs of
  // `results` it trained, i.e. those not in `kept`, indexed like results.jobs), the run's release
  // columns (runs trained and charged over `results`, epsilon = the spent budget) and status.
  void end_attempt(std::int64_t experiment_id, std::int64_t attempt,
                   const tuning::SearchResults& results, const std::vector<bool>& kept,
                   RunStatus status);
  // Takes over an interrupted or cancelled run to resume it: status "running", writer = this
  // process, its open attempts (a dead writer's) ended at their upper bound, and a new attempt
  // that sets out to train planned_jobs jobs; returns that attempt's number. Throws IoError if
  // its writer is still alive (a run is written by one process).
  std::int64_t claim_experiment(std::int64_t experiment_id, std::int64_t planned_jobs = 0);
  // Marks "running" runs whose writer process is gone as "interrupted" and ends their open
  // attempts at their upper bound (the jobs stored exactly, every other job planned at T);
  // returns their ids.
  std::vector<std::int64_t> mark_interrupted_runs();
  // Every attempt at the run, oldest first, an open one charged its upper bound.
  std::vector<AttemptCharge> attempts(std::int64_t experiment_id) const;
  // What the run has spent: the composition of every attempt's charge. It never decreases as
  // attempts are added or ended (an open attempt's bound is >= what it ends with).
  SpentBudget spent_budget(std::int64_t experiment_id) const;
  // Jobs of a run with a row in the database (any final status).
  std::int64_t stored_jobs(std::int64_t experiment_id) const;
  // Of those, the jobs with a final result (finished, diverged or failed): what --resume keeps
  // and never re-runs (a cancelled job's row is re-run). The count tune prints after a cancel.
  std::int64_t stored_results(std::int64_t experiment_id) const;
  void save_summary(std::int64_t experiment_id, const std::string& kind, const std::string& json);
  std::optional<std::string> load_summary(std::int64_t experiment_id,
                                          const std::string& kind) const;
  void delete_experiment(std::int64_t experiment_id);
  // The run's display name (experiments.name; its config keeps the name it ran under). Throws
  // InvalidArgument for an empty name, IoError for an unknown id.
  void rename_experiment(std::int64_t experiment_id, const std::string& name);

  std::vector<ExperimentRecord> list_experiments() const;  // newest first
  // Everything about one experiment; jobs never recorded come back as kPending. Without curves:
  // the jobs' final numbers only (fast; for listings).
  tuning::SearchResults load_results(std::int64_t experiment_id, bool with_curves = true) const;

 private:
  // store.cpp: the connection; store_schema.cpp: tables and migrations; store_updates.cpp:
  // every write; store_queries.cpp: every read; sqlite_statement.h: the statement wrapper.
  void exec(const char* sql) const;  // a statement without results; IoError on failure
  void migrate();
  void backfill_charges();   // v2 -> v3: every run's release columns from what it holds
  void backfill_attempts();  // v4 -> v5: one attempt per run, charged what the run holds
  std::vector<AttemptCharge> attempts_unlocked(std::int64_t experiment_id) const;
  SpentBudget spent_budget_unlocked(std::int64_t experiment_id) const;
  // Ends the run's open attempts at their upper bound (a dead writer's), outcome interrupted.
  void close_open_attempts(std::int64_t experiment_id);
  void update_spent_epsilon(std::int64_t experiment_id);  // experiments.epsilon = spent_budget
  tuning::SearchResults load_results_unlocked(std::int64_t experiment_id,
                                              bool with_curves = true) const;
  std::string path_;
  bool read_only_ = false;
  bool has_attempts_ = true;  // false: a v4 file read read-only (one attempt per run)
  bool has_models_ = true;    // false: a v4 or v5 file read read-only (no stored models)
  sqlite3* db_ = nullptr;
  mutable std::mutex mutex_;
};

// A RunListener that writes a run into a Store as results arrive.
class StoreWriter : public tuning::RunListener {
 public:
  explicit StoreWriter(Store& store) : store_(store) {}
  std::int64_t experiment_id() const { return experiment_id_; }
  // How long on_finished keeps retrying jobs that could not be stored (busy, full).
  explicit StoreWriter(Store& store, double retry_seconds)
      : store_(store), retry_seconds_(retry_seconds) {}
  // Append to an existing run (resume) instead of creating one; call before the run starts.
  void resume(std::int64_t experiment_id) {
    experiment_id_ = experiment_id;
    resuming_ = true;
  }
  // The run is a cluster merge (cluster/merged_run.h): its attempt is recorded as "merge".
  void record_as_merge() { merging_ = true; }
  // Errors while writing are kept (the run goes on, the jobs stay in memory and are retried);
  // after on_finished: set iff some finished job could not be stored, with SQLite's reason.
  std::optional<std::string> first_error() const;
  std::int64_t unsaved_jobs() const;  // jobs not stored after the final retries

  void on_start(const tuning::SearchResults& plan) override;
  void on_job_finished(const tuning::JobResult& job) override;
  void on_finished(const tuning::SearchResults& results, bool cancelled) override;

 private:
  Store& store_;
  tuning::SearchResults plan_;  // a copy without the jobs: config, candidates, mechanism
  std::int64_t experiment_id_ = -1;
  bool resuming_ = false;
  bool merging_ = false;
  std::int64_t attempt_ = 0;  // this writer's attempt at the run (on_start)
  std::vector<bool> kept_;    // jobs of the plan kept from earlier attempts (not trained here)
  double retry_seconds_ = 60;
  bool flush();  // stores pending jobs in order; false (and last_error_ set) on the first failure

  mutable std::mutex mutex_;  // pending_, errors
  std::mutex flush_mutex_;    // one flusher at a time
  std::vector<tuning::JobResult> pending_;
  std::string last_error_;
  double next_retry_ = 0;  // steady-clock seconds before which workers do not retry
  double backoff_ = 0.05;
  std::optional<std::string> error_;
};

}  // namespace dplab::store
