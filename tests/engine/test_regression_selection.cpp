// Issue #42 finding 5: a search scored by loss (regression, reconstruction) is selected on the
// final VALIDATION MSE (lower is better), never on the training loss, an un-noised function of
// the private training set that no epsilon covers. Fabricated searches where the two orders
// disagree (an over-fitting candidate: lowest training loss, worst validation MSE): honest
// selection's best candidate, the winners, the LT draw's metric, the best-of-k table, the
// aggregate curves and times-best, aggregate_curves.csv's metric column, and a private MA
// release all follow the validation MSE; validation "private" is refused for such a search
// before any training (its noise is calibrated to the accuracy). End to end: a job's final
// validation MSE (its last curve point) is the trainer's final validation MSE.
#include <QTest>

#include <cmath>
#include <sstream>

#include "core/error.h"
#include "experiment/experiment_config.h"
#include "release/search_tables.h"
#include "support/expect_error.h"
#include "support/test_registry.h"
#include "training/trainer.h"
#include "tuning/aggregates.h"
#include "tuning/data_checks.h"
#include "tuning/honest_selection.h"
#include "tuning/private_search.h"
#include "tuning/runner.h"
#include "tuning/winners.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

experiment::ExperimentConfig linear_config(const std::string& release = "") {
  return experiment::parse_experiment_text(R"({
    "name": "regression selection",
    "seed": 3, "repeats": 1, "eval_every": 10,
    "dataset": {"source": "synthetic-linear", "num_samples": 400, "dim": 4},
    "model": {"kind": "linear"},
    "privacy": {"noise_multiplier": 1, "lot_size": 40, "steps": 30},
    "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.001, 0.01, 0.1], "clip": 1}}]
    )" + release + "}",
                                           "regression selection");
}

// Three candidates, one repeat, curves at 10 and 20. Training loss order: 0 < 1 < 2 (candidate
// 0 over-fits); validation MSE order: 2 < 1 < 0. Candidate 2 is best at both points.
SearchResults fabricated() {
  SearchResults res;
  res.config = linear_config();
  res.candidates = experiment::expand_candidates(res.config);
  res.mechanism = {1.0, 0.1, 30, 1e-3};
  res.training_size = 400;
  res.validation_size = 100;
  res.is_regression = true;
  const double train_loss[] = {0.01, 0.5, 0.9};
  const double val_mse[] = {3.0, 1.0, 0.4};
  for (int c = 0; c < 3; ++c) {
    JobResult job;
    job.candidate = c;
    job.status = JobStatus::kFinished;
    job.final_val_accuracy = std::numeric_limits<double>::quiet_NaN();
    job.final_train_loss = train_loss[c];
    job.final_val_loss = val_mse[c] / 2;
    for (int it : {10, 20}) {
      training::CurvePoint p;
      p.iteration = it;
      p.train_loss = train_loss[c];
      p.val_accuracy = std::numeric_limits<double>::quiet_NaN();
      p.val_mse = val_mse[c] * (it == 10 ? 1.5 : 1.0);
      job.curve.push_back(p);
    }
    res.jobs.push_back(job);
  }
  return res;
}

}  // namespace

class TestRegressionSelection : public QObject {
  Q_OBJECT
 private slots:
  void honest_selection_uses_the_validation_mse() {
    const SearchResults res = fabricated();
    const SelectionReport r = honest_selection_all(res);
    QCOMPARE(r.best_candidate, 2);
    QCOMPARE(r.best_val_mse, 0.4);
    QCOMPARE(r.best_score, -0.4);
    QCOMPARE(r.best_train_loss, 0.9);  // shown beside it, not selected on
    QCOMPARE(winners_per_optimizer(res), std::vector<int>{2});
    // k = K keeps the best: the lowest validation MSE; k = 1: the mean MSE.
    QCOMPARE(r.protocol.size(), std::size_t{3});
    QCOMPARE(r.protocol.back().mean, 0.4);
    QVERIFY(std::abs(r.protocol.front().mean - (3.0 + 1.0 + 0.4) / 3) < 1e-12);
    // LT reports the validation MSE of its pick.
    const LtRun lt = run_liu_talwar(res, {0, 1, 2}, 0.5, 1e-3, 1);
    const double mse[] = {3.0, 1.0, 0.4};
    QCOMPARE(lt.selected_metric, mse[lt.selected_candidate]);
  }

  void aggregates_and_times_best_use_the_validation_mse() {
    const SearchResults res = fabricated();
    const OptimizerAggregates a = aggregate_optimizer(res, 0);
    QVERIFY(!a.curves.higher_is_better);
    QCOMPARE(a.curves.best_candidate, (std::vector<int>{2, 2}));
    QCOMPARE(a.curves.best, (std::vector<double>{0.4 * 1.5, 0.4}));
    QCOMPARE(a.times_best_per_candidate, (std::vector<int>{0, 0, 2}));
    QCOMPARE(a.winner, 2);
    QCOMPARE(std::string(curve_metric_column(true)), std::string("val_mse"));
    const std::string csv =
        csv::csv_text(release::aggregate_curves_table({a}, curve_metric_column(true)));
    QVERIFY2(csv.find(",val_mse\n") != std::string::npos, csv.c_str());
    QVERIFY2(csv.find("train_loss") == std::string::npos, csv.c_str());
  }

  void private_selection_uses_the_validation_mse() {
    SearchResults res = fabricated();
    res.config = linear_config(R"(, "release": {"mode": "private", "selection": "ma"})");
    const PrivatePlan plan = draw_private_plan(res.config, 3, res.config.seed);
    QCOMPARE(plan.jobs.size(), std::size_t{3});
    const PrivateRelease release = select_private_winners(res, plan, score_noise_seed(3));
    QCOMPARE(release.replicates.size(), std::size_t{1});
    QCOMPARE(release.replicates[0].winner_candidate, 2);
    QCOMPARE(release.replicates[0].released_score, 0.4);  // the MSE, as released
    // A diverged run scores the worst MSE (+inf) and does not win.
    res.jobs[2].status = JobStatus::kDiverged;
    QCOMPARE(select_private_winners(res, plan, 0).replicates[0].winner_candidate, 1);
  }

  void noisy_validation_is_refused_for_a_loss_score() {
    const auto config = linear_config(
        R"(, "release": {"mode": "private", "selection": "ma", "validation": "private",
            "validation_noise_multiplier": 2})");
    const auto data = load_experiment_data(config);
    const QString checked =
        testing::error_of<InvalidArgument>([&] { validate_against_data(config, *data); });
    QVERIFY2(checked.contains("release.validation") && checked.contains("validation MSE"),
             qPrintable(checked));
    const QString runner = testing::error_of<InvalidArgument>([&] { Runner run(config, data); });
    QVERIFY2(runner.contains("release.validation"), qPrintable(runner));
  }

  void final_val_mse_is_the_trainers() {
    const auto config = linear_config();
    const auto data = load_experiment_data(config);
    const auto candidates = experiment::expand_candidates(config);
    for (const auto& c : candidates) {
      const training::TrainingResult run =
          training::train(*data, job_training_config(config, c, 0));
      JobResult job;
      job.status = JobStatus::kFinished;
      job.curve = run.curve;
      QVERIFY(std::isfinite(run.final_validation.mse));
      QCOMPARE(final_val_mse(job), run.final_validation.mse);
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestRegressionSelection)
#include "test_regression_selection.moc"
