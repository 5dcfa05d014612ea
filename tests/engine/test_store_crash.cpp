// Crash safety of the run history: a child process runs a search writing to a database and is
// SIGKILLed mid-run; re-opening shows every job marked finished complete (all its points and
// final metrics) and no partial job counted as finished. Its own executable: the parent must
// not have started oneTBB before fork().
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "store/store.h"
#include "support/tiny_experiment.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

class TestStoreCrash : public QObject {
  Q_OBJECT
 private slots:
  void kill_mid_run() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    // 2,000 points per job, 10 jobs: each job takes long enough (~0.1 s) that the parent sees
    // two committed jobs and kills the child well before the tenth, even on an idle machine.
    constexpr int kSteps = 20000;
    const pid_t child = fork();
    QVERIFY(child >= 0);
    if (child == 0) {
      try {
        const auto config = testing::tiny_experiment(kSteps, 2);
        store::Store db(path);
        store::StoreWriter writer(db);
        Runner runner(config, load_experiment_data(config), RunOptions{1, true});
        runner.add_listener(&writer);
        runner.run();
      } catch (...) {
        _exit(3);
      }
      _exit(0);
    }
    // Wait until at least two jobs are committed, then kill the child without warning.
    bool killed = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      try {
        store::Store db(path);
        const auto list = db.list_experiments();
        if (!list.empty() && list[0].jobs_finished >= 2) {
          kill(child, SIGKILL);
          killed = true;
          break;
        }
      } catch (const std::exception&) {
        // The child may be creating the schema right now.
      }
    }
    int status = 0;
    waitpid(child, &status, 0);
    QVERIFY2(killed, "the child never committed two jobs");
    QVERIFY(WIFSIGNALED(status));

    store::Store db(path);
    const auto list = db.list_experiments();
    QCOMPARE(list.size(), std::size_t{1});
    QCOMPARE(list[0].status, std::string("running"));  // never finished
    QVERIFY(list[0].jobs_finished >= 2);
    QVERIFY(list[0].jobs_finished < 10);  // killed mid-run
    const SearchResults back = db.load_results(list[0].id);
    int finished = 0;
    for (const auto& job : back.jobs) {
      if (job.status == JobStatus::kFinished) {
        ++finished;
        QCOMPARE(job.curve.size(), std::size_t{kSteps / 10});
        QCOMPARE(job.curve.back().iteration, std::int64_t{kSteps});
        QCOMPARE(job.queries, std::int64_t{kSteps});
        QVERIFY(std::isfinite(job.final_val_accuracy));
      } else {
        QVERIFY(job.status == JobStatus::kPending);
        QVERIFY(job.curve.empty());
      }
    }
    QCOMPARE(static_cast<std::int64_t>(finished), list[0].jobs_finished);
  }
};

QTEST_APPLESS_MAIN(TestStoreCrash)
#include "test_store_crash.moc"
