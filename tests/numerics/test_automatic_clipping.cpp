// Automatic clipping (Bu, Wang, Zha & Karypis 2023, AUTO-S; models/clipping.h): every model's
// clipped sum under Clipping{C = 1, automatic, gamma} equals sum_i g_i / (||g_i|| + gamma)
// computed by hand from the per-example gradients g_i (single-row, unclipped calls, in double),
// for logistic regression, the two-layer network and the built-in conv net (the three
// clip-factor paths), with every contribution of true norm < 1 (sensitivity 1) even with the
// float error in ||g_i||; a diverged (non-finite) example is dropped, not scaled; batch-parallel
// models agree. The oracle's noise under automatic clipping is DP-SGD's at C = 1 (sigma * 1 on
// the sum: the same draws as flat clipping at C = 1 with the same seed), and the adaptive
// queries refuse it.
#include <QTest>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "core/error.h"
#include "dp_gradient/noisy_gradient.h"
#include "engine/quadratic_test_model.h"
#include "models/batch_parallel_model.h"
#include "models/clipping.h"
#include "models/model.h"
#include "optim/optimizer.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/per_example_gradients.h"
#include "support/random_batch.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

constexpr double kGamma = 0.01;
const models::Clipping kAutomatic{1.0, models::ClippingMode::kAutomatic, kGamma};

std::unique_ptr<models::Model> make(models::ModelKind kind, Index d, int classes) {
  models::ModelSpec spec;
  spec.kind = kind;
  spec.hidden_units = 6;
  auto model = models::make_model(spec, d, classes);
  model->initialize(17);
  if (kind == models::ModelKind::kLogisticRegression) {
    // Zero weights give every row the same small gradient; random ones spread the norms.
    Rng rng(5);
    for (Index j = 0; j < model->num_params(); ++j)
      model->params()[j] = static_cast<float>(2 * rng.uniform() - 1);
  }
  return model;
}

struct Case {
  models::ModelKind kind;
  Index dim;
  int classes;
};

}  // namespace

class TestAutomaticClipping : public QObject {
  Q_OBJECT

 private slots:
  void theRule() {
    // c(n) = C (1 - 1e-5) / (n + gamma): the float margin of flat clipping, kept.
    QCOMPARE(kAutomatic.factor(0.0), (1 - 1e-5) / kGamma);
    QCOMPARE(kAutomatic.factor(3.0), (1 - 1e-5) / 3.01);
    QCOMPARE(kAutomatic.factor(std::numeric_limits<double>::infinity()), 0.0);
    QCOMPARE(kAutomatic.factor(std::numeric_limits<double>::quiet_NaN()), 0.0);
    QVERIFY(kAutomatic.needs_norms());
    // True norm of every contribution <= 1 when the float norm is off by up to 1e-6 relative,
    // over twelve decades of norms.
    for (double n = 1e-6; n < 1e6; n *= 1.37) {
      for (double err : {-1e-6, 0.0, 1e-6}) {
        QVERIFY(kAutomatic.factor(n * (1 + err)) * n < 1.0);
      }
    }
    QCOMPARE(models::parse_clipping_mode("automatic"), models::ClippingMode::kAutomatic);
    QCOMPARE(models::to_string(models::ClippingMode::kFlat), std::string("flat"));
    QVERIFY(testing::error_of<InvalidArgument>([] {
              models::parse_clipping_mode("auto");
            }).contains("unknown clipping \"auto\""));
  }

