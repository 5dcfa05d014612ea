// The run history as browsed (store/run_history.h): data set, epsilon and best score per run from
// the engine's own functions, notes kept in the summaries table (no schema change) and deleted
// with their run, rename with named errors, and a cancelled run listed as resumable — resumed
// through Runner::resume_from + StoreWriter::resume it equals an uninterrupted run. A stored
// summary of the wrong shape is an error naming the history file, the run and the key.
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <bit>
#include <cmath>

#include "core/error.h"
#include "store/run_history.h"
#include "store/store.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/honest_selection.h"
#include "tuning/release_cost.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

// Cancels the run when the `after`-th job ends.
class CancelAfterJobs : public RunListener {
 public:
  CancelAfterJobs(Runner& runner, int after) : runner_(runner), after_(after) {}
  void on_job_finished(const JobResult&) override {
    if (jobs_.fetch_add(1) + 1 == after_) runner_.cancel();
  }

 private:
  Runner& runner_;
  int after_;
  std::atomic<int> jobs_{0};
};

}  // namespace

class TestRunHistory : public QObject {
  Q_OBJECT
 private slots:
  void entriesNotesRenameDelete() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    const auto config = testing::tiny_experiment();
    store::Store db(path);
    SearchResults live;
    std::int64_t id = 0;
    {
      store::StoreWriter writer(db);
      Runner runner(config, load_experiment_data(config), RunOptions{2, true});
      runner.add_listener(&writer);
      live = runner.run();
      id = writer.experiment_id();
    }
    auto list = store::list_history(db);
    QCOMPARE(list.size(), std::size_t{1});
    const store::HistoryEntry& e = list[0];
    QVERIFY2(e.error.empty(), e.error.c_str());
    QCOMPARE(e.record.id, id);
    QCOMPARE(e.dataset, std::string("synthetic-binary"));
    QCOMPARE(e.release, std::string("explore"));
    QCOMPARE(e.epsilon, explore_release_cost(live).epsilon);
    QVERIFY(e.epsilon_label.find("all 10 runs trained") != std::string::npos);
    SelectionOptions options;
    options.run_protocol = false;
    QCOMPARE(e.best_metric, honest_selection_all(live, options).best_accuracy);
    QVERIFY(!e.resumable);
    QVERIFY(e.notes.empty());

    // Without curves: same final numbers, no points.
    const SearchResults light = db.load_results(id, false);
    for (std::size_t i = 0; i < live.jobs.size(); ++i) {
      QVERIFY(light.jobs[i].curve.empty());
      QCOMPARE(light.jobs[i].final_val_accuracy, live.jobs[i].final_val_accuracy);
      QCOMPARE(light.jobs[i].queries, live.jobs[i].queries);
    }

