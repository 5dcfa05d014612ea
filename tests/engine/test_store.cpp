// Run history: a run written through StoreWriter reloads identically (curves bit for bit, NaN
// included), experiments are listed with what they charged (release mode, runs trained and
// charged, epsilon: schema v3), summaries kept, a schema-v2 database (and a development file
// whose version number disagrees with its columns) is migrated in place with its runs
// back-filled and still reloads, a non-SQLite file gives an IoError naming it. Writes are
// all-or-nothing (store/sqlite_transaction.h): a write that throws half-way leaves no partial
// rows, and the next write succeeds.
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <bit>
#include <fstream>

#include "core/error.h"
#include "privacy/accounting/rdp_accountant.h"
#include "store/attempt_charges.h"
#include "store/schema_version.h"
#include "store/sqlite_transaction.h"
#include "store/store.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/honest_selection.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {
bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

std::int64_t count_rows(sqlite3* db, const char* sql) {
  sqlite3_stmt* q = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &q, nullptr) != SQLITE_OK) return -1;
  const std::int64_t n = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
  sqlite3_finalize(q);
  return n;
}

std::int64_t count_rows(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  const std::int64_t n = count_rows(db, sql);
  sqlite3_close(db);
  return n;
}
// The epsilon of the tiny experiment's 10 runs of T steps, composed.
double live_epsilon(const SearchResults& live) {
  const auto& m = live.mechanism;
  return privacy::epsilon_for_delta({m.noise_multiplier, m.sampling_rate, 10 * m.steps}, m.delta)
      .epsilon;
}

}  // namespace

class TestStore : public QObject {
  Q_OBJECT
 private slots:
  void round_trip() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    const auto config = testing::tiny_experiment();
    SearchResults live;
    std::int64_t id = 0;
    {
      store::Store db(path);
      store::StoreWriter writer(db);
      Runner runner(config, load_experiment_data(config), RunOptions{2, true});
      runner.add_listener(&writer);
      live = runner.run();
      id = writer.experiment_id();
      QVERIFY(!writer.first_error());
      db.save_summary(id, "summary", "{\"x\": 1}");
    }
    store::Store db(path);
    const auto list = db.list_experiments();
    QCOMPARE(list.size(), std::size_t{1});
    QCOMPARE(list[0].name, std::string("tiny"));
    QCOMPARE(list[0].status, std::string("finished"));
    QCOMPARE(list[0].num_candidates, std::int64_t{5});
    QCOMPARE(list[0].jobs_total, std::int64_t{10});
    QCOMPARE(list[0].jobs_finished, std::int64_t{10});
    QCOMPARE(db.load_summary(id, "summary").value(), std::string("{\"x\": 1}"));
    // What it charged: explore, all 10 runs, epsilon of 10 runs of T steps composed.
    QCOMPARE(list[0].release_mode, std::string("explore"));
    QCOMPARE(list[0].runs_trained, std::int64_t{10});
    QCOMPARE(list[0].runs_charged, std::int64_t{10});
    const auto& m = live.mechanism;
    const double all_runs =
        privacy::epsilon_for_delta({m.noise_multiplier, m.sampling_rate, 10 * m.steps}, m.delta)
            .epsilon;
    QCOMPARE(list[0].epsilon, all_runs);

