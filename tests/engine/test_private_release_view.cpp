// What views may show of a private search (engine tuning/private_release_view.h) and the plan's
// cost (release_cost.h planned_release_cost):
//  - grid_shaped_runs lays drawn runs out as the explore grid (a candidate drawn twice gets two
//    repeats, in draw order; undrawn slots pending) and keeps only the runs asked for;
//  - the winners' record survives JSON and a malformed one is refused naming the key;
//  - the CLI and the GUI draw the validation-score noise from the same stream;
//  - the plan's cost equals the cost of the finished run (explore: every run of T queries;
//    private lt: the selection's), so the form's number is the run's number.
#include <QTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/random.h"
#include "support/expect_error.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/private_release_view.h"
#include "tuning/release_cost.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

// Three candidates, four drawn runs: candidates 2, 0, 2, 1 with accuracies .5 .6 .9 .7.
SearchResults drawn_runs() {
  SearchResults r;
  r.config = testing::tiny_experiment();
  r.config.release.mode = experiment::ReleaseMode::kPrivate;
  r.config.release.selection = experiment::PrivateSelection::kLt;
  r.candidates = experiment::expand_candidates(r.config);
  r.candidates.resize(3);
  const int drawn[] = {2, 0, 2, 1};
  const double accuracy[] = {0.5, 0.6, 0.9, 0.7};
  for (int i = 0; i < 4; ++i) {
    JobResult job;
    job.candidate = drawn[i];
    job.repeat = i;
    job.status = JobStatus::kFinished;
    job.final_val_accuracy = accuracy[i];
    training::CurvePoint point;
    point.iteration = 10;
    point.val_accuracy = accuracy[i];
    job.curve.push_back(point);
    r.jobs.push_back(job);
  }
  return r;
}

}  // namespace

