// Store: the run history of one workspace in one SQLite file. Tables:
//   experiments  (config JSON, n, the mechanism sigma, q, T, delta, status)
//   candidates   (hyperparameters of each candidate)
//   jobs         (candidate, repeat, seed, status, final metrics, wall time, and the privacy
//                 mechanism: sigma, q, steps, selection rule, K, gamma, delta, delta2 — so that
//                 any epsilon can be recomputed later)
//   curve_points (one row per learning-curve point)
//   summaries    (JSON blobs: honest-selection reports, aggregates)
// Schema versioned with PRAGMA user_version; WAL journal. A job's points and its final row are
// written in ONE transaction when the job ends, so a crash or kill loses at most the jobs in
// flight and a re-open shows every job that finished before, complete.
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

#include "tuning/results.h"
#include "tuning/runner.h"

struct sqlite3;

namespace dplab::store {

inline constexpr int kSchemaVersion = 1;

struct ExperimentRecord {
  std::int64_t id = 0;
  std::string name;
  std::string created_at;   // ISO 8601, UTC
  std::string status;       // running | finished | cancelled
  std::int64_t num_candidates = 0;
  std::int64_t jobs_total = 0;
  std::int64_t jobs_finished = 0;
};

class Store {
 public:
  // Opens or creates the file and migrates its schema. Throws IoError (unreadable, not a
  // SQLite file, or written by a newer dplab).
  explicit Store(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const { return path_; }

  // Records an experiment and its candidates (status "running"); returns its id.
  std::int64_t begin_experiment(const tuning::SearchResults& plan);
  // One transaction: the job's row (any final status) and all its curve points.
  void record_job(std::int64_t experiment_id, const tuning::SearchResults& plan,
                  const tuning::JobResult& job);
  void finish_experiment(std::int64_t experiment_id, const std::string& status);
  void save_summary(std::int64_t experiment_id, const std::string& kind, const std::string& json);
  std::optional<std::string> load_summary(std::int64_t experiment_id, const std::string& kind) const;
  void delete_experiment(std::int64_t experiment_id);

  std::vector<ExperimentRecord> list_experiments() const;  // newest first
  // Everything about one experiment; jobs never recorded come back as kPending.
  tuning::SearchResults load_results(std::int64_t experiment_id) const;

 private:
  void exec(const char* sql) const;
  void migrate();
  std::string path_;
  sqlite3* db_ = nullptr;
  mutable std::mutex mutex_;
};

// A RunListener that writes a run into a Store as results arrive.
class StoreWriter : public tuning::RunListener {
 public:
  explicit StoreWriter(Store& store) : store_(store) {}
  std::int64_t experiment_id() const { return experiment_id_; }
  // Errors while writing are kept (the run goes on); the first is reported here.
  std::optional<std::string> first_error() const;

  void on_start(const tuning::SearchResults& plan) override;
  void on_job_finished(const tuning::JobResult& job) override;
  void on_finished(const tuning::SearchResults& results, bool cancelled) override;

 private:
  Store& store_;
  tuning::SearchResults plan_;  // a copy without the jobs: config, candidates, mechanism
  std::int64_t experiment_id_ = -1;
  mutable std::mutex mutex_;
  std::optional<std::string> error_;
};

}  // namespace dplab::store
