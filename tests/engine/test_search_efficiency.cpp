// tuning::search_efficiency (issue #49): the CPU-time shares of a search from its jobs' step and
// evaluation seconds — by hand on made-up jobs (a kept job is not counted; the outside share is
// what no job used), the errors, and on a real tiny search: every job run reports step and
// evaluation time inside its wall time, and the shares are fractions that add up to 1.
#include <QTest>

#include "core/error.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/runner.h"
#include "tuning/search_efficiency.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

JobResult job(double wall, double steps, double evaluation) {
  JobResult j;
  j.status = JobStatus::kFinished;
  j.wall_seconds = wall;
  j.step_seconds = steps;
  j.evaluation_seconds = evaluation;
  return j;
}

}  // namespace

class TestSearchEfficiency : public QObject {
  Q_OBJECT

 private slots:
  void shares_by_hand() {
    SearchResults r;
    r.jobs = {job(4, 3, 0.5), job(2, 1.5, 0.25), job(7, 0, 0)};  // the last: kept, not run here
    // 2 threads x 5 s = 10 CPU s: steps 4.5, evaluation 0.75, setup 6 - 5.25, outside 10 - 6.
    const SearchEfficiency e = search_efficiency(r, 5, 2);
    QCOMPARE(e.jobs_counted, std::int64_t{2});
    QCOMPARE(e.cpu_seconds, 10.0);
    QCOMPARE(e.dp_step_share, 0.45);
    QCOMPARE(e.evaluation_share, 0.075);
    QVERIFY(std::abs(e.job_setup_share - 0.075) < 1e-12);
    QVERIFY(std::abs(e.outside_jobs_share - 0.4) < 1e-12);
    const std::string text = describe(e);
    QVERIFY2(text.find("2 threads x 5 s") != std::string::npos, text.c_str());
    QVERIFY2(text.find("45.0 % in DP steps") != std::string::npos, text.c_str());
    QVERIFY2(text.find("40.0 % outside the jobs") != std::string::npos, text.c_str());
  }

  void outside_share_never_negative() {
    // Jobs that overlap more than wall x threads (a clock's jitter) leave no negative share.
    SearchResults r;
    r.jobs = {job(3, 2.9, 0.1)};
    const SearchEfficiency e = search_efficiency(r, 2, 1);
    QCOMPARE(e.outside_jobs_share, 0.0);
  }

  void refuses_bad_arguments() {
    const SearchResults r;
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, search_efficiency(r, 0, 1));
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, search_efficiency(r, 1, 0));
  }

  void a_real_search_reports_its_steps() {
    const auto config = testing::tiny_experiment(50, 1);
    Runner runner(config, load_experiment_data(config), RunOptions{1, false});
    const auto started = std::chrono::steady_clock::now();
    const SearchResults results = runner.run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    for (const JobResult& j : results.jobs) {
      QVERIFY(j.step_seconds > 0);
      QVERIFY(j.evaluation_seconds > 0);
      QVERIFY(j.step_seconds + j.evaluation_seconds <= j.wall_seconds);
    }
    QCOMPARE(runner.threads(), 1);
    const SearchEfficiency e = search_efficiency(results, wall, runner.threads());
    QCOMPARE(e.jobs_counted, static_cast<std::int64_t>(results.jobs.size()));
    for (double share :
         {e.dp_step_share, e.evaluation_share, e.job_setup_share, e.outside_jobs_share})
      QVERIFY(share >= 0 && share <= 1);
    QVERIFY(std::abs(e.dp_step_share + e.evaluation_share + e.job_setup_share +
                     e.outside_jobs_share - 1) < 1e-9);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestSearchEfficiency)
#include "test_search_efficiency.moc"
