// Guards against silent failure (issue #45, training/training_guards.h):
//   - lot sizes: a correct Poisson sampler's realised lots never trip the Bernstein bound (400
//     seeded runs of 200 lots), lots drawn at q / 45,000 (Opacus's off-by-45,000 rate) or at
//     1.1 q over 2,000 lots do, and a tiny q n with few lots (low power) does not false-alarm;
//   - frozen parameters: a logistic model at learning rate 1e-25, a TLNN at 1e-12 and a run
//     whose every gradient is clipped to ~0 (C = 1e-30) each end with the warning; a normal run
//     of each model ends with no warning at all (both guards silent).
#include <QTest>
#include <string>
#include <vector>

#include "core/random.h"
#include "data/dataset.h"
#include "optim/optimizer.h"
#include "privacy/mechanisms/poisson_sampler.h"
#include "support/random_batch.h"
#include "support/test_registry.h"
#include "training/trainer.h"
#include "training/training_guards.h"

using namespace dplab;

namespace {

// Sum of `lots` Poisson lots of n examples at rate q.
double lot_rows(Index n, double q, std::int64_t lots, std::uint64_t seed) {
  const privacy::PoissonSampler sampler(n, q);
  Rng rng(seed);
  std::vector<Index> lot;
  double rows = 0;
  for (std::int64_t t = 0; t < lots; ++t) {
    sampler.sample(rng, lot);
    rows += static_cast<double>(lot.size());
  }
  return rows;
}

training::TrainingConfig config_for(models::ModelKind kind, double learning_rate, double clip) {
  training::TrainingConfig config;
  config.model.kind = kind;
  config.model.hidden_units = 8;
  config.optimizer = optim::default_spec(optim::OptimizerKind::kDpSgd);
  config.optimizer.learning_rate = learning_rate;
  config.dp = {clip, 1.0, 20.0};
  config.steps = 60;
  config.eval_every = 20;
  config.seed = 5;
  return config;
}

std::string joined(const std::vector<std::string>& warnings) {
  std::string out;
  for (const auto& w : warnings) out += w + "\n";
  return out;
}

}  // namespace

class TrainingGuardsTest : public QObject {
  Q_OBJECT

 private slots:
  void correctSamplerNeverWarns() {
    const Index n = 1000;
    const double q = 0.05;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
      const std::string w =
          training::lot_size_drift_warning(200, lot_rows(n, q, 200, seed), double(n), q);
      QVERIFY2(w.empty(), w.c_str());
    }
    // q = 1: every lot is the whole set, exactly.
    QVERIFY(training::lot_size_drift_warning(30, 30.0 * n, double(n), 1.0).empty());
  }

  void wrongRateWarns() {
    const Index n = 60000;
    const double q = 256.0 / 60000;
    // Lots sampled at q / 45,000 while the accountant charges q: almost every lot is empty.
    const std::string off = training::lot_size_drift_warning(100, lot_rows(n, q / 45000, 100, 1),
                                                             static_cast<double>(n), q);
    QVERIFY(!off.empty());
    QVERIFY2(off.find("expects q n = ") != std::string::npos, off.c_str());
    // A 10% drift is found given enough lots: 2,000 lots of mean 256 have sd 0.36 on the mean.
    const std::string drift = training::lot_size_drift_warning(2000, lot_rows(n, 1.1 * q, 2000, 2),
                                                               static_cast<double>(n), q);
    QVERIFY2(!drift.empty(), "a 10% drift over 2,000 lots went unnoticed");
    // ... but not from 2 lots (the bound is 6 (1 + sqrt(1 + V)) / T ~ 71 rows), no false alarm.
    QVERIFY(training::lot_size_drift_warning(2, 2 * 1.1 * 256, static_cast<double>(n), q).empty());
    // Tiny q n, few lots, every lot empty: within the bound (Bernstein, not the normal tail).
    QVERIFY(training::lot_size_drift_warning(10, 0, 100, 0.01).empty());
  }

  void frozenParameterRule() {
    Vector before(3), after(3);
    before << 1.f, -0.5f, 0.f;
    after = before;
    QVERIFY(!training::frozen_parameters_warning(before, after, 10).empty());
    after[2] = 1e-9f;  // below the unit-scale resolution 2^-23 ~ 1.2e-7
    QVERIFY(!training::frozen_parameters_warning(before, after, 10).empty());
    after[2] = 1e-6f;  // above it: that coordinate trained
    QVERIFY(training::frozen_parameters_warning(before, after, 10).empty());
    QVERIFY(training::frozen_parameters_warning(before, before, 0).empty());  // no step taken
  }

  void frozenRunsWarn_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("learning_rate");
    QTest::addColumn<double>("clip");
    QTest::newRow("logistic, lr 1e-25")
        << int(models::ModelKind::kLogisticRegression) << 1e-25 << 1.0;
    QTest::newRow("tlnn, lr 1e-12") << int(models::ModelKind::kTwoLayerNetwork) << 1e-12 << 1.0;
    QTest::newRow("logistic, C 1e-30")
        << int(models::ModelKind::kLogisticRegression) << 0.5 << 1e-30;
  }

  void frozenRunsWarn() {
    QFETCH(int, kind);
    QFETCH(double, learning_rate);
    QFETCH(double, clip);
    const data::TrainValidationSplit data{testing::random_dataset(400, 3, 2, 1),
                                          testing::random_dataset(50, 3, 2, 2)};
    const auto result = training::train(
        data, config_for(static_cast<models::ModelKind>(kind), learning_rate, clip));
    QVERIFY(!result.diverged && !result.cancelled);
    QCOMPARE(result.warnings.size(), std::size_t{1});
    QVERIFY2(result.warnings[0].find("no parameter moved") != std::string::npos,
             result.warnings[0].c_str());
  }

  void normalRunsDoNotWarn_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("logistic") << int(models::ModelKind::kLogisticRegression);
    QTest::newRow("tlnn") << int(models::ModelKind::kTwoLayerNetwork);
  }

  void normalRunsDoNotWarn() {
    QFETCH(int, kind);
    const data::TrainValidationSplit data{testing::random_dataset(400, 3, 2, 1),
                                          testing::random_dataset(50, 3, 2, 2)};
    const auto result =
        training::train(data, config_for(static_cast<models::ModelKind>(kind), 0.5, 1.0));
    QVERIFY(!result.diverged);
    QVERIFY2(result.warnings.empty(), joined(result.warnings).c_str());
  }
};

DPLAB_TEST_APPLESS_MAIN(TrainingGuardsTest)
#include "test_training_guards.moc"
