// Crash safety of the run history: a child process runs a search writing to a database and is
// SIGKILLed mid-run; re-opening shows every job marked finished complete (all its points and
// final metrics) and no partial job counted as finished. Its own executable: the parent must
// not have started oneTBB before fork().
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <thread>

#include "store/store.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {
bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
}  // namespace

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
    // Issue #11 item 8: the writer is gone, so opening marks the run interrupted (it stayed
    // "running" forever before).
    QCOMPARE(list[0].status, std::string("interrupted"));
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

    // Resume: only the missing jobs run, with their own seeds; the result equals an
    // uninterrupted run bit for bit (curves and final metrics), in memory and in the store.
    const auto config = testing::tiny_experiment(kSteps, 2);
    const auto data = load_experiment_data(config);
    std::int64_t resumed_jobs = 0;
    {
      Runner runner(config, data, RunOptions{1, true});
      runner.resume_from(back);
      store::StoreWriter writer(db);
      writer.resume(list[0].id);
      runner.add_listener(&writer);
      struct Count : RunListener {
        std::atomic<std::int64_t>* n;
        void on_job_finished(const JobResult&) override { ++*n; }
      };
      std::atomic<std::int64_t> ran{0};
      Count count;
      count.n = &ran;
      runner.add_listener(&count);
      runner.run();
      QVERIFY(!writer.first_error());
      resumed_jobs = ran.load();
    }
    QCOMPARE(resumed_jobs, 10 - list[0].jobs_finished);
    QCOMPARE(db.list_experiments()[0].status, std::string("finished"));
    const SearchResults resumed = db.load_results(list[0].id);
    const SearchResults full = Runner(config, data, RunOptions{1, true}).run();
    QCOMPARE(resumed.jobs.size(), full.jobs.size());
    for (std::size_t i = 0; i < full.jobs.size(); ++i) {
      const JobResult& a = resumed.jobs[i];
      const JobResult& b = full.jobs[i];
      QVERIFY(a.status == JobStatus::kFinished);
      QCOMPARE(a.seed, b.seed);
      QVERIFY(same_bits(a.final_val_accuracy, b.final_val_accuracy));
      QVERIFY(same_bits(a.final_train_loss, b.final_train_loss));
      QCOMPARE(a.curve.size(), b.curve.size());
      for (std::size_t k = 0; k < a.curve.size(); ++k) {
        QVERIFY(same_bits(a.curve[k].train_loss, b.curve[k].train_loss));
        QVERIFY(same_bits(a.curve[k].val_accuracy, b.curve[k].val_accuracy));
      }
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestStoreCrash)
#include "test_store_crash.moc"
