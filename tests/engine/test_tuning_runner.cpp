// Runner: bit-identical curves for any thread count; cancellation within one step that keeps
// finished jobs; the RunMonitor sees every point; aggregates and CSV export of a real run.
#include <QTest>

#include <bit>
#include <mutex>
#include <sstream>

#include "release/search_tables.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/aggregates.h"
#include "tuning/run_monitor.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

SearchResults run_tiny(int threads, RunListener* listener = nullptr, int steps = 50) {
  const auto config = testing::tiny_experiment(steps);
  Runner runner(config, load_experiment_data(config), RunOptions{threads, true});
  if (listener) runner.add_listener(listener);
  return runner.run();
}

// Cancels the run after `after` points and records the global step count at that moment.
class CancelAfter : public RunListener {
 public:
  CancelAfter(Runner& runner, int after) : runner_(runner), after_(after) {}
  void on_point(const PointEvent&) override {
    std::lock_guard lock(mutex_);
    if (++points_ == after_) {
      // Cancel first, then count: steps another thread finished between a count taken first and
      // the cancel were counted as "after the cancel" (4 > 2 under ThreadSanitizer's slowdown).
      runner_.cancel();
      steps_at_cancel_ = runner_.progress().steps_done;
    }
  }
  std::int64_t steps_at_cancel() const { return steps_at_cancel_; }

 private:
  Runner& runner_;
  int after_;
  std::mutex mutex_;
  int points_ = 0;
  std::int64_t steps_at_cancel_ = -1;
};

}  // namespace

class TestTuningRunner : public QObject {
  Q_OBJECT
 private slots:
  void deterministic_across_thread_counts() {
    const SearchResults one = run_tiny(1);
    const SearchResults two = run_tiny(2);
    QCOMPARE(one.jobs.size(), std::size_t{10});
    QCOMPARE(two.jobs.size(), one.jobs.size());
    for (std::size_t i = 0; i < one.jobs.size(); ++i) {
      const auto& a = one.jobs[i];
      const auto& b = two.jobs[i];
      QVERIFY(a.status == JobStatus::kFinished && b.status == JobStatus::kFinished);
      QCOMPARE(a.seed, b.seed);
      QCOMPARE(a.curve.size(), std::size_t{5});
      QCOMPARE(b.curve.size(), a.curve.size());
      for (std::size_t k = 0; k < a.curve.size(); ++k) {
        QCOMPARE(a.curve[k].iteration, b.curve[k].iteration);
        QVERIFY(same_bits(a.curve[k].train_loss, b.curve[k].train_loss));
        QVERIFY(same_bits(a.curve[k].val_accuracy, b.curve[k].val_accuracy));
        QVERIFY(same_bits(a.curve[k].val_loss, b.curve[k].val_loss));
        QVERIFY(same_bits(a.curve[k].epsilon, b.curve[k].epsilon));
      }
      QVERIFY(same_bits(a.final_val_accuracy, b.final_val_accuracy));
      QVERIFY(same_bits(a.final_train_loss, b.final_train_loss));
    }
    // Repeats differ (distinct seeds), epsilon grows along a curve.
    QVERIFY(!same_bits(one.jobs[0].curve.back().train_loss, one.jobs[1].curve.back().train_loss));
    QVERIFY(one.jobs[0].curve.front().epsilon < one.jobs[0].curve.back().epsilon);
  }

  void cancel_within_one_step_keeps_finished() {
    const auto config = testing::tiny_experiment(200, 2);  // 20 points per job
    const int threads = 2;
    Runner runner(config, load_experiment_data(config), RunOptions{threads, false});
    CancelAfter cancel(runner, 45);
    RunMonitor monitor;
    runner.add_listener(&cancel);
    runner.add_listener(&monitor);
    const SearchResults results = runner.run();
    QVERIFY(runner.cancel_requested());
    QVERIFY(cancel.steps_at_cancel() >= 0);
    // Each in-flight job (at most one per thread) may finish the step it was in: no more.
    const std::int64_t steps_after = runner.progress().steps_done - cancel.steps_at_cancel();
    QVERIFY2(steps_after <= threads, std::to_string(steps_after).c_str());
    int finished = 0, cancelled = 0, pending = 0;
    for (const auto& job : results.jobs) {
      if (job.status == JobStatus::kFinished) {
        ++finished;
        QCOMPARE(job.curve.size(), std::size_t{20});
        QCOMPARE(job.queries, std::int64_t{200});
      } else if (job.status == JobStatus::kCancelled) {
        ++cancelled;
        QVERIFY(job.queries < 200);
      } else {
        QVERIFY(job.status == JobStatus::kPending);
        QVERIFY(job.curve.empty());
        ++pending;
      }
    }
    QVERIFY(finished >= 1);
    QVERIFY(pending >= 1);
    QVERIFY(cancelled <= threads);
    const MonitorSnapshot snap = monitor.snapshot();
    QVERIFY(snap.finished_run && snap.cancelled);
    QCOMPARE(static_cast<int>(snap.finished.size()), finished + cancelled);
  }

