// Durability of the run history under faults (issue #11 item 2): another process holding the
// SQLite lock longer than the busy timeout, and a database that is full. No finished job may be
// lost silently: held jobs are stored once the lock is released; with a full database the writer
// reports how many jobs it could not store and why ("disk full") and the run is "incomplete".
// Also: a diverged candidate (lr = 1e300) is marked diverged, stored so, and never selected.
#include <sqlite3.h>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <thread>

#include "store/run_history.h"
#include "store/store.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/aggregates.h"
#include "tuning/honest_selection.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

// Takes an exclusive lock on the database from a second connection when the run starts and
// releases it `hold` later (from a thread), i.e. longer than the store's busy timeout.
class LockHolder : public RunListener {
 public:
  LockHolder(std::string path, std::chrono::milliseconds hold)
      : path_(std::move(path)), hold_(hold) {}
  ~LockHolder() override {
    if (thread_.joinable()) thread_.join();
    sqlite3_close(db_);
  }
  void on_start(const SearchResults&) override {
    QCOMPARE(sqlite3_open(path_.c_str(), &db_), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db_, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
    thread_ = std::thread([this] {
      std::this_thread::sleep_for(hold_);
      sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
    });
  }

 private:
  std::string path_;
  std::chrono::milliseconds hold_;
  sqlite3* db_ = nullptr;
  std::thread thread_;
};

std::int64_t page_count(const std::string& path) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA page_count", -1, &s, nullptr);
  sqlite3_step(s);
  const std::int64_t pages = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  sqlite3_close(db);
  return pages;
}

}  // namespace

class TestStoreDurability : public QObject {
  Q_OBJECT
 private slots:
  void held_lock_loses_nothing() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    store::Store db(path, store::StoreOptions{100, 0});  // busy after 0.1 s
    store::StoreWriter writer(db, 30.0);
    LockHolder locker(path, std::chrono::milliseconds(1500));  // 15x the busy timeout
    const auto config = testing::tiny_experiment();
    Runner runner(config, load_experiment_data(config), RunOptions{2, true});
    runner.add_listener(&writer);  // first: it creates the run before the lock is taken
    runner.add_listener(&locker);
    runner.run();
    QVERIFY2(!writer.first_error(), writer.first_error().value_or("").c_str());
    QCOMPARE(writer.unsaved_jobs(), std::int64_t{0});
    QCOMPARE(db.stored_jobs(writer.experiment_id()), std::int64_t{10});
    QCOMPARE(db.list_experiments()[0].status, std::string("finished"));
  }

  void full_database_is_reported() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    { store::Store create(path); }
    // Room for the run's row and candidates, not for 10 jobs of 200 curve points each.
    store::Store db(path, store::StoreOptions{100, page_count(path) + 3});
    store::StoreWriter writer(db, 0.3);
    const auto config = testing::tiny_experiment(2000);
    Runner runner(config, load_experiment_data(config), RunOptions{2, true});
    runner.add_listener(&writer);
    const SearchResults results = runner.run();
    const auto error = writer.first_error();
    QVERIFY(error.has_value());
    QVERIFY2(error->find("disk full") != std::string::npos, error->c_str());
    const std::int64_t stored = db.stored_jobs(writer.experiment_id());
    QVERIFY(writer.unsaved_jobs() > 0);
    QCOMPARE(stored + writer.unsaved_jobs(), std::int64_t{10});  // every job accounted for
    QVERIFY2(error->find(std::to_string(writer.unsaved_jobs()) +
                         " finished job(s) could not be stored") == 0,
             error->c_str());
    QCOMPARE(db.list_experiments()[0].status, std::string("incomplete"));
    // The jobs it could not store run again on resume, like a cancelled run's.
    QVERIFY(store::list_history(db).front().resumable);
    // The jobs are all still in memory.
    for (const auto& job : results.jobs) QVERIFY(job.status == JobStatus::kFinished);
    // Once there is room, resuming (as `tune --resume` and the GUI's Resume do) stores the rest.
    const std::int64_t id = writer.experiment_id();
    store::Store roomy(path);
    const SearchResults earlier = roomy.load_results(id);
    Runner resumed(earlier.config, load_experiment_data(config), RunOptions{2, true});
    resumed.resume_from(earlier);
    store::StoreWriter again(roomy);
    again.resume(id);
    resumed.add_listener(&again);
    resumed.run();
    QVERIFY(!again.first_error().has_value());
    QCOMPARE(roomy.stored_jobs(id), std::int64_t{10});
    QCOMPARE(roomy.list_experiments()[0].status, std::string("finished"));
  }

  // Item 7: lr = 1e300 makes the loss non-finite; the job stops, is "diverged" in memory and in
  // the store, and honest selection never picks it.
  void diverged_job_is_marked_and_never_selected() {
    auto json = nlohmann::json::parse(testing::tiny_experiment_json());
    json["optimizers"][0]["grid"]["learning_rate"] = {0.1, 1e300};
    const auto config = experiment::parse_experiment(json);
    QTemporaryDir dir;
    store::Store db(dir.filePath("runs.sqlite").toStdString());
    store::StoreWriter writer(db);
    Runner runner(config, load_experiment_data(config), RunOptions{2, true});
    runner.add_listener(&writer);
    const SearchResults results = runner.run();
    int diverged = 0;
    for (const auto& job : results.jobs) {
      const auto& c = results.candidates[static_cast<std::size_t>(job.candidate)];
      if (c.optimizer.learning_rate == 1e300) {
        QVERIFY2(job.status == JobStatus::kDiverged, to_string(job.status).c_str());
        QVERIFY2(job.error.find("diverged") == 0, job.error.c_str());
        QVERIFY(job.queries < config.privacy.steps);  // stopped early
        ++diverged;
      } else {
        QVERIFY(job.status == JobStatus::kFinished);
      }
    }
    QCOMPARE(diverged, 4);  // two candidates (C = 0.5, 1) x 2 repeats
    // The alpha-C heatmap's data: the diverged cells are counted (and hold no value).
    const auto grid = aggregate_all(results)[0].grid;
    int in_grid = 0;
    for (std::size_t cell = 0; cell < grid.diverged.size(); ++cell) {
      in_grid += grid.diverged[cell];
      if (grid.diverged[cell] > 0) QVERIFY(std::isnan(grid.final_train_loss[cell]));
    }
    QCOMPARE(in_grid, 4);
    const SearchResults back = db.load_results(writer.experiment_id());
    for (std::size_t i = 0; i < back.jobs.size(); ++i)
      QVERIFY(back.jobs[i].status == results.jobs[i].status);
    for (const auto& report : honest_selection_per_optimizer(results)) {
      if (report.best_candidate < 0) continue;
      QVERIFY(results.candidates[static_cast<std::size_t>(report.best_candidate)]
                  .optimizer.learning_rate != 1e300);
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestStoreDurability)
#include "test_store_durability.moc"