  void clippedSumIsTheNormalisedSum_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("dim");
    QTest::addColumn<int>("classes");
    QTest::newRow("logistic") << static_cast<int>(models::ModelKind::kLogisticRegression) << 6 << 2;
    QTest::newRow("tlnn") << static_cast<int>(models::ModelKind::kTwoLayerNetwork) << 5 << 3;
    QTest::newRow("cnn") << static_cast<int>(models::ModelKind::kCnn) << 784 << 10;
  }
  void clippedSumIsTheNormalisedSum() {
    QFETCH(int, kind);
    QFETCH(int, dim);
    QFETCH(int, classes);
    auto model = make(static_cast<models::ModelKind>(kind), dim, classes);
    auto batch = testing::random_batch(12, dim, classes, 23);
    batch.x.row(3) *= 40.f;  // one large gradient among the small ones
    const auto g = testing::per_example_gradients(*model, batch.x, batch.y);
    Vector sum(model->num_params()), norms(batch.x.rows());
    model->clipped_gradient_sum(batch.x, batch.y, kAutomatic, sum, norms);
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(model->num_params());
    double term_scale = 0;  // float rounding scales with the terms, not their sum
    for (std::size_t i = 0; i < g.size(); ++i) {
      const double n = g[i].norm();
      DPLAB_COMPARE_REL(norms[static_cast<Index>(i)], n, 1e-4);
      expected += g[i] / (n + kGamma);  // AUTO-S by hand
      term_scale += n / (n + kGamma);
      // Each contribution, at the factor the model used (from its float norm), has norm < 1.
      QVERIFY(kAutomatic.factor(norms[static_cast<Index>(i)]) * n < 1.0);
    }
    const double error = (sum.cast<double>() - expected).norm();
    // 1e-5 is the float margin (every factor is 1 - 1e-5 of the exact one), 2e-5 the rest.
    QVERIFY2(error <= 3e-5 * term_scale,
             qPrintable(QString("clipped sum off by %1 (terms %2)").arg(error).arg(term_scale)));
    // Flat clipping at C = 1 is a different sum (this batch has norms above and below 1).
    Vector flat(model->num_params());
    model->clipped_gradient_sum(batch.x, batch.y, 1.0, flat, norms);
    QVERIFY((flat - sum).norm() > 1e-3 * flat.norm());
  }

  void aDivergedExampleIsDropped() {
    auto model = make(models::ModelKind::kLogisticRegression, 4, 2);
    auto batch = testing::random_batch(5, 4, 2, 3);
    Vector expected(model->num_params()), sum(model->num_params()), norms(5);
    model->clipped_gradient_sum(batch.x.topRows(4), batch.y.head(4), kAutomatic, expected,
                                norms.head(4));
    // Row 4 diverged: its gradient's entries are finite (~1e25) but its squared norm overflows
    // the float kernels (1e50 > 3.4e38), so ||g_4|| = inf and the example is dropped (c_4 = 0).
    batch.x.row(4).setConstant(1e25f);
    model->clipped_gradient_sum(batch.x, batch.y, kAutomatic, sum, norms);
    QVERIFY(!std::isfinite(norms[4]));
    QVERIFY(sum.allFinite());
    QVERIFY((sum - expected).norm() <= 1e-6 * expected.norm());
  }

  void batchParallelAgrees() {
    auto model = make(models::ModelKind::kTwoLayerNetwork, 5, 3);
    models::BatchParallelModel parallel(*model, 2);
    auto batch = testing::random_batch(40, 5, 3, 8);
    Vector one(model->num_params()), two(model->num_params()), n1(40), n2(40);
    model->clipped_gradient_sum(batch.x, batch.y, kAutomatic, one, n1);
    parallel.clipped_gradient_sum(batch.x, batch.y, kAutomatic, two, n2);
    QVERIFY((one - two).norm() <= 1e-5 * one.norm());
  }

  void rulesAreChecked() {
    auto model = make(models::ModelKind::kLogisticRegression, 4, 2);
    auto batch = testing::random_batch(3, 4, 2, 3);
    Vector sum(model->num_params()), norms(3);
    const models::Clipping no_gamma{1.0, models::ClippingMode::kAutomatic, 0.0};
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              model->clipped_gradient_sum(batch.x, batch.y, no_gamma, sum, norms);
            }).contains("clip_stability = 0 must be > 0"));
    const models::Clipping no_clip{models::kNoClipping, models::ClippingMode::kAutomatic, kGamma};
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              model->clipped_gradient_sum(batch.x, batch.y, no_clip, sum, norms);
            }).contains("finite clip"));
  }

  void oracleNoiseIsDpSgdsAtCOne() {
    // Same data, parameters and seed: flat clipping at C = 1 and automatic clipping draw the
    // same lots and the same noise N(0, (sigma * 1 / L)^2), so release - S / L is identical:
    // the noise (and so the accountant's sigma) is DP-SGD's at sensitivity 1.
    const Index d = 3;
    Matrix x(6, d);
    x << 1, 2, -1, 3, 0, 1, -2, 1, 0.5, 0, 0, 4, 1, 1, 1, -3, 2, 0;
    const data::Dataset train = testing::make_points(x);
    testing::QuadraticTestModel model(d);
    model.params() << 0.5f, -1.0f, 2.0f;
    privacy::DpSettings flat{1.0, 1.5, 3.0};
    privacy::DpSettings automatic = flat;
    automatic.clipping = models::ClippingMode::kAutomatic;
    automatic.clip_stability = kGamma;
    privacy::NoisyGradientOracle a(train, model, flat, 77), b(train, model, automatic, 77);
    QCOMPARE(b.noise_std_of_mean(), 1.5 * 1.0 / 3.0);
    QCOMPARE(b.noise_std_of_mean(), a.noise_std_of_mean());
    QCOMPARE(b.sampling_rate(), a.sampling_rate());
    a.keep_last_release(true);
    b.keep_last_release(true);
    Vector ga(d), gb(d), norms(6);
    for (int step = 0; step < 5; ++step) {
      a.query(ga);
      b.query(gb);
      QCOMPARE(a.last_lot_indices(), b.last_lot_indices());
      // S of each rule on the lot, at the same parameters.
      const auto& lot = a.last_lot_indices();
      Matrix xl(static_cast<Index>(lot.size()), d);
      for (std::size_t i = 0; i < lot.size(); ++i) xl.row(static_cast<Index>(i)) = x.row(lot[i]);
      const Vector yl = Vector::Zero(xl.rows());
      Vector sa(d), sb(d);
      model.clipped_gradient_sum(xl, yl, flat.clip_rule(), sa, norms.head(xl.rows()));
      model.clipped_gradient_sum(xl, yl, automatic.clip_rule(), sb, norms.head(xl.rows()));
      const Vector noise_a = ga - sa / 3.f, noise_b = gb - sb / 3.f;
      QVERIFY((noise_a - noise_b).norm() <= 1e-5 * noise_a.norm());
      // The released automatic sum has sensitivity 1: each g_i / (||g_i|| + gamma) < 1.
      for (Index i = 0; i < xl.rows(); ++i)
        QVERIFY(automatic.clip_rule().factor(norms[i]) * norms[i] < 1);
    }
  }

  void adaptiveClippingRefusesIt() {
    const data::Dataset train = testing::make_points(Matrix::Zero(4, 3));
    testing::QuadraticTestModel model(3);
    privacy::DpSettings dp{1.0, 1.0, 2.0};
    dp.clipping = models::ClippingMode::kAutomatic;
    privacy::NoisyGradientOracle oracle(train, model, dp, 1);
    Vector g(3), directions(3);
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              oracle.query_with_directions(1.0, 1.0, 1.0, g, directions);
            }).contains("automatic"));
    for (auto kind : {optim::OptimizerKind::kOsoDpSgd, optim::OptimizerKind::kFixedQuantile}) {
      QVERIFY(!optim::supports_automatic_clipping(kind));
      QVERIFY(testing::error_of<InvalidArgument>([&] {
                optim::make_optimizer(optim::default_spec(kind), optim::RunShape{3, 10, dp});
              }).contains("automatic"));
    }
    // A finite C is required (it is the sensitivity).
    dp.clip = models::kNoClipping;
    dp.noise_multiplier = 0;
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              privacy::NoisyGradientOracle(train, model, dp, 1);
            }).startsWith("clip = "));
  }
};

DPLAB_TEST_MAIN(TestAutomaticClipping)
#include "test_automatic_clipping.moc"
