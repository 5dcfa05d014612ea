// Opening the run history (issue #45 items 6-8):
//   6  an empty file name is refused (SQLite opens "" as a temporary database deleted when
//      closed: every run "stored" there was lost, with exit 0);
//   7  a read-only open reads the write-ahead log: runs only in the -wal were silently missing
//      where the folder cannot be written (the file was opened immutable); a -wal it cannot
//      read is an error saying so;
//   8  a run whose writer died is listed interrupted by a read-only open too (it stayed
//      "running": only a read-write open marked it), without writing anything.
#include <sqlite3.h>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/error.h"
#include "store/store.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

store::StoreOptions read_only(bool folder_read_only = false) {
  store::StoreOptions o;
  o.read_only = true;
  o.assume_folder_read_only = folder_read_only;
  return o;
}

void run_into(store::Store& db) {
  const auto config = testing::tiny_experiment(20, 1);
  store::StoreWriter writer(db);
  Runner runner(config, load_experiment_data(config), RunOptions{1, true});
  runner.add_listener(&writer);
  runner.run();
  QVERIFY(!writer.first_error());
}

std::string status_in_file(const std::string& path) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(db, "SELECT status FROM experiments", -1, &q, nullptr);
  std::string status;
  if (sqlite3_step(q) == SQLITE_ROW)
    status = reinterpret_cast<const char*>(sqlite3_column_text(q, 0));
  sqlite3_finalize(q);
  sqlite3_close(db);
  return status;
}

}  // namespace

class TestStoreOpen : public QObject {
  Q_OBJECT

 private slots:
  void empty_path_is_refused() {
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, store::Store(""));
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, store::Store("", read_only()));
  }

  void read_only_open_reads_the_write_ahead_log() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    store::Store writer_db(path);  // held open: its run stays in the -wal (no checkpoint)
    run_into(writer_db);
    QVERIFY(std::filesystem::file_size(path + "-wal") > 0);
    // A folder that cannot be written (root writes anywhere: the hook says so): the -shm is
    // there, so the log is read through it.
    QCOMPARE(store::Store(path, read_only(true)).list_experiments().size(), std::size_t{1});
    QCOMPARE(store::Store(path, read_only(false)).list_experiments().size(), std::size_t{1});
    // A copy with its log but no -shm, in a folder that cannot hold one: an error naming the
    // log, never a listing without the run.
    QTemporaryDir other;
    const std::string copy = other.filePath("runs.sqlite").toStdString();
    std::filesystem::copy_file(path, copy);
    std::filesystem::copy_file(path + "-wal", copy + "-wal");
    try {
      store::Store db(copy, read_only(true));
      QFAIL("opened a history whose write-ahead log it cannot read");
    } catch (const IoError& e) {
      QVERIFY2(std::string(e.what()).find("write-ahead log") != std::string::npos, e.what());
    }
  }

  // Found by tests/fuzz/fuzz_store.cpp (issue #45): a 19 KB history with one damaged page kept
  // `history list` running for more than a minute. SQLite now checks each cell as it reads it
  // (PRAGMA cell_size_check), so the damage is an IoError naming the file, at once.
  void a_damaged_file_is_an_error_not_a_hang() {
    std::ifstream in(testing::source_dir() + "/tests/fuzz/corpus/store/timeout-damaged-page",
                     std::ios::binary);
    const std::string input((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    QVERIFY(input.size() > 1000);
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    std::ofstream(path, std::ios::binary) << input.substr(1);  // byte 0: the harness's mode
    const auto start = std::chrono::steady_clock::now();
    try {
      (void)store::Store(path, read_only()).list_experiments();
      QFAIL("listed a damaged history");
    } catch (const IoError& e) {
      QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
      QVERIFY2(std::string(e.what()).find("malformed") != std::string::npos, e.what());
    }
    QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  }

  void read_only_listing_shows_a_dead_writers_run_interrupted() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    {
      store::Store db(path);
      const auto config = testing::tiny_experiment(20, 1);
      const SearchResults plan = Runner(config, load_experiment_data(config)).plan();
      db.begin_experiment(plan);  // "running", and then the writer dies
    }
    sqlite3* raw = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    QCOMPARE(sqlite3_exec(raw, "UPDATE experiments SET writer_start = writer_start + 1", nullptr,
                          nullptr, nullptr),
             SQLITE_OK);
    sqlite3_close(raw);
    const auto list = store::Store(path, read_only()).list_experiments();
    QCOMPARE(list[0].status, std::string("interrupted"));
    QCOMPARE(status_in_file(path), std::string("running"));  // read-only: nothing written
    // Its open attempt is charged its upper bound (every planned job at T), not 0.
    QVERIFY(list[0].epsilon > 0);
    const double bound = list[0].epsilon;
    store::Store db(path);  // read-write: marks it and ends the attempt at that same bound
    QCOMPARE(status_in_file(path), std::string("interrupted"));
    QCOMPARE(db.list_experiments()[0].epsilon, bound);
  }
};

DPLAB_TEST_GUILESS_MAIN(TestStoreOpen)
#include "test_store_open.moc"