class TestPrivateReleaseView : public QObject {
  Q_OBJECT
 private slots:
  void grid_of_every_run_and_of_the_winner() {
    const SearchResults runs = drawn_runs();
    const SearchResults all = grid_shaped_runs(runs, trained_jobs(runs));
    QCOMPARE(all.config.repeats, 2);  // candidate 2 was drawn twice
    QCOMPARE(all.jobs.size(), std::size_t{6});
    QCOMPARE(all.job(2, 0).final_val_accuracy, 0.5);  // draw order kept
    QCOMPARE(all.job(2, 1).final_val_accuracy, 0.9);
    QCOMPARE(all.job(0, 0).final_val_accuracy, 0.6);
    QVERIFY(all.job(0, 1).status == JobStatus::kPending);
    QCOMPARE(all.job(1, 0).final_val_accuracy, 0.7);
    QCOMPARE(all.job(2, 1).repeat, 1);
    QCOMPARE(all.config.release.mode, experiment::ReleaseMode::kPrivate);

    PrivateRelease release;
    ReplicateRelease rep;
    rep.runs_trained = 4;
    rep.complete = true;
    rep.winner_job = 2;
    rep.winner_candidate = 2;
    rep.released_score = 0.9;
    release.replicates.push_back(rep);
    const SearchResults winner = grid_shaped_runs(runs, released_jobs(release));
    int shown = 0;
    for (const auto& job : winner.jobs) shown += job.status != JobStatus::kPending;
    QCOMPARE(shown, 1);
    QCOMPARE(winner.job(2, 0).final_val_accuracy, 0.9);
    // At least R = 2 rows (the release's replicate searches), so that the grid's epsilon still
    // composes both replicates (issue #23 item 6; test_release_replicates checks the epsilon).
    QCOMPARE(winner.config.repeats, 2);
    // Nothing released while a search runs: an all-pending grid.
    const SearchResults none = grid_shaped_runs(runs, {});
    for (const auto& job : none.jobs) QVERIFY(job.status == JobStatus::kPending);
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, grid_shaped_runs(runs, {4}));
  }

  void release_record_round_trip() {
    PrivateRelease release;
    for (int r = 0; r < 2; ++r) {
      ReplicateRelease rep;
      rep.runs_trained = 3 + r;
      rep.complete = r == 0;
      rep.winner_job = r == 0 ? 1 : -1;
      rep.winner_candidate = r == 0 ? 4 : -1;
      rep.released_score = r == 0 ? 0.8125 : 0.0;
      rep.hit_hard_stop = r == 1;
      release.replicates.push_back(rep);
    }
    release.runs_trained = 7;
    release.released = 1;
    release.mean_score = 0.8125;
    release.ci_low = release.ci_high = std::numeric_limits<double>::quiet_NaN();
    const PrivateRelease back = parse_private_release(private_release_json(release));
    QCOMPARE(back.replicates.size(), std::size_t{2});
    QCOMPARE(back.replicates[0].winner_job, std::int64_t{1});
    QCOMPARE(back.replicates[0].winner_candidate, 4);
    QCOMPARE(back.replicates[0].released_score, 0.8125);
    QCOMPARE(back.replicates[1].complete, false);
    QCOMPARE(back.replicates[1].hit_hard_stop, true);
    QCOMPARE(back.runs_trained, std::int64_t{7});
    QVERIFY(std::isnan(back.ci_low));
    nlohmann::json broken = private_release_json(release);
    broken["replicates"][1].erase("winner_job");
    try {
      parse_private_release(broken);
      QFAIL("no error");
    } catch (const ParseError& e) {
      QVERIFY2(std::string(e.what()).find("replicates[1].winner_job") != std::string::npos,
               e.what());
    }
    // A candidate index beyond an int is refused, not truncated (2^32 + 4 used to read as 4).
    nlohmann::json wide = private_release_json(release);
    wide["replicates"][0]["winner_candidate"] = 4294967300LL;
    const QString wide_error = testing::error_of<ParseError>([&] { parse_private_release(wide); });
    QVERIFY2(
        wide_error.startsWith("private_release.replicates[0].winner_candidate: must be between"),
        qPrintable(wide_error));
  }

  void a_private_search_that_drew_nothing_trains_nothing() {
    auto config = testing::tiny_experiment();
    config.release.mode = experiment::ReleaseMode::kPrivate;
    config.release.selection = experiment::PrivateSelection::kPs;
    Runner runner(config, load_experiment_data(config), RunOptions{2, false});  // empty plan
    QCOMPARE(runner.total_jobs(), std::int64_t{0});
    QVERIFY(runner.run().jobs.empty());
  }

  void score_noise_stream_is_shared() {
    // "SCOR" = 0x53434F52: the stream the CLI used before it moved into the engine.
    QCOMPARE(score_noise_seed(42), derive_seed(42, 0x53434F52));
    QVERIFY(score_noise_seed(42) != score_noise_seed(43));
  }

  void planned_cost_equals_the_finished_run() {
    auto config = testing::tiny_experiment();
    const auto data = load_experiment_data(config);
    Runner runner(config, data, RunOptions{2, false});
    const SearchResults done = runner.run();
    const ReleaseCost planned =
        planned_release_cost(config, data->train.size(), data->validation.size());
    const ReleaseCost actual = release_cost(done);
    QCOMPARE(planned.epsilon, actual.epsilon);
    QCOMPARE(planned.runs_charged, std::int64_t{10});
    QCOMPARE(epsilon_label(planned), epsilon_label(actual));
    config.release.mode = experiment::ReleaseMode::kPrivate;
    config.release.selection = experiment::PrivateSelection::kLt;
    SearchResults as_private = done;
    as_private.config = config;
    QCOMPARE(planned_release_cost(config, data->train.size(), 0).epsilon,
             private_release_cost(as_private).epsilon);
    QVERIFY(epsilon_csv_label(actual).rfind("eps <= ", 0) == 0);
    QVERIFY(epsilon_csv_label(actual).find("; accountant: rdp; eps rounded up to 2 decimals") !=
            std::string::npos);
  }
};

DPLAB_TEST_GUILESS_MAIN(TestPrivateReleaseView)
#include "test_private_release_view.moc"
