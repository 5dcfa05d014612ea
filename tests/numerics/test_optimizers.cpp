// Optimizers, hand-computed on QuadraticTestModel with sigma = 0, no clipping and q = 1
// (L = n = 2), so the oracle returns exactly g(theta) = theta - mean(x), mean(x) = (2, 1, 0):
//   theta0 = (0.5, -1, 2)  =>  g0 = (-1.5, -2, 2).
// Each optimizer's first step(s) are compared with numbers derived by hand in the comments
// (and, for the longer formulas, the same formula evaluated in double). Also: DPAdam's
// effective step size tends to alpha / (sigma C / L + xi) on pure-noise gradients (main paper
// Theorem 3); DPAdamWOSM's ESS; ADADP's two queries, accept/reject and eta update; names.
// GCC 12 false positive in its AVX-512 headers under Eigen (bug 105593); see gaussian_noise.cpp.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <QTest>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "dp_gradient/noisy_gradient.h"
#include "engine/quadratic_test_model.h"
#include "models/model.h"
#include "optim/adadp.h"
#include "optim/dp_adam.h"
#include "optim/dp_adam_wosm.h"
#include "optim/dp_momentum.h"
#include "optim/optimizer.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using dplab::testing::QuadraticTestModel;
using optim::OptimizerKind;
using optim::OptimizerSpec;
using optim::RunShape;

namespace {

// Float parameters (24-bit mantissa) after a few float operations: 1e-6 relative.
constexpr double kFloatRel = 1e-6;

struct Fixture {
  data::Dataset train;
  QuadraticTestModel model{3};
  privacy::DpSettings dp{models::kNoClipping, 0.0, 2.0};
  std::unique_ptr<privacy::NoisyGradientOracle> oracle;

