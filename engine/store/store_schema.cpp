// The run history's schema and its migrations (PRAGMA user_version; see store.h for the tables):
// version 1's tables, the columns every later version added, and the back-fill of what older
// runs charged. Every change runs in one BEGIN IMMEDIATE transaction.
#include <algorithm>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "experiment/release_config.h"
#include "store/attempt_charges.h"
#include "store/run_charges.h"
#include "store/schema_version.h"
#include "store/sqlite_statement.h"
#include "store/sqlite_transaction.h"
#include "store/store.h"

namespace dplab::store {
namespace {

const char* const kSchemaV1 = R"SQL(
CREATE TABLE experiments(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  status TEXT NOT NULL,
  config_json TEXT NOT NULL,
  training_size INTEGER NOT NULL,
  is_regression INTEGER NOT NULL,
  noise_multiplier REAL NOT NULL,
  sampling_rate REAL NOT NULL,
  steps INTEGER NOT NULL,
  delta REAL NOT NULL);
CREATE TABLE candidates(
  experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  candidate INTEGER NOT NULL,
  optimizer_index INTEGER NOT NULL,
  index_in_optimizer INTEGER NOT NULL,
  optimizer TEXT NOT NULL,
  learning_rate REAL, clip REAL, momentum REAL, beta1 REAL, beta2 REAL, adam_epsilon REAL,
  PRIMARY KEY(experiment_id, candidate));
CREATE TABLE jobs(
  id INTEGER PRIMARY KEY,
  experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  candidate INTEGER NOT NULL,
  repeat INTEGER NOT NULL,
  seed INTEGER NOT NULL,
  status TEXT NOT NULL,
  final_val_accuracy REAL, final_val_loss REAL, final_train_loss REAL,
  queries INTEGER, wall_seconds REAL, error TEXT,
  noise_multiplier REAL NOT NULL, sampling_rate REAL NOT NULL, steps INTEGER NOT NULL,
  selection_rule TEXT NOT NULL, num_candidates INTEGER NOT NULL, gamma REAL NOT NULL,
  delta REAL NOT NULL, delta2 REAL NOT NULL,
  UNIQUE(experiment_id, candidate, repeat));
CREATE TABLE curve_points(
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  iteration INTEGER NOT NULL,
  train_loss REAL, val_loss REAL, val_accuracy REAL, epsilon REAL, step_size REAL,
  PRIMARY KEY(job_id, iteration)) WITHOUT ROWID;
CREATE TABLE summaries(
  experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY(experiment_id, kind));
)SQL";

// Columns added after version 1, with the version that added them:
//   2: who writes the run (stale-run detection);
//   3: what the run released and what it was charged (rule 1: the epsilon covers the release);
//   4: each learning-curve point keeps the clipping threshold its next step uses (the live C_t
//      of OSO-DPSGD / FixedQuantile, else the run's C) and the validation MSE of models without
//      accuracy; rows of older files read these as NULL -> NaN (nothing was recorded);
//   5: the attempt that trained each job (with the attempts table, kAttemptsTable);
//   6: the input encoding of the run and each job's trained model;
//   7: no column added: candidates.epsilon is renamed adam_epsilon (kRenamedColumns).
// A file gets every column it lacks, whatever its user_version says: files written by
// development builds numbered these versions differently (a "version 3" file may hold version
// 4's columns and lack version 3's), and adding a column that exists is an error.
struct AddedColumn {
  int version;
  const char* table;
  const char* column;
  const char* type;
};
constexpr AddedColumn kAddedColumns[] = {
    {2, "experiments", "writer_host", "TEXT"},
    {2, "experiments", "writer_boot", "TEXT"},
    {2, "experiments", "writer_pid", "INTEGER"},
    {2, "experiments", "writer_start", "INTEGER"},
    {3, "experiments", "release_mode", "TEXT"},
    {3, "experiments", "runs_trained", "INTEGER"},
    {3, "experiments", "runs_charged", "INTEGER"},
    {3, "experiments", "epsilon", "REAL"},
    {4, "curve_points", "clip", "REAL"},
    {4, "curve_points", "val_mse", "REAL"},
    {5, "jobs", "attempt", "INTEGER"},
    {6, "experiments", "input_encoding", "TEXT"},
    {6, "jobs", "model_params", "BLOB"},
    {6, "jobs", "model_shape", "TEXT"},
};

// Columns renamed, with the version that renamed them. A file that has the old name gets the new
// one (SQLite >= 3.25 renames in place, keeping the column's position and values).
struct RenamedColumn {
  int version;
  const char* table;
  const char* old_name;
  const char* new_name;
};
constexpr RenamedColumn kRenamedColumns[] = {
    {7, "candidates", "epsilon", "adam_epsilon"},
};

// Version 5's table: one row per attempt at a run (store/attempt_charges.h). `open` = 1 while
// the attempt runs (or its writer died before it ended); its charge is then read as an upper
// bound from planned_jobs and the jobs it stored (jobs.attempt), and written when it ends.
const char* const kAttemptsTable = R"SQL(
CREATE TABLE IF NOT EXISTS attempts(
  experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  kind TEXT NOT NULL,
  open INTEGER NOT NULL,
  outcome TEXT,
  planned_jobs INTEGER NOT NULL,
  runs_trained INTEGER NOT NULL DEFAULT 0,
  queries INTEGER NOT NULL DEFAULT 0,
  epsilon REAL, delta REAL,
  rdp_orders BLOB, rdp BLOB,
  PRIMARY KEY(experiment_id, attempt)) WITHOUT ROWID;
)SQL";

}  // namespace

