// SQLite run history. See store.h for the schema and the crash-safety contract.
#include "store/store.h"

#include <sqlite3.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <thread>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/validate.h"
#include "store/writer_identity.h"
#include "tuning/accounting.h"
#include "tuning/release_cost.h"

namespace dplab::store {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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

// SQLite's message plus what it means for the user: "database or disk is full (disk full)".
std::string describe(sqlite3* db) {
  std::string text = sqlite3_errmsg(db);
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_FULL:
      text += " (disk full)";
      break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      text += " (another process holds the lock)";
      break;
    case SQLITE_READONLY:
      text += " (read-only file or folder)";
      break;
    case SQLITE_IOERR:
      text += " (I/O error)";
      break;
    default:
      break;
  }
  return text;
}

// A prepared statement with RAII finalisation; errors name the file and SQLite's message.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& path, const char* sql) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, double v) {
    // SQLite stores NaN as NULL; NULL reads back as NaN (see real()).
    check(std::isnan(v) ? sqlite3_bind_null(stmt_, i) : sqlite3_bind_double(stmt_, i, v));
    return *this;
  }
  Statement& bind(int i, std::int64_t v) {
    check(sqlite3_bind_int64(stmt_, i, v));
    return *this;
  }
  Statement& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  Statement& bind(int i, const std::string& v) {
    check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    return *this;
  }
  // True while rows come; false when done.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail("step");
  }
  void run() {
    while (step()) {
    }
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  double real(int col) const {
    return sqlite3_column_type(stmt_, col) == SQLITE_NULL ? kNaN
                                                          : sqlite3_column_double(stmt_, col);
  }
  std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p)) : std::string();
  }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) fail("bind");
  }
  [[noreturn]] void fail(const char* what) const {
    throw IoError(path_ + ": SQLite " + what + " failed: " + describe(db_));
  }
  sqlite3* db_;
  const std::string& path_;
  sqlite3_stmt* stmt_ = nullptr;
};

std::string selection_rule(const experiment::ExperimentConfig& config) {
  return config.tuning.strategy == experiment::Strategy::kLt ? "lt" : "ma";
}

}  // namespace

