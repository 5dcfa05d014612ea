// Divergence is decided from the parameters only (issue #23 item 5), and selection scores a
// diverged run as the worst score instead of voiding it:
//   - training::diverged_parameters: a non-finite entry or ||theta|| > 1e15, nothing else;
//   - the trainer does not stop a run whose parameters are fine because a loss is not finite (a
//     validation record overflowing the loss made the run "diverged" — a decision that depended
//     on un-noised private data and was charged nowhere);
//   - honest selection counts a diverged repeat as accuracy 0 (not dropped from the mean), and
//     LT draws it like any other run;
//   - a private release keeps a replicate with a diverged run (scored 0) instead of voiding it.
#include <QTest>
#include <cmath>
#include <limits>

#include "core/random.h"
#include "data/dataset.h"
#include "optim/optimizer.h"
#include "support/test_registry.h"
#include "training/trainer.h"
#include "tuning/honest_selection.h"
#include "tuning/private_search.h"
#include "tuning/results.h"

using namespace dplab;
using tuning::JobResult;
using tuning::JobStatus;

namespace {

// n rows of 2 uniform features, binary label [x0 > 0.5].
data::Dataset separable(Index n, std::uint64_t seed) {
  Rng rng(seed);
  data::Dataset d;
  d.name = "separable";
  d.features.resize(n, 2);
  d.targets.resize(n);
  for (Index i = 0; i < n; ++i) {
    d.features(i, 0) = static_cast<float>(rng.uniform());
    d.features(i, 1) = static_cast<float>(rng.uniform());
    d.targets[i] = d.features(i, 0) > 0.5f ? 1.f : 0.f;
  }
  d.num_classes = 2;
  return d;
}

JobResult job(int candidate, int repeat, JobStatus status, double accuracy, double train_loss) {
  JobResult j;
  j.candidate = candidate;
  j.repeat = repeat;
  j.status = status;
  j.final_val_accuracy = accuracy;
  j.final_train_loss = train_loss;
  if (status == JobStatus::kFinished) {  // the final curve point (regression scores its val_mse)
    training::CurvePoint end;
    end.val_mse = train_loss;
    j.curve.push_back(end);
  }
  return j;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

class TestDivergenceFromParameters : public QObject {
  Q_OBJECT

 private slots:
  void parameterRule() {
    Vector params(3);
    params << 1.f, -2.f, 3.f;
    QVERIFY(training::diverged_parameters(params).empty());
    params[1] = std::numeric_limits<float>::quiet_NaN();
    QVERIFY(!training::diverged_parameters(params).empty());
    params[1] = std::numeric_limits<float>::infinity();
    QVERIFY(!training::diverged_parameters(params).empty());
    params << 1e15f, 1e14f, 0.f;  // norm 1.005e15 > 1e15
    QVERIFY(!training::diverged_parameters(params).empty());
    params << 7e14f, 7e14f, 0.f;  // norm 9.9e14 <= 1e15
    QVERIFY(training::diverged_parameters(params).empty());
  }

  void aNonFiniteLossDoesNotEndARunWithFiniteParameters() {
    // One validation record has x0 = +inf: its loss is not finite whatever the (finite) model,
    // so the validation loss is not finite at every curve point. The parameters never see it.
    data::TrainValidationSplit data{separable(200, 1), separable(20, 2)};
    data.validation.features(3, 0) = std::numeric_limits<float>::infinity();
    training::TrainingConfig config;
    config.model.kind = models::ModelKind::kLogisticRegression;
    config.optimizer = optim::default_spec(optim::OptimizerKind::kDpSgd);
    config.optimizer.learning_rate = 0.5;
    config.dp = {1.0, 1.0, 20.0};
    config.steps = 50;
    config.eval_every = 10;
    config.seed = 3;
    const training::TrainingResult result = training::train(data, config);
    QVERIFY(!std::isfinite(result.curve.front().val_loss));  // the loss is indeed not finite
    QVERIFY2(!result.diverged, result.divergence.c_str());
    QCOMPARE(result.queries, std::int64_t{50});
    QCOMPARE(result.curve.size(), std::size_t{5});
  }

  void aRunWithNonFiniteParametersDiverges() {
    data::TrainValidationSplit data{separable(200, 1), separable(20, 2)};
    training::TrainingConfig config;
    config.optimizer = optim::default_spec(optim::OptimizerKind::kDpSgd);
    config.optimizer.learning_rate = 1e300;  // +inf as a float step
    config.dp = {1.0, 1.0, 20.0};
    config.steps = 50;
    config.eval_every = 10;
    const training::TrainingResult result = training::train(data, config);
    QVERIFY(result.diverged);
    QVERIFY2(result.divergence.find("parameters") != std::string::npos, result.divergence.c_str());
    QVERIFY(result.queries < 50);
  }

  void honestSelectionScoresADivergedRepeatAsTheWorst() {
    // Candidate 0: repeats 0.9 and diverged => mean 0.45 (voiding the diverged repeat gave 0.9).
    // Candidate 1: 0.6 and 0.6 => 0.6 wins.
    tuning::SearchResults results;
    results.config.repeats = 2;
    results.jobs = {
        job(0, 0, JobStatus::kFinished, 0.9, 0.2), job(0, 1, JobStatus::kDiverged, kNaN, kNaN),
        job(1, 0, JobStatus::kFinished, 0.6, 0.5), job(1, 1, JobStatus::kFinished, 0.6, 0.5)};
    const auto scores = tuning::score_candidates(results, {0, 1});
    QCOMPARE(scores.size(), std::size_t{2});
    QCOMPARE(scores[0].repeats_finished, 2);
    QCOMPARE(scores[0].mean_final_accuracy, 0.45);
    QCOMPARE(tuning::best_score(scores)->candidate, 1);
    // Regression: the diverged repeat's validation MSE (and training loss) is +inf, the worst.
    results.is_regression = true;
    const auto regression = tuning::score_candidates(results, {0, 1});
    QVERIFY(std::isinf(regression[0].mean_final_val_mse));
    QVERIFY(std::isinf(regression[0].mean_final_train_loss));
    QCOMPARE(tuning::best_score(regression)->candidate, 1);
    // LT draws from all scored runs, the diverged one included: with only candidate 0 in the
    // pool and gamma = 1 (one draw), some seed draws the diverged repeat and reports accuracy 0.
    results.is_regression = false;
    bool drew_diverged = false;
    for (std::uint64_t seed = 0; seed < 64 && !drew_diverged; ++seed) {
      const auto lt = tuning::run_liu_talwar(results, {0}, 1.0, 1e-3, seed);
      QCOMPARE(lt.selected_candidate, 0);
      drew_diverged = lt.selected_metric == 0.0;
    }
    QVERIFY(drew_diverged);
  }

  void privateReleaseKeepsAReplicateWithADivergedRun() {
    // One replicate, three runs: 0.7, diverged, 0.8. The replicate releases 0.8 (it was voided:
    // "incomplete", nothing released). A replicate whose only run diverged releases accuracy 0.
    tuning::SearchResults results;
    results.config.repeats = 1;
    results.config.release.mode = experiment::ReleaseMode::kPrivate;
    results.config.release.validation = experiment::ValidationAssumption::kPublic;
    results.validation_size = 100;
    results.jobs = {
        job(0, 0, JobStatus::kFinished, 0.7, 0.3), job(1, 1, JobStatus::kDiverged, kNaN, kNaN),
        job(2, 2, JobStatus::kFinished, 0.8, 0.2), job(1, 3, JobStatus::kDiverged, kNaN, kNaN)};
    tuning::PrivatePlan plan;
    plan.replicates.push_back({{0, 1, 2}, 0, false});
    plan.replicates.push_back({{1}, 3, false});
    const auto release = tuning::select_private_winners(results, plan, 1);
    QVERIFY(release.replicates[0].complete);
    QCOMPARE(release.replicates[0].winner_candidate, 2);
    QCOMPARE(release.replicates[0].released_score, 0.8);
    QVERIFY(release.replicates[1].complete);
    QCOMPARE(release.replicates[1].winner_candidate, 1);
    QCOMPARE(release.replicates[1].released_score, 0.0);
    QCOMPARE(release.released, 2);
    QCOMPARE(release.mean_score, 0.4);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestDivergenceFromParameters)
#include "test_divergence_from_parameters.moc"