void Store::migrate() {
  auto read_version = [&] {
    Statement version(db_, path_, "PRAGMA user_version");
    version.step();
    return version.integer(0);
  };
  auto check_not_newer = [&](std::int64_t v) {
    if (v > kSchemaVersion) {
      throw IoError(path_ + ": run history schema version " + std::to_string(v) +
                    " is newer than this dplab understands (" + std::to_string(kSchemaVersion) +
                    ")");
    }
  };
  auto table_has = [&](const char* table, const char* column) {
    Statement q(db_, path_, "SELECT 1 FROM pragma_table_info(?) WHERE name = ?");
    q.bind(1, table).bind(2, column);
    return q.step();
  };
  auto has_column = [&](const AddedColumn& c) { return table_has(c.table, c.column); };
  auto renamed = [&] {
    return std::all_of(std::begin(kRenamedColumns), std::end(kRenamedColumns),
                       [&](const RenamedColumn& c) { return table_has(c.table, c.new_name); });
  };
  auto has_attempts_table = [&] {
    Statement q(db_, path_, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
    q.bind(1, "attempts");
    return q.step();
  };
  auto complete = [&](int up_to) {
    return std::all_of(std::begin(kAddedColumns), std::end(kAddedColumns),
                       [&](const AddedColumn& c) { return c.version > up_to || has_column(c); });
  };
  std::int64_t current = read_version();
  check_not_newer(current);
  if (current == kSchemaVersion && complete(kSchemaVersion) && renamed() && has_attempts_table())
    return;
  if (read_only_ && current == 4 && complete(4) && !has_attempts_table()) {
    // A v4 file read-only: nothing in it needs v5 to be read; each run is its own one attempt.
    has_attempts_ = false;
    has_models_ = false;
    return;
  }
  if (read_only_ && current == 5 && complete(5) && has_attempts_table()) {
    // A v5 file read-only: its runs simply have no stored models.
    has_models_ = false;
    return;
  }
  if (read_only_ && current == 6 && complete(6) && has_attempts_table()) {
    // A v6 file read-only: Adam's epsilon is still called candidates.epsilon
    // (store_queries.cpp reads whichever name the file has).
    return;
  }
  if (read_only_) {
    throw IoError(path_ + ": run history schema version " + std::to_string(current) +
                  " needs updating to " + std::to_string(kSchemaVersion) +
                  ", which a read-only history cannot be; open it once where it can be written");
  }
  // Another process may be creating the same new file: take the write lock, then look again.
  Transaction transaction(db_, path_);
  current = read_version();
  check_not_newer(current);
  if (current < 1) exec(kSchemaV1);
  bool charges_added = false;
  for (const AddedColumn& c : kAddedColumns) {
    if (has_column(c)) continue;
    exec(
        (std::string("ALTER TABLE ") + c.table + " ADD COLUMN " + c.column + " " + c.type).c_str());
    charges_added = charges_added || c.version == 3;
  }
  for (const RenamedColumn& c : kRenamedColumns) {
    if (table_has(c.table, c.new_name) || !table_has(c.table, c.old_name)) continue;
    exec((std::string("ALTER TABLE ") + c.table + " RENAME COLUMN " + c.old_name + " TO " +
          c.new_name)
             .c_str());
  }
  const bool attempts_added = !has_attempts_table();
  exec(kAttemptsTable);
  // After every column exists: the back-fills read runs with the current schema's queries.
  if (charges_added) backfill_charges();
  if (attempts_added) backfill_attempts();
  exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion)).c_str());
  transaction.commit();
}