  Fixture() {
    Matrix x(2, 3);
    x << 1, 2, -1, 3, 0, 1;
    train = testing::make_points(x);
    model.params() << 0.5f, -1.0f, 2.0f;
    oracle = std::make_unique<privacy::NoisyGradientOracle>(train, model, dp, 1);
  }
  RunShape shape(std::int64_t total_queries = 100) const { return RunShape{3, total_queries, dp}; }
  double theta(int j) const { return model.params()[j]; }
};

void compare_params(const Fixture& f, const double (&expected)[3], double rel = kFloatRel) {
  for (int j = 0; j < 3; ++j) DPLAB_COMPARE_REL(f.theta(j), expected[j], rel);
}

Eigen::Vector3d mean_x() {
  return {2.0, 1.0, 0.0};
}

QString error_of(const OptimizerSpec& spec, const RunShape& shape) {
  try {
    optim::make_optimizer(spec, shape);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TestOptimizers : public QObject {
  Q_OBJECT

 private slots:
  void dpSgdStep() {
    Fixture f;
    OptimizerSpec spec = optim::default_spec(OptimizerKind::kDpSgd);
    spec.learning_rate = 0.1;
    auto opt = optim::make_optimizer(spec, f.shape());
    QVERIFY(std::isnan(opt->effective_step_size()));
    opt->step(f.model, *f.oracle);
    // theta1 = theta0 - 0.1 g0 = (0.5 + 0.15, -1 + 0.2, 2 - 0.2)
    compare_params(f, {0.65, -0.8, 1.8});
    QCOMPARE(opt->effective_step_size(), 0.1);
    QCOMPARE(opt->queries_per_step(), 1);
    QCOMPARE(f.oracle->queries_made(), std::int64_t(1));
  }

  void dpMomentumTwoSteps() {
    // PyTorch convention: v = m v + g; theta -= alpha v.
    Fixture f;
    OptimizerSpec spec = optim::default_spec(OptimizerKind::kDpMomentum);
    spec.learning_rate = 0.1;
    spec.momentum = 0.9;
    auto opt = optim::make_optimizer(spec, f.shape());
    opt->step(f.model, *f.oracle);
    // v1 = g0 = (-1.5, -2, 2); theta1 = (0.65, -0.8, 1.8)
    compare_params(f, {0.65, -0.8, 1.8});
    opt->step(f.model, *f.oracle);
    // g1 = theta1 - (2,1,0) = (-1.35, -1.8, 1.8); v2 = 0.9 v1 + g1 = (-2.7, -3.6, 3.6);
    // theta2 = theta1 - 0.1 v2 = (0.92, -0.44, 1.44)
    compare_params(f, {0.92, -0.44, 1.44});
    const auto& momentum = dynamic_cast<const optim::DpMomentum&>(*opt);
    DPLAB_COMPARE_REL(momentum.velocity()[0], -2.7, kFloatRel);
    DPLAB_COMPARE_REL(momentum.velocity()[2], 3.6, kFloatRel);
  }

  void dpAdamFirstTwoSteps() {
    Fixture f;
    const OptimizerSpec spec = optim::default_spec(OptimizerKind::kDpAdam);
    QCOMPARE(spec.learning_rate, 1e-3);
    auto opt = optim::make_optimizer(spec, f.shape());
    opt->step(f.model, *f.oracle);
    // Step 1: m1 = 0.1 g0, v1 = 0.001 g0^2, m^ = g0, v^ = g0^2:
    // theta1 = theta0 - 1e-3 g0 / (|g0| + 1e-8) = theta0 + 1e-3 * (1, 1, -1) (to 1e-8 relative)
    compare_params(f, {0.501, -0.999, 1.999});
    // ESS after step 1 = mean_j 1e-3 / (|g0_j| + 1e-8) = 1e-3 (1/1.5 + 1/2 + 1/2) / 3
    DPLAB_COMPARE_REL(opt->effective_step_size(), 1e-3 * (1 / 1.5 + 0.5 + 0.5) / 3, 1e-6);
    opt->step(f.model, *f.oracle);
    // Step 2, formula in double: g1 = theta1 - mean(x); m2 = 0.9*0.1 g0 + 0.1 g1;
    // v2 = 0.999*0.001 g0^2 + 0.001 g1^2; theta2 = theta1 - 1e-3 (m2/0.19) / (sqrt(v2/0.001999) +
    // 1e-8)
    const Eigen::Vector3d theta0(0.5, -1, 2), g0 = theta0 - mean_x();
    const Eigen::Vector3d theta1 = theta0 + 1e-3 * Eigen::Vector3d(1, 1, -1);
    const Eigen::Vector3d g1 = theta1 - mean_x();
    const Eigen::Vector3d m2 = 0.9 * 0.1 * g0 + 0.1 * g1;
    const Eigen::Vector3d v2 =
        (0.999 * 0.001 * g0.array().square() + 0.001 * g1.array().square()).matrix();
    const double c1 = 1 - 0.9 * 0.9, c2 = 1 - 0.999 * 0.999;
    const Eigen::Vector3d theta2 =
        theta1 - (1e-3 * (m2 / c1).array() / ((v2 / c2).array().sqrt() + 1e-8)).matrix();
    compare_params(f, {theta2[0], theta2[1], theta2[2]});
  }

  void dpAdamEffectiveStepSizeTheorem3() {
    // Pure-noise gradients: tiny data gradient (scale 1e-6), sigma = 1, C = 1, L = 10:
    // g~ ~ N(0, 0.01), v^ -> 0.01, ESS -> 1e-3 / (0.1 + 1e-8) = 0.0099999990.
    const Index d = 400;
    Matrix x = Matrix::Zero(20, d);
    const data::Dataset train = testing::make_points(x);
    QuadraticTestModel model(d, 1e-6);
    const privacy::DpSettings dp{1.0, 1.0, 10.0};
    privacy::NoisyGradientOracle oracle(train, model, dp, 2718);
    auto opt =
        optim::make_optimizer(optim::default_spec(OptimizerKind::kDpAdam), RunShape{d, 6000, dp});
    for (int t = 0; t < 6000; ++t) opt->step(model, oracle);
    const double limit = 1e-3 / (dp.noise_multiplier * dp.clip / dp.lot_size + 1e-8);
    // v^ averages ~2000 squared normals per coordinate (beta2 = 0.999): relative std of
    // sqrt(v^) ~ 1.6% per coordinate, ~0.1% for the mean over 400 coordinates; 3% margin.
    DPLAB_COMPARE_REL(opt->effective_step_size(), limit, 0.03);
  }

  void dpAdamWosmEssAndSteps() {
    Fixture f;
    // ESS from the run's sigma, C, L (here sigma = 2, C = 1, L = 250 as in the paper's grids):
    // ESS = 1e-3 / (2 * 1 / 250 + 1e-8) = 1e-3 / 0.00800001 = 0.124999843750...
    RunShape shape = f.shape();
    shape.dp = privacy::DpSettings{1.0, 2.0, 250.0};
    const OptimizerSpec spec = optim::default_spec(OptimizerKind::kDpAdamWosm);
    QCOMPARE(spec.learning_rate, 1e-3);
    auto opt = optim::make_optimizer(spec, shape);
    const double ess = 1e-3 / (2.0 / 250.0 + 1e-8);
    DPLAB_COMPARE_REL(dynamic_cast<const optim::DpAdamWosm&>(*opt).ess(), ess, 1e-15);
    QVERIFY(std::isnan(opt->effective_step_size()));
    // The oracle here is noiseless (a deterministic check of the update rule).
    opt->step(f.model, *f.oracle);
    // Step 1: m1 = 0.1 g0, m^1 = g0: theta1 = theta0 - ESS g0
    const Eigen::Vector3d theta0(0.5, -1, 2), g0 = theta0 - mean_x();
    const Eigen::Vector3d theta1 = theta0 - ess * g0;
    compare_params(f, {theta1[0], theta1[1], theta1[2]});
    DPLAB_COMPARE_REL(opt->effective_step_size(), ess, 1e-15);
    opt->step(f.model, *f.oracle);
    // Step 2: m2 = 0.09 g0 + 0.1 g1, m^2 = m2 / 0.19
    const Eigen::Vector3d g1 = theta1 - mean_x();
    const Eigen::Vector3d theta2 = theta1 - ess * (0.09 * g0 + 0.1 * g1) / 0.19;
    compare_params(f, {theta2[0], theta2[1], theta2[2]});

    // Non-private: ESS = alpha / xi; xi = 0 with sigma = 0 is rejected.
    OptimizerSpec no_xi = spec;
    no_xi.epsilon = 0;
    QVERIFY(
        error_of(no_xi, f.shape()).startsWith("epsilon = 0 must be > 0 when noise_multiplier = 0"));
    auto baseline = optim::make_optimizer(spec, f.shape());
    DPLAB_COMPARE_REL(dynamic_cast<const optim::DpAdamWosm&>(*baseline).ess(), 1e5, 1e-12);

    // Theorem 3's limit, the one formula the GUI's step-size chart and DPAdamWOSM share.
    DPLAB_COMPARE_REL(optim::theorem3_step_size_limit(1e-3, 2.0, 1.0, 250.0, 1e-8), ess, 1e-15);
    DPLAB_COMPARE_REL(optim::theorem3_step_size_limit(
                          1e-3, 0.0, std::numeric_limits<double>::infinity(), 250.0, 1e-8),
                      1e5, 1e-12);  // no noise: alpha / xi even without clipping
  }

  void adaDpAcceptAndReject_data() {
    // For this quadratic: theta1 - theta2 = -(eta^2 / 4) g0 = -0.0025 g0 = (0.00375, 0.005, -0.005)
    // and theta1 = (0.65, -0.8, 1.8), so
    // err^2 = 0.00375^2 + 0.005^2 + 0.005^2 / 1.8^2 = 4.677854938e-5, err = 0.006839484587.
    QTest::addColumn<double>("tolerance");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<double>("factor");  // eta_new / eta
    QTest::newRow("accept, growth capped at 1.1") << 0.01 << true << 1.1;
    QTest::newRow("accept, growth sqrt(tau/err)")
        << 0.0075 << true << std::sqrt(0.0075 / 0.006839484587);
    QTest::newRow("reject, shrink sqrt(tau/err)")
        << 0.006 << false << std::sqrt(0.006 / 0.006839484587);
    QTest::newRow("reject, shrink capped at 0.9") << 0.004 << false << 0.9;
  }

  void adaDpAcceptAndReject() {
    QFETCH(double, tolerance);
    QFETCH(bool, accepted);
    QFETCH(double, factor);
    Fixture f;
    OptimizerSpec spec = optim::default_spec(OptimizerKind::kAdaDp);
    spec.learning_rate = 0.1;
    spec.adadp_tolerance = tolerance;
    auto opt = optim::make_optimizer(spec, f.shape());
    QCOMPARE(opt->queries_per_step(), 2);
    const int calls_before = f.model.gradient_calls();
    opt->step(f.model, *f.oracle);
    QCOMPARE(f.oracle->queries_made(), std::int64_t(2));
    QCOMPARE(f.model.gradient_calls() - calls_before, 2);
    const auto& adadp = dynamic_cast<const optim::AdaDp&>(*opt);
    DPLAB_COMPARE_REL(adadp.last_error(), 0.006839484587, 1e-5);
    DPLAB_COMPARE_REL(adadp.step_size(), 0.1 * factor, 1e-5);
    DPLAB_COMPARE_REL(opt->effective_step_size(), 0.1 * factor, 1e-5);
    QCOMPARE(adadp.accepted_steps(), std::int64_t(accepted ? 1 : 0));
    QCOMPARE(adadp.rejected_steps(), std::int64_t(accepted ? 0 : 1));
    if (accepted) {
      // theta_half = theta0 - 0.05 g0 = (0.575, -0.9, 1.9); g2 = (-1.425, -1.9, 1.9);
      // theta2 = theta_half - 0.05 g2 = (0.64625, -0.805, 1.805)
      compare_params(f, {0.64625, -0.805, 1.805});
    } else {
      compare_params(f, {0.5, -1.0, 2.0}, 0.0);  // exactly back to the start
    }
  }

  void adaDpDefaultTolerance() {
    // tau = sqrt(d / (2T)) = sqrt(3 / 600) with T = total_queries = 300.
    Fixture f;
    auto opt = optim::make_optimizer(optim::default_spec(OptimizerKind::kAdaDp), f.shape(300));
    DPLAB_COMPARE_REL(dynamic_cast<const optim::AdaDp&>(*opt).tolerance(), std::sqrt(3.0 / 600.0),
                      1e-15);
    QVERIFY(error_of(optim::default_spec(OptimizerKind::kAdaDp), f.shape(0))
                .startsWith("total_queries = 0"));
  }

  void namesRoundTrip() {
    for (OptimizerKind kind : optim::kAllOptimizerKinds) {
      QCOMPARE(optim::parse_optimizer_kind(optim::to_string(kind)), kind);
      Fixture f;
      QCOMPARE(optim::make_optimizer(optim::default_spec(kind), f.shape())->name(),
               optim::to_string(kind));
    }
    QCOMPARE(optim::parse_optimizer_kind("DPAdamWOSM"), OptimizerKind::kDpAdamWosm);
    QCOMPARE(optim::to_string(OptimizerKind::kDpSgd), std::string("dpsgd"));
  }

  void unknownNameListsValidNames() {
    try {
      optim::parse_optimizer_kind("rmsprop");
      QFAIL("no exception");
    } catch (const InvalidArgument& e) {
      const QString message = e.what();
      QVERIFY(message.contains("rmsprop"));
      for (const char* name : {"dpsgd", "dpmomentum", "dpadam", "adadp", "dpadamwosm"})
        QVERIFY2(message.contains(name), qPrintable(message));
    }
  }

  void invalidSpecsNameTheField() {
    Fixture f;
    OptimizerSpec spec = optim::default_spec(OptimizerKind::kDpAdam);
    spec.beta2 = 1.0;
    QCOMPARE(error_of(spec, f.shape()), QString("beta2 = 1 must be in [0, 1)"));
    spec = optim::default_spec(OptimizerKind::kDpSgd);
    spec.learning_rate = 0;
    QCOMPARE(error_of(spec, f.shape()), QString("learning_rate = 0 must be > 0"));
    spec = optim::default_spec(OptimizerKind::kDpMomentum);
    spec.momentum = -0.1;
    QVERIFY(error_of(spec, f.shape()).startsWith("momentum = -0.1"));
    RunShape empty = f.shape();
    empty.num_params = 0;
    QVERIFY(
        error_of(optim::default_spec(OptimizerKind::kDpSgd), empty).startsWith("num_params = 0"));
    // A model of another size is refused at step time.
    auto opt =
        optim::make_optimizer(optim::default_spec(OptimizerKind::kDpSgd), RunShape{4, 10, f.dp});
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, opt->step(f.model, *f.oracle));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestOptimizers)
#include "test_optimizers.moc"