    const SearchResults back = db.load_results(id);
    QCOMPARE(back.candidates.size(), live.candidates.size());
    QCOMPARE(back.training_size, live.training_size);
    QCOMPARE(back.mechanism.sampling_rate, live.mechanism.sampling_rate);
    QCOMPARE(back.mechanism.delta, live.mechanism.delta);
    for (std::size_t i = 0; i < live.jobs.size(); ++i) {
      const auto& a = live.jobs[i];
      const auto& b = back.jobs[i];
      QVERIFY(b.status == JobStatus::kFinished);
      QCOMPARE(b.seed, a.seed);
      QVERIFY(same_bits(a.final_val_accuracy, b.final_val_accuracy));
      QCOMPARE(b.curve.size(), a.curve.size());
      for (std::size_t k = 0; k < a.curve.size(); ++k) {
        QVERIFY(same_bits(a.curve[k].train_loss, b.curve[k].train_loss));
        QVERIFY(same_bits(a.curve[k].epsilon, b.curve[k].epsilon));
      }
    }
    QCOMPARE(back.candidates[2].clip, live.candidates[2].clip);
    // The same honest-selection numbers from the history as from the live run.
    QCOMPARE(honest_selection_all(back).best_candidate, honest_selection_all(live).best_candidate);
    QCOMPARE(honest_selection_all(back).epsilon_ma, honest_selection_all(live).epsilon_ma);
    db.delete_experiment(id);
    QVERIFY(db.list_experiments().empty());
  }

  void migrates_an_older_database_data() {
    QTest::addColumn<QString>("downgrade");
    QTest::addColumn<int>("version");
    // Every older file calls Adam's epsilon candidates.epsilon (renamed in v7).
    const QString v6 =
        QStringLiteral("ALTER TABLE candidates RENAME COLUMN adam_epsilon TO epsilon; ");
    QTest::newRow("schema v6") << v6 + QStringLiteral("PRAGMA user_version = 6;") << 6;
    // Every older file lacks v5's attempts table and jobs.attempt, and v6's model columns.
    const QString v4 = v6 + QStringLiteral(
                                "DROP TABLE attempts; ALTER TABLE jobs DROP COLUMN attempt; "
                                "ALTER TABLE experiments DROP COLUMN input_encoding; "
                                "ALTER TABLE jobs DROP COLUMN model_params; "
                                "ALTER TABLE jobs DROP COLUMN model_shape; ");
    QTest::newRow("schema v4") << v4 + QStringLiteral("PRAGMA user_version = 4;") << 4;
    const QString v3 = v4 + QStringLiteral(
                                "ALTER TABLE experiments DROP COLUMN release_mode; "
                                "ALTER TABLE experiments DROP COLUMN runs_trained; "
                                "ALTER TABLE experiments DROP COLUMN runs_charged; "
                                "ALTER TABLE experiments DROP COLUMN epsilon; ");
    // What dplab wrote before v3: no release columns, none of v4's curve columns.
    QTest::newRow("schema v2") << v3 + QStringLiteral(
                                           "ALTER TABLE curve_points DROP COLUMN clip; "
                                           "ALTER TABLE curve_points DROP COLUMN val_mse; "
                                           "PRAGMA user_version = 2;")
                               << 2;
    // A development build numbered v4's curve columns "3": the file says 3, holds v4's columns
    // and lacks v3's. Adding by version number failed ("duplicate column name: clip").
    QTest::newRow("version 3 with v4's columns")
        << v3 + QStringLiteral("PRAGMA user_version = 3;") << 3;
  }
  void migrates_an_older_database() {
    QFETCH(QString, downgrade);
    QFETCH(int, version);
    QTemporaryDir dir;
    const std::string path = dir.filePath("old.sqlite").toStdString();
    const auto config = testing::tiny_experiment();
    SearchResults live;
    {
      store::Store db(path);
      store::StoreWriter writer(db);
      Runner runner(config, load_experiment_data(config), RunOptions{2, true});
      runner.add_listener(&writer);
      live = runner.run();
    }
    auto sql = [&](const char* text) {
      sqlite3* raw = nullptr;
      QCOMPARE(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
      char* message = nullptr;
      const int rc = sqlite3_exec(raw, text, nullptr, nullptr, &message);
      QVERIFY2(rc == SQLITE_OK, message ? message : "");
      sqlite3_close(raw);
    };
    sql(downgrade.toUtf8().constData());
    auto user_version = [&] {
      sqlite3* raw = nullptr;
      sqlite3_open(path.c_str(), &raw);
      sqlite3_stmt* q = nullptr;
      sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &q, nullptr);
      sqlite3_step(q);
      const auto v = sqlite3_column_int64(q, 0);
      sqlite3_finalize(q);
      sqlite3_close(raw);
      return v;
    };
    QCOMPARE(user_version(), sqlite3_int64{version});
    if (version == 4) {
      // Read-only, a v4 file is read as is: each run is its one attempt (nothing written).
      store::StoreOptions read_only;
      read_only.read_only = true;
      store::Store old(path, read_only);
      QCOMPARE(old.spent_budget(1).attempts, 1);
      QCOMPARE(old.list_experiments()[0].epsilon, live_epsilon(live));
      QCOMPARE(user_version(), sqlite3_int64{4});
    }
    auto same_candidates = [&](const SearchResults& back) {
      QCOMPARE(back.candidates.size(), live.candidates.size());
      for (std::size_t i = 0; i < live.candidates.size(); ++i) {
        QVERIFY(
            same_bits(back.candidates[i].optimizer.epsilon, live.candidates[i].optimizer.epsilon));
        QVERIFY(same_bits(back.candidates[i].optimizer.beta2, live.candidates[i].optimizer.beta2));
      }
    };
    if (version == 6) {
      // Read-only, a v6 file is read as is: Adam's epsilon from its old column name.
      store::StoreOptions read_only;
      read_only.read_only = true;
      store::Store old(path, read_only);
      same_candidates(old.load_results(1));
      QCOMPARE(user_version(), sqlite3_int64{6});
    }
    store::Store db(path);
    QCOMPARE(user_version(), sqlite3_int64{store::kSchemaVersion});
    const auto list = db.list_experiments();
    QCOMPARE(list.size(), std::size_t{1});
    QCOMPARE(list[0].release_mode, std::string("explore"));
    QCOMPARE(list[0].runs_trained, std::int64_t{10});
    QCOMPARE(list[0].runs_charged, std::int64_t{10});
    QCOMPARE(list[0].epsilon, live_epsilon(live));
    // v5's back-fill: one attempt, charged what the run holds (a v6 file kept its own).
    const auto attempts = db.attempts(list[0].id);
    QCOMPARE(attempts.size(), std::size_t{1});
    QCOMPARE(attempts[0].kind, std::string(version < 5 ? "migrated" : "run"));
    QCOMPARE(attempts[0].queries, 10 * live.mechanism.steps);
    QCOMPARE(db.spent_budget(list[0].id).epsilon, live_epsilon(live));
    const SearchResults back = db.load_results(list[0].id);
    QCOMPARE(back.jobs.size(), live.jobs.size());
    for (std::size_t i = 0; i < live.jobs.size(); ++i)
      QVERIFY(same_bits(back.jobs[i].final_val_accuracy, live.jobs[i].final_val_accuracy));
    // v7: Adam's epsilon under its own name, its values kept by the rename.
    same_candidates(back);
    sql("SELECT adam_epsilon FROM candidates");
  }

  // The guard itself: what a throwing block wrote is rolled back, a block left without commit()
  // is rolled back, a committed one stays; BEGIN on a locked file keeps the store's message.
  void transaction_rolls_back_unless_committed() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("t.sqlite").toStdString();
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, "CREATE TABLE t(x INTEGER)", nullptr, nullptr, nullptr), SQLITE_OK);
    auto insert = [&](int x) {
      const std::string sql = "INSERT INTO t VALUES(" + std::to_string(x) + ")";
      QCOMPARE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    };
    bool thrown = false;
    try {
      store::Transaction transaction(db, path);
      insert(1);
      insert(2);
      throw IoError("half-way");
    } catch (const IoError&) {
      thrown = true;
    }
    QVERIFY(thrown);
    QVERIFY(sqlite3_get_autocommit(db) != 0);  // no transaction left open
    QCOMPARE(count_rows(db, "SELECT COUNT(*) FROM t"), std::int64_t{0});
    {
      store::Transaction transaction(db, path);
      insert(3);
    }  // no commit()
    QCOMPARE(count_rows(db, "SELECT COUNT(*) FROM t"), std::int64_t{0});
    {
      store::Transaction transaction(db, path);
      insert(4);
      transaction.commit();
    }
    QCOMPARE(count_rows(db, "SELECT COUNT(*) FROM t"), std::int64_t{1});
    QCOMPARE(count_rows(path, "SELECT x FROM t"), std::int64_t{4});  // on disk for others
    // Another connection holds the write lock: BEGIN IMMEDIATE fails at once (no busy timeout
    // here) with the store's message naming the file and what it means.
    sqlite3* other = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &other), SQLITE_OK);
    QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    try {
      store::Transaction transaction(db, path);
      QFAIL("BEGIN IMMEDIATE succeeded on a locked file");
    } catch (const IoError& e) {
      QCOMPARE(std::string(e.what()),
               path + ": SQLite: database is locked (another process holds the lock)");
    }
    sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(other);
    sqlite3_close(db);
  }

  // Through the Store: a run whose candidates cannot all be stored (two with one index: the
  // second breaks the primary key after the run's row and the first candidate were written)
  // leaves no run behind, and a job whose curve cannot be stored (an iteration twice) leaves no
  // job row and no points; each time the next write succeeds.
  void failed_write_leaves_no_partial_rows() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    const auto config = testing::tiny_experiment(20, 1);
    Runner runner(config, load_experiment_data(config), RunOptions{1, true});
    const SearchResults live = runner.run();
    QVERIFY(live.candidates.size() >= 2);
    store::Store db(path);

    SearchResults bad_plan = live;
    bad_plan.candidates[1].index = bad_plan.candidates[0].index;
    QVERIFY_THROWS_EXCEPTION(IoError, db.begin_experiment(bad_plan));
    QVERIFY(db.list_experiments().empty());
    QCOMPARE(count_rows(path, "SELECT COUNT(*) FROM candidates"), std::int64_t{0});
    const std::int64_t id = db.begin_experiment(live);
    QCOMPARE(db.list_experiments().size(), std::size_t{1});
    QCOMPARE(count_rows(path, "SELECT COUNT(*) FROM candidates"),
             static_cast<std::int64_t>(live.candidates.size()));

    JobResult bad_job = live.jobs[0];
    QVERIFY(bad_job.curve.size() >= 2);
    bad_job.curve.back().iteration = bad_job.curve.front().iteration;
    QVERIFY_THROWS_EXCEPTION(IoError, db.record_job(id, live, bad_job));
    QCOMPARE(db.stored_jobs(id), std::int64_t{0});
    QCOMPARE(count_rows(path, "SELECT COUNT(*) FROM curve_points"), std::int64_t{0});
    db.record_job(id, live, live.jobs[0]);
    QCOMPARE(db.stored_jobs(id), std::int64_t{1});
    QCOMPARE(count_rows(path, "SELECT COUNT(*) FROM curve_points"),
             static_cast<std::int64_t>(live.jobs[0].curve.size()));
  }

  void not_a_database() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("junk.sqlite").toStdString();
    std::ofstream(path) << "this is not a database, just some text that is long enough............";
    try {
      store::Store db(path);
      QFAIL("no error");
    } catch (const IoError& e) {
      QVERIFY(std::string(e.what()).find(path) != std::string::npos);
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestStore)
#include "test_store.moc"
