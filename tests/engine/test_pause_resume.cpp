// Pause / resume of a run (issue #9, "pause / resume of a run"): Runner::pause() holds every job
// before its next optimizer step with its state in memory, Runner::resume() continues it, and the
// results are bit-identical to an uninterrupted run. While paused no step is made (progress does
// not move); cancel() ends a paused run at once, keeping the jobs that had finished.
#include <QTest>

#include <functional>

#include <atomic>
#include <bit>
#include <chrono>
#include <mutex>
#include <thread>

#include "core/pause_gate.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

// Pauses the runner once, from inside a worker, when the `after`-th curve point arrives.
class PauseAfter : public RunListener {
 public:
  PauseAfter(Runner& runner, int after) : runner_(runner), after_(after) {}
  void on_point(const PointEvent&) override {
    if (points_.fetch_add(1) + 1 == after_) {
      runner_.pause();
      paused_.store(true);
    }
  }
  bool paused_once() const { return paused_.load(); }

 private:
  Runner& runner_;
  int after_;
  std::atomic<int> points_{0};
  std::atomic<bool> paused_{false};
};

void wait_until(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!condition() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace

class TestPauseResume : public QObject {
  Q_OBJECT
 private slots:
  void gateBlocksUntilResumed() {
    PauseGate gate;
    QVERIFY(!gate.paused());
    gate.wait_while_paused();  // not paused: returns at once
    gate.pause();
    std::atomic<bool> passed{false};
    std::thread waiter([&] {
      gate.wait_while_paused();
      passed = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    QVERIFY(!passed.load());
    QVERIFY(gate.paused_seconds() >= 0.04);
    gate.resume();
    waiter.join();
    QVERIFY(passed.load());
    const double total = gate.paused_seconds();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    QCOMPARE(gate.paused_seconds(), total);  // not paused: the total no longer grows
  }

  void gateReleasesOnCancel() {
    PauseGate gate;
    std::atomic<bool> cancel{false};
    gate.pause();
    std::atomic<bool> passed{false};
    std::thread waiter([&] {
      gate.wait_while_paused(&cancel);
      passed = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    QVERIFY(!passed.load());
    cancel = true;
    gate.release_waiters();
    waiter.join();
    QVERIFY(passed.load());
    QVERIFY(gate.paused());  // cancelling does not un-pause
  }

  // The main property: pause mid-run, wait, resume: every curve point and final number equals an
  // uninterrupted run of the same experiment, bit for bit; while paused no step is made.
  void pausedRunEqualsUninterrupted() {
    const auto config = testing::tiny_experiment(200, 2);
    const auto data = load_experiment_data(config);
    const SearchResults plain = Runner(config, data, RunOptions{2, true}).run();

    Runner runner(config, data, RunOptions{2, true});
    PauseAfter pauser(runner, 7);
    runner.add_listener(&pauser);
    SearchResults paused_run;
    std::thread worker([&] { paused_run = runner.run(); });
    wait_until([&] { return pauser.paused_once(); });
    QVERIFY(pauser.paused_once());
    QVERIFY(runner.paused());
    // Jobs in flight reach their next step and stop there: the step count settles and stays.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const Progress held = runner.progress();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const Progress later = runner.progress();
    QVERIFY(later.paused);
    QCOMPARE(later.steps_done, held.steps_done);
    QVERIFY(held.steps_done < held.steps_total);  // really held mid-run
    QVERIFY(later.jobs_done < later.jobs_total);
    runner.resume();
    worker.join();
    QVERIFY(!runner.paused());

    QCOMPARE(paused_run.jobs.size(), plain.jobs.size());
    for (std::size_t i = 0; i < plain.jobs.size(); ++i) {
      const JobResult& a = plain.jobs[i];
      const JobResult& b = paused_run.jobs[i];
      QCOMPARE(b.status, JobStatus::kFinished);
      QCOMPARE(b.seed, a.seed);
      QCOMPARE(b.queries, a.queries);
      QVERIFY(same_bits(b.final_val_accuracy, a.final_val_accuracy));
      QVERIFY(same_bits(b.final_val_loss, a.final_val_loss));
      QVERIFY(same_bits(b.final_train_loss, a.final_train_loss));
      QCOMPARE(b.curve.size(), a.curve.size());
      for (std::size_t p = 0; p < a.curve.size(); ++p) {
        QCOMPARE(b.curve[p].iteration, a.curve[p].iteration);
        QVERIFY(same_bits(b.curve[p].train_loss, a.curve[p].train_loss));
        QVERIFY(same_bits(b.curve[p].val_accuracy, a.curve[p].val_accuracy));
        QVERIFY(same_bits(b.curve[p].epsilon, a.curve[p].epsilon));
      }
    }
  }

  void cancelEndsAPausedRun() {
    // 50 steps, a point every 10: 5 points per job. One thread: after 23 points, four jobs have
    // finished and the fifth is held after its third point.
    const auto config = testing::tiny_experiment(50, 2);
    Runner runner(config, load_experiment_data(config), RunOptions{1, true});
    PauseAfter pauser(runner, 23);
    runner.add_listener(&pauser);
    SearchResults results;
    std::thread worker([&] { results = runner.run(); });
    wait_until([&] { return pauser.paused_once(); });
    QVERIFY(runner.paused());
    runner.cancel();
    worker.join();  // returns without resume()
    int finished = 0, cancelled = 0, pending = 0;
    for (const JobResult& job : results.jobs) {
      finished += job.status == JobStatus::kFinished;
      cancelled += job.status == JobStatus::kCancelled;
      pending += job.status == JobStatus::kPending;
    }
    QVERIFY(finished >= 1);
    QCOMPARE(cancelled, 1);  // the job held mid-way
    QCOMPARE(finished + cancelled + pending, static_cast<int>(results.jobs.size()));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestPauseResume)
#include "test_pause_resume.moc"