  void monitor_drains_every_point_once() {
    RunMonitor monitor;
    const SearchResults results = run_tiny(2, &monitor);
    MonitorUpdate update = monitor.take_new();
    QCOMPARE(update.new_points.size(), std::size_t{50});
    QCOMPARE(update.new_finished.size(), std::size_t{10});
    QVERIFY(update.finished && !update.cancelled);
    QCOMPARE(update.progress.jobs_done, std::int64_t{10});
    QCOMPARE(update.progress.steps_done, std::int64_t{500});
    QVERIFY(monitor.take_new().new_points.empty());
    const MonitorSnapshot snap = monitor.snapshot();
    QCOMPARE(snap.curves.size(), std::size_t{10});
    QCOMPARE(snap.curves.at({3, 1}).size(), results.job(3, 1).curve.size());
  }

  void plan_is_what_runs() {
    // The GUI draws the plan before the first point arrives: every job pending, with the seed,
    // candidate and repeat it will run with, and the mechanism and sizes of the run.
    const auto config = testing::tiny_experiment(20, 2);
    Runner runner(config, load_experiment_data(config), RunOptions{1, false});
    const SearchResults plan = runner.plan();
    QCOMPARE(plan.jobs.size(), std::size_t{10});  // 5 candidates x 2 repeats
    for (const JobResult& job : plan.jobs) QVERIFY(job.status == JobStatus::kPending);
    const SearchResults done = runner.run();
    QCOMPARE(plan.jobs.size(), done.jobs.size());
    for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
      QCOMPARE(plan.jobs[i].candidate, done.jobs[i].candidate);
      QCOMPARE(plan.jobs[i].repeat, done.jobs[i].repeat);
      QCOMPARE(plan.jobs[i].seed, done.jobs[i].seed);
      QVERIFY(done.jobs[i].status == JobStatus::kFinished);
    }
    QCOMPARE(plan.training_size, done.training_size);
    QCOMPARE(plan.validation_size, done.validation_size);
    QVERIFY(plan.validation_size > 0);
    QCOMPARE(plan.mechanism.sampling_rate, done.mechanism.sampling_rate);
    QCOMPARE(plan.candidates.size(), done.candidates.size());
  }

  void aggregates_and_csv() {
    const SearchResults results = run_tiny(2);
    const auto aggregates = aggregate_all(results);
    QCOMPARE(aggregates.size(), std::size_t{2});
    const OptimizerAggregates& sgd = aggregates[0];
    QCOMPARE(sgd.curves.iterations.size(), std::size_t{5});
    int total = 0;
    for (int t : sgd.grid.times_best) total += t;
    QCOMPARE(total, sgd.eval_points);
    QCOMPARE(sgd.eval_points, 5);
    for (std::size_t i = 0; i < sgd.curves.best.size(); ++i)
      QVERIFY(sgd.curves.best[i] >= sgd.curves.median[i]);
    QCOMPARE(sgd.grid.learning_rates.size(), std::size_t{2});
    QCOMPARE(sgd.grid.clips.size(), std::size_t{2});
    for (double loss : sgd.grid.final_train_loss) QVERIFY(std::isfinite(loss));
    // The grid cell equals the mean over repeats of the candidate's final loss.
    const auto& c0 = results.candidates[0];
    const std::size_t cell = sgd.grid.cell(0, 0);
    QCOMPARE(c0.optimizer.learning_rate, sgd.grid.learning_rates[0]);
    QCOMPARE(sgd.grid.final_train_loss[cell],
             0.5 * (results.job(0, 0).final_train_loss + results.job(0, 1).final_train_loss));

    std::size_t points = 0;
    for (const auto& job : results.jobs) points += job.curve.size();
    const std::string text = csv_text(release::curves_table(results));
    QCOMPARE(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), points + 1);
    QVERIFY(text.rfind("candidate,repeat,optimizer,learning_rate,clip,", 0) == 0);
    const std::string g = csv_text(release::alpha_clip_grid_table(aggregates));
    QCOMPARE(std::count(g.begin(), g.end(), '\n'), 1 + 4 + 1);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestTuningRunner)
#include "test_tuning_runner.moc"