void Store::backfill_charges() {
  // Runs written before v3 have no release columns: compute them from the run itself (its
  // config, mechanism and the queries of its stored jobs), as record_charges would have.
  std::vector<std::int64_t> ids;
  {
    Statement q(db_, path_, "SELECT id FROM experiments");
    while (q.step()) ids.push_back(q.integer(0));
  }
  for (const std::int64_t id : ids) {
    std::string mode = "unknown";
    Charges c;
    try {
      const tuning::SearchResults results = load_results_unlocked(id);
      mode = experiment::describe_release(results.config.release);
      c = charges_of(results);
    } catch (const Error&) {
      // A run whose config no longer parses keeps "unknown"; it still lists and deletes.
    }
    Statement u(db_, path_,
                "UPDATE experiments SET release_mode = ?, runs_trained = ?, runs_charged = ?, "
                "epsilon = ? WHERE id = ?");
    u.bind(1, mode).bind(2, c.runs_trained).bind(3, c.runs_charged).bind(4, c.epsilon).bind(5, id);
    u.run();
  }
}

void Store::backfill_attempts() {
  // Runs written before v5 have no attempts: each gets one ("migrated"), charged what the run
  // holds (every stored job's queries), as its single attempt would have been.
  std::vector<std::int64_t> ids;
  {
    Statement q(db_, path_, "SELECT id FROM experiments");
    while (q.step()) ids.push_back(q.integer(0));
  }
  for (const std::int64_t id : ids) {
    AttemptCharge c;
    try {
      c = charge_of_jobs(load_results_unlocked(id, /*with_curves=*/false));
    } catch (const Error&) {
      c.epsilon = c.delta = std::numeric_limits<double>::quiet_NaN();  // a config that no
      c.runs_trained = 1;  // longer parses: charged an unknown epsilon, never 0
    }
    Statement u(db_, path_,
                "INSERT INTO attempts(experiment_id, attempt, kind, open, outcome, planned_jobs, "
                "runs_trained, queries, epsilon, delta, rdp_orders, rdp) "
                "VALUES(?, 1, 'migrated', 0, 'migrated', ?, ?, ?, ?, ?, ?, ?)");
    u.bind(1, id)
        .bind(2, c.runs_trained)
        .bind(3, c.runs_trained)
        .bind(4, c.queries)
        .bind(5, c.epsilon)
        .bind(6, c.delta)
        .bind(7, c.rdp_orders)
        .bind(8, c.rdp);
    u.run();
    Statement j(db_, path_, "UPDATE jobs SET attempt = 1 WHERE experiment_id = ?");
    j.bind(1, id);
    j.run();
  }
}

}  // namespace dplab::store