Store::Store(const std::string& path, StoreOptions options)
    : path_(path), read_only_(options.read_only) {
  // A WAL database is read through its -shm file, which a read-only folder cannot hold: there
  // the file is opened immutable (nothing can change it on a read-only disk).
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const bool folder_writable = ::access(parent.empty() ? "." : parent.c_str(), W_OK) == 0;
  std::string name = path;
  if (read_only_ && !folder_writable) {
    std::string escaped;  // a URI path: '%', '?' and '#' percent-encoded
    for (const char c : path) {
      if (c == '%' || c == '?' || c == '#') {
        char hex[4];
        std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
        escaped += hex;
      } else {
        escaped += c;
      }
    }
    name = "file:" + escaped + "?immutable=1";
  }
  const int rc = sqlite3_open_v2(name.c_str(), &db_,
                                 read_only_ ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
                                            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                 nullptr);
  if (rc != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw IoError(path + ": cannot open the run history: " + message);
  }
  try {
    sqlite3_busy_timeout(db_, options.busy_timeout_ms);
    if (read_only_) {
      migrate();  // only checks the schema
      return;
    }
    exec("PRAGMA foreign_keys = ON");
    exec("PRAGMA journal_mode = WAL");
    // WAL + NORMAL: a committed transaction survives a process crash or kill (not a power cut).
    exec("PRAGMA synchronous = NORMAL");
    if (options.max_page_count > 0) {
      exec(("PRAGMA max_page_count = " + std::to_string(options.max_page_count)).c_str());
    }
    migrate();
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
  // Stale runs: best effort (a busy database must not make opening fail).
  try {
    mark_interrupted_runs();
  } catch (const Error&) {
  }
}

Store::~Store() {
  sqlite3_close(db_);
}

void Store::exec(const char* sql) const {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    const std::string meaning = describe(db_);
    if (const auto at = meaning.rfind(" ("); at != std::string::npos) text += meaning.substr(at);
    throw IoError(path_ + ": SQLite: " + text);
  }
}

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
    q.bind(1, std::string(c.table)).bind(2, std::string(c.column));
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
  exec("BEGIN IMMEDIATE");
  try {
    current = read_version();
    check_not_newer(current);
    if (current < 1) exec(kSchemaV1);
    bool charges_added = false;
    for (const AddedColumn& c : kAddedColumns) {
      if (has_column(c)) continue;
      exec((std::string("ALTER TABLE ") + c.table + " ADD COLUMN " + c.column + " " + c.type)
               .c_str());
      charges_added = charges_added || c.version == 3;
    }
    // After every column exists: the back-fill reads runs with the current schema's queries.
    if (charges_added) backfill_charges();
    exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion)).c_str());
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::int64_t Store::begin_experiment(const tuning::SearchResults& plan) {
  std::lock_guard lock(mutex_);
  exec("BEGIN IMMEDIATE");
  try {
    Statement e(
        db_, path_,
        "INSERT INTO experiments(name, status, config_json, training_size, is_regression, "
        "noise_multiplier, sampling_rate, steps, delta, writer_host, writer_boot, writer_pid, "
        "writer_start, release_mode, runs_trained) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)");
    const WriterIdentity me = current_writer();
    e.bind(1, plan.config.name)
        .bind(2, std::string("running"))
        .bind(3, experiment::to_json(plan.config).dump())
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
        .bind(14, experiment::describe_release(plan.config.release));
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
    exec("COMMIT");
    return id;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void Store::record_job(std::int64_t experiment_id, const tuning::SearchResults& plan,
                       const tuning::JobResult& job) {
  const auto& cand = plan.candidates.at(static_cast<std::size_t>(job.candidate));
  const int k =
      static_cast<int>(experiment::candidates_of(plan.candidates, cand.optimizer_index).size());
  const double gamma = plan.config.tuning.gamma ? *plan.config.tuning.gamma : 1.0 / k;
  std::lock_guard lock(mutex_);
  exec("BEGIN IMMEDIATE");
  try {
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
        "delta2) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
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
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void Store::finish_experiment(std::int64_t experiment_id, const std::string& status) {
  std::lock_guard lock(mutex_);
  Statement s(db_, path_, "UPDATE experiments SET status = ? WHERE id = ?");
  s.bind(1, status).bind(2, experiment_id);
  s.run();
}

namespace {
// (runs trained, runs charged or -1, epsilon) of a search, from the engine's release cost.
struct Charges {
  std::int64_t runs_trained = 0;
  std::int64_t runs_charged = -1;
  double epsilon = kNaN;
};
Charges charges_of(const tuning::SearchResults& results) {
  Charges c;
  for (const auto& job : results.jobs) c.runs_trained += job.queries > 0 ? 1 : 0;
  try {
    const tuning::ReleaseCost cost = tuning::release_cost(results);
    c.epsilon = cost.epsilon;
    const bool random_count = cost.release.mode == experiment::ReleaseMode::kPrivate &&
                              cost.release.selection == experiment::PrivateSelection::kPs;
    c.runs_charged = random_count ? -1 : cost.runs_charged;
  } catch (const Error&) {
    // Not computable (e.g. a mechanism without noise): left unknown.
  }
  return c;
}
}  // namespace

void Store::record_charges(std::int64_t experiment_id, const tuning::SearchResults& results) {
  const Charges c = charges_of(results);
  std::lock_guard lock(mutex_);
  Statement s(db_, path_,
              "UPDATE experiments SET release_mode = ?, runs_trained = ?, runs_charged = ?, "
              "epsilon = ? WHERE id = ?");
  s.bind(1, experiment::describe_release(results.config.release))
      .bind(2, c.runs_trained)
      .bind(3, c.runs_charged)
      .bind(4, c.epsilon)
      .bind(5, experiment_id);
  s.run();
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

void Store::claim_experiment(std::int64_t experiment_id) {
  std::lock_guard lock(mutex_);
  exec("BEGIN IMMEDIATE");
  try {
    Statement q(db_, path_,
                "SELECT status, writer_host, writer_boot, writer_pid, writer_start FROM "
                "experiments WHERE id = ?");
    q.bind(1, experiment_id);
    if (!q.step()) throw IoError(path_ + ": no run with id " + std::to_string(experiment_id));
    const std::string status = q.text(0);
    const WriterIdentity writer{q.text(1), q.text(2), q.integer(3), q.integer(4)};
    if (status == "running" && writer_state(writer) != WriterState::kGone) {
      throw IoError(path_ + ": run " + std::to_string(experiment_id) +
                    " is still being written by process " + std::to_string(writer.pid) + " on " +
                    writer.host);
    }
    if (status == "finished") {
      throw IoError(path_ + ": run " + std::to_string(experiment_id) +
                    " is finished; nothing to resume");
    }
    const WriterIdentity me = current_writer();
    Statement u(db_, path_,
                "UPDATE experiments SET status = 'running', writer_host = ?, writer_boot = ?, "
                "writer_pid = ?, "
                "writer_start = ? WHERE id = ?");
    u.bind(1, me.host)
        .bind(2, me.boot_id)
        .bind(3, me.pid)
        .bind(4, me.start_ticks)
        .bind(5, experiment_id);
    u.run();
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::vector<std::int64_t> Store::mark_interrupted_runs() {
  std::lock_guard lock(mutex_);
  std::vector<std::int64_t> gone;
  {
    Statement q(db_, path_,
                "SELECT id, writer_host, writer_boot, writer_pid, writer_start FROM experiments "
                "WHERE status = 'running'");
    while (q.step()) {
      const WriterIdentity writer{q.text(1), q.text(2), q.integer(3), q.integer(4)};
      if (writer_state(writer) == WriterState::kGone) gone.push_back(q.integer(0));
    }
  }
  for (const std::int64_t id : gone) {
    Statement u(
        db_, path_,
        "UPDATE experiments SET status = 'interrupted' WHERE id = ? AND status = 'running'");
    u.bind(1, id);
    u.run();
  }
  return gone;
}

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
              "SELECT COUNT(*) FROM jobs WHERE experiment_id = ? AND status IN ('finished', "
              "'diverged', 'failed')");
  s.bind(1, experiment_id);
  s.step();
  return s.integer(0);
}

void Store::save_summary(std::int64_t experiment_id, const std::string& kind,
                         const std::string& json) {
  std::lock_guard lock(mutex_);
  Statement s(db_, path_, "INSERT OR REPLACE INTO summaries VALUES(?,?,?)");
  s.bind(1, experiment_id).bind(2, kind).bind(3, json);
  s.run();
}

std::optional<std::string> Store::load_summary(std::int64_t experiment_id,
                                               const std::string& kind) const {
  std::lock_guard lock(mutex_);
  Statement s(db_, path_, "SELECT json FROM summaries WHERE experiment_id = ? AND kind = ?");
  s.bind(1, experiment_id).bind(2, kind);
  if (!s.step()) return std::nullopt;
  return s.text(0);
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

std::vector<ExperimentRecord> Store::list_experiments() const {
  std::lock_guard lock(mutex_);
  Statement s(
      db_, path_,
      "SELECT e.id, e.name, e.created_at, e.status, "
      "(SELECT COUNT(*) FROM candidates c WHERE c.experiment_id = e.id), "
      "e.config_json, "
      "(SELECT COUNT(*) FROM jobs j WHERE j.experiment_id = e.id AND j.status = 'finished'), "
      "e.release_mode, e.runs_trained, e.runs_charged, e.epsilon, "
      "(SELECT COUNT(*) FROM jobs j WHERE j.experiment_id = e.id) "
      "FROM experiments e ORDER BY e.id DESC");
  std::vector<ExperimentRecord> out;
  while (s.step()) {
    ExperimentRecord r;
    r.id = s.integer(0);
    r.name = s.text(1);
    r.created_at = s.text(2);
    r.status = s.text(3);
    r.num_candidates = s.integer(4);
    int repeats = 1;
    try {
      repeats = parse_json_text(s.text(5), path_).value("repeats", 1);
    } catch (const std::exception&) {
    }
    r.jobs_total = r.num_candidates * repeats;
    r.jobs_finished = s.integer(6);
    r.release_mode = s.text(7);
    r.runs_trained = s.integer(8);
    r.runs_charged = s.text(9).empty() ? -1 : s.integer(9);
    r.epsilon = s.real(10);
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
    Statement c(
        db_, path_,
        "SELECT candidate, optimizer_index, index_in_optimizer, optimizer, learning_rate, clip, "
        "momentum, beta1, beta2, epsilon FROM candidates WHERE experiment_id = ? ORDER BY "
        "candidate");
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
      res.candidates.push_back(cand);
    }
  }
  const int repeats = res.config.repeats;
  // Private release modes: job i is global run i (its `repeat`), candidates as drawn.
  const bool drawn = res.config.release.mode == experiment::ReleaseMode::kPrivate;
  if (drawn) {
    Statement n(db_, path_,
                "SELECT MAX(COALESCE(runs_trained, 0), (SELECT COALESCE(MAX(repeat) + 1, 0) "
                "FROM jobs WHERE experiment_id = ?)) FROM experiments WHERE id = ?");
    n.bind(1, experiment_id).bind(2, experiment_id);
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
  Statement j(db_, path_,
              "SELECT id, candidate, repeat, seed, status, final_val_accuracy, final_val_loss, "
              "final_train_loss, queries, wall_seconds, error FROM jobs WHERE experiment_id = ?");
  j.bind(1, experiment_id);
  Statement p(
      db_, path_,
      "SELECT iteration, train_loss, val_loss, val_accuracy, epsilon, step_size, clip, val_mse "
      "FROM curve_points WHERE job_id = ? ORDER BY iteration");
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

std::optional<std::string> StoreWriter::first_error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

std::int64_t StoreWriter::unsaved_jobs() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(pending_.size());
}

void StoreWriter::on_start(const tuning::SearchResults& plan) {
  plan_.config = plan.config;
  plan_.candidates = plan.candidates;
  plan_.mechanism = plan.mechanism;
  plan_.training_size = plan.training_size;
  plan_.is_regression = plan.is_regression;
  // Errors here propagate: a database that cannot take the run fails it before any job.
  if (resuming_) {
    store_.claim_experiment(experiment_id_);
  } else {
    experiment_id_ = store_.begin_experiment(plan_);
  }
}

namespace {
double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

bool StoreWriter::flush() {
  for (;;) {
    tuning::JobResult job;
    {
      std::lock_guard lock(mutex_);
      if (pending_.empty()) return true;
      job = pending_.front();
    }
    try {
      store_.record_job(experiment_id_, plan_, job);
    } catch (const Error& e) {
      std::lock_guard lock(mutex_);
      last_error_ = e.what();
      next_retry_ = now_seconds() + backoff_;
      backoff_ = std::min(backoff_ * 2, 2.0);
      return false;
    }
    std::lock_guard lock(mutex_);
    pending_.erase(pending_.begin());
    backoff_ = 0.05;
  }
}

void StoreWriter::on_job_finished(const tuning::JobResult& job) {
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(job);
    if (now_seconds() < next_retry_) return;  // backing off after a failure
  }
  // One flusher at a time; a worker that finds it busy leaves its job queued for it.
  std::unique_lock flushing(flush_mutex_, std::try_to_lock);
  if (flushing) flush();
}

void StoreWriter::on_finished(const tuning::SearchResults& results, bool cancelled) {
  std::lock_guard flushing(flush_mutex_);
  // Retry with back-off (busy: another process holds the lock; full: space may be freed).
  const double deadline = now_seconds() + retry_seconds_;
  double wait = 0.05;
  while (!flush() && now_seconds() < deadline) {
    std::this_thread::sleep_for(
        std::chrono::duration<double>(std::min(wait, deadline - now_seconds())));
    wait = std::min(wait * 2, 2.0);
  }
  std::int64_t unsaved = 0;
  {
    std::lock_guard lock(mutex_);
    unsaved = static_cast<std::int64_t>(pending_.size());
    if (unsaved > 0) {
      error_ = std::to_string(unsaved) +
               " finished job(s) could not be stored after retrying for " +
               format_number(retry_seconds_) + " s: " + last_error_;
    }
  }
  try {
    store_.record_charges(experiment_id_, results);
  } catch (const Error& e) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = e.what();
  }
  try {
    store_.finish_experiment(experiment_id_, unsaved > 0 ? "incomplete"
                                             : cancelled ? "cancelled"
                                                         : "finished");
  } catch (const Error& e) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = e.what();
  }
}

}  // namespace dplab::store
