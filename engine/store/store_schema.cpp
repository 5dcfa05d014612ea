// The run history's schema and its migrations (PRAGMA user_version; see store.h for the tables):
// version 1's tables, the columns every later version added, and the back-fill of what older
// runs charged. Every change runs in one BEGIN IMMEDIATE transaction.
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "core/error.h"
#include "experiment/release_config.h"
#include "store/run_charges.h"
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
  learning_rate REAL, clip REAL, momentum REAL, beta1 REAL, beta2 REAL, epsilon REAL,
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
//      accuracy; rows of older files read these as NULL -> NaN (nothing was recorded).
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
    {2, "experiments", "writer_host", "TEXT"},     {2, "experiments", "writer_boot", "TEXT"},
    {2, "experiments", "writer_pid", "INTEGER"},   {2, "experiments", "writer_start", "INTEGER"},
    {3, "experiments", "release_mode", "TEXT"},    {3, "experiments", "runs_trained", "INTEGER"},
    {3, "experiments", "runs_charged", "INTEGER"}, {3, "experiments", "epsilon", "REAL"},
    {4, "curve_points", "clip", "REAL"},           {4, "curve_points", "val_mse", "REAL"},
};

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
  auto has_column = [&](const AddedColumn& c) {
    Statement q(db_, path_, "SELECT 1 FROM pragma_table_info(?) WHERE name = ?");
    q.bind(1, c.table).bind(2, c.column);
    return q.step();
  };
  auto complete = [&] {
    return std::all_of(std::begin(kAddedColumns), std::end(kAddedColumns), has_column);
  };
  std::int64_t current = read_version();
  check_not_newer(current);
  if (current == kSchemaVersion && complete()) return;
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
  // After every column exists: the back-fill reads runs with the current schema's queries.
  if (charges_added) backfill_charges();
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

}  // namespace dplab::store