    store::set_run_notes(db, id, "σ = 1 baseline; \"quoted\"\nsecond line");
    QCOMPARE(store::run_notes(db, id), std::string("σ = 1 baseline; \"quoted\"\nsecond line"));
    db.rename_experiment(id, "baseline run");
    list = store::list_history(db);
    QCOMPARE(list[0].record.name, std::string("baseline run"));
    QCOMPARE(list[0].notes, std::string("σ = 1 baseline; \"quoted\"\nsecond line"));
    QCOMPARE(db.load_results(id).config.name, std::string("tiny"));  // what it ran under
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, db.rename_experiment(id, ""));
    try {
      db.rename_experiment(id + 99, "x");
      QFAIL("no error for an unknown run");
    } catch (const IoError& error) {
      QVERIFY(std::string(error.what()).find(std::to_string(id + 99)) != std::string::npos);
    }

    db.delete_experiment(id);
    QVERIFY(store::list_history(db).empty());
    QVERIFY(!db.load_summary(id, "notes"));  // the notes went with the run
  }

  // Stored JSON of the right syntax but the wrong types (a hand edit, another version): the
  // error names the history file, the run and the key - it used to be nlohmann's type_error
  // (notes: swallowed) or a key without the file (released winners). Damaged notes never hide
  // the run in the listing.
  void damagedSummariesNameFileRunAndKey() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    const auto config = testing::tiny_experiment(20, 1);
    store::Store db(path);
    store::StoreWriter writer(db);
    Runner runner(config, load_experiment_data(config), RunOptions{1, true});
    runner.add_listener(&writer);
    runner.run();
    const std::int64_t id = writer.experiment_id();
    auto named = [&](const std::string& message, const std::string& what, const char* key) {
      return message.find(path + " (run " + std::to_string(id) + " " + what + "): ") == 0 &&
             message.find(key) != std::string::npos;
    };

    db.save_summary(id, "notes", R"({"text": 3})");
    try {
      (void)store::run_notes(db, id);
      QFAIL("notes of the wrong type read");
    } catch (const ParseError& e) {
      QVERIFY2(named(e.what(), "notes", "text: "), e.what());
    }
    const auto list = store::list_history(db);
    QCOMPARE(list.size(), std::size_t{1});
    QVERIFY2(list[0].error.empty(), list[0].error.c_str());
    QVERIFY(list[0].notes.empty());

    db.save_summary(id, "private_release", R"({"replicates": "none"})");
    try {
      (void)store::load_private_release(db, id);
      QFAIL("a release of the wrong shape read");
    } catch (const ParseError& e) {
      QVERIFY2(named(e.what(), "released winners", "replicates"), e.what());
    }
    try {
      (void)store::parse_stored_json(db, id, "summary", "{\"epsilon\": ");
      QFAIL("a cut summary parsed");
    } catch (const ParseError& e) {
      QVERIFY2(named(e.what(), "summary", "line 1"), e.what());
    }
  }

  void cancelledRunIsResumable() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    const auto config = testing::tiny_experiment();
    const auto data = load_experiment_data(config);
    const SearchResults plain = Runner(config, data, RunOptions{1, true}).run();
    store::Store db(path);
    std::int64_t id = 0;
    {
      store::StoreWriter writer(db);
      Runner runner(config, data, RunOptions{1, true});
      CancelAfterJobs cancel(runner, 3);
      runner.add_listener(&writer);
      runner.add_listener(&cancel);
      runner.run();
      id = writer.experiment_id();
    }
    auto list = store::list_history(db);
    QCOMPARE(list[0].record.status, std::string("cancelled"));
    QVERIFY(list[0].resumable);
    QVERIFY(list[0].record.jobs_finished < 10);
    // Resume as the GUI and the CLI do.
    const SearchResults earlier = db.load_results(id);
    Runner runner(earlier.config, data, RunOptions{2, true});
    runner.resume_from(earlier);
    store::StoreWriter writer(db);
    writer.resume(id);
    runner.add_listener(&writer);
    const SearchResults resumed = runner.run();
    list = store::list_history(db);
    QCOMPARE(list[0].record.status, std::string("finished"));
    QVERIFY(!list[0].resumable);
    QCOMPARE(list[0].record.jobs_finished, std::int64_t{10});
    const SearchResults stored = db.load_results(id);
    for (std::size_t i = 0; i < plain.jobs.size(); ++i) {
      QCOMPARE(resumed.jobs[i].status, JobStatus::kFinished);
      QCOMPARE(std::bit_cast<std::uint64_t>(stored.jobs[i].final_val_accuracy),
               std::bit_cast<std::uint64_t>(plain.jobs[i].final_val_accuracy));
      QCOMPARE(std::bit_cast<std::uint64_t>(stored.jobs[i].final_train_loss),
               std::bit_cast<std::uint64_t>(plain.jobs[i].final_train_loss));
      QCOMPARE(stored.jobs[i].curve.size(), plain.jobs[i].curve.size());
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestRunHistory)
#include "test_run_history.moc"
