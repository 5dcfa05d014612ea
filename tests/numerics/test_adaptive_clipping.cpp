// Adaptive clipping (issue #15): OSO-DPSGD (Galli et al. 2023, Alg. 1) and FixedQuantile
// (Andrew et al. 2021), and the joint-Gaussian accounting both rely on.
//   - Accounting: the two noisy queries of one step, composed in RDP (alpha / (2 s_j^2) each),
//     equal the single Gaussian mechanism with multiplier nu at every order of the accountant's
//     grid (Galli et al. Prop. 1; Andrew et al. Thm 1); the 1% rule gives nu_q = 7.124 nu; the
//     optimizers are one query per step, so a run's epsilon is DPSGD's at the same nu.
//   - Hand-computed steps on QuadraticTestModel (g_i = theta - x_i, sigma = 0, q = 1, L = n = 2).
//   - FixedQuantile's C_t converges to the target quantile of a known norm distribution
//     (norms uniform on (0, 1]: the gamma-quantile is gamma), without and with noise.
//   - Model::weighted_gradient_sum of the real models = the row-by-row definition.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <QTest>
#include <cmath>
#include <vector>

#include "core/error.h"
#include "core/random.h"
#include "dp_gradient/noisy_gradient.h"
#include "engine/quadratic_test_model.h"
#include "models/model.h"
#include "optim/fixed_quantile.h"
#include "optim/optimizer.h"
#include "optim/oso_dpsgd.h"
#include "privacy/accounting/joint_gaussian.h"
#include "privacy/accounting/rdp_accountant.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using dplab::testing::QuadraticTestModel;
using optim::OptimizerKind;
using optim::OptimizerSpec;
using optim::RunShape;

namespace {

constexpr double kFloatRel = 2e-6;

// x1 = (1, 2, -1), x2 = (3, 0, 1), theta0 = (0.5, -1, 2): g1 = (-0.5, -3, 3), ||g1|| = 4.272;
// g2 = (-2.5, -1, 1), ||g2|| = 2.872. With C = 3 only g1 is clipped.
struct Fixture {
  data::Dataset train;
  QuadraticTestModel model{3};
  privacy::DpSettings dp{3.0, 0.0, 2.0};
  std::unique_ptr<privacy::NoisyGradientOracle> oracle;
  Eigen::Matrix<double, 2, 3> x;

  Fixture() {
    Matrix xf(2, 3);
    xf << 1, 2, -1, 3, 0, 1;
    x = xf.cast<double>();
    train = testing::make_points(xf);
    model.params() << 0.5f, -1.0f, 2.0f;
    oracle = std::make_unique<privacy::NoisyGradientOracle>(train, model, dp, 1);
  }
  RunShape shape() const { return RunShape{3, 100, dp}; }
  Eigen::Vector3d theta() const { return model.params().cast<double>(); }
};

// The definitions in double: clipped mean and clipped-away unit directions over both rows.
struct Reference {
  Eigen::Vector3d gradient = Eigen::Vector3d::Zero();
  Eigen::Vector3d directions = Eigen::Vector3d::Zero();
  int unclipped = 0;
};
Reference reference(const Eigen::Vector3d& theta, const Eigen::Matrix<double, 2, 3>& x,
                    double clip) {
  Reference r;
  for (int i = 0; i < 2; ++i) {
    const Eigen::Vector3d g = theta - x.row(i).transpose();
    const double norm = g.norm();
    r.gradient += std::min(1.0, clip / norm) * g / 2.0;
    if (norm > clip) r.directions += g / norm / 2.0;
    if (norm <= clip) ++r.unclipped;
  }
  return r;
}

double sign(double v) {
  return v > 0 ? 1 : (v < 0 ? -1 : 0);
}

}  // namespace

class TestAdaptiveClipping : public QObject {
  Q_OBJECT

 private slots:
  void osoTwoQueriesComposeToOneGaussian() {
    for (double nu : {0.5, 1.0, 2.7}) {
      const double nu_q = privacy::oso_direction_multiplier_for_increase(nu);
      DPLAB_COMPARE_REL(nu_q / nu, 7.124, 1e-4);  // the paper's 1% rule
      const double nu_g = privacy::oso_gradient_noise_multiplier(nu, nu_q);
      DPLAB_COMPARE_REL(nu_g, 1.01 * nu, 1e-12);
      const double parts[] = {nu_g, nu_q};
      DPLAB_COMPARE_REL(privacy::joint_noise_multiplier(parts), nu, 1e-12);
      for (double order : privacy::rdp_orders()) {
        const double composed =
            privacy::gaussian_rdp(nu_g, order) + privacy::gaussian_rdp(nu_q, order);
        DPLAB_COMPARE_REL(composed, privacy::gaussian_rdp(nu, order), 1e-12);
      }
    }
    // An explicit nu_q too: nu = 1, nu_q = 2 => nu_g = 1/sqrt(1 - 1/4) = 1.1547.
    DPLAB_COMPARE_REL(privacy::oso_gradient_noise_multiplier(1.0, 2.0), 2.0 / std::sqrt(3.0),
                      1e-12);
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, privacy::oso_gradient_noise_multiplier(1.0, 1.0));
  }

  void quantileTwoQueriesComposeToOneGaussian() {
    // Andrew et al. Thm 1: the centred count (sensitivity 1/2, noise sigma_b) has multiplier
    // 2 sigma_b; with z_Delta the pair is the Gaussian mechanism with multiplier z.
    for (double z : {0.6, 1.1, 3.0}) {
      const double sigma_b = 256.0 / 20.0;
      const double z_delta = privacy::quantile_gradient_noise_multiplier(z, sigma_b);
      QVERIFY(z_delta > z);
      for (double order : privacy::rdp_orders()) {
        const double composed =
            privacy::gaussian_rdp(z_delta, order) + privacy::gaussian_rdp(2 * sigma_b, order);
        DPLAB_COMPARE_REL(composed, privacy::gaussian_rdp(z, order), 1e-12);
      }
    }
    // z = 1, sigma_b = 1: z_Delta = (1 - 1/4)^(-1/2).
    DPLAB_COMPARE_REL(privacy::quantile_gradient_noise_multiplier(1.0, 1.0), 2.0 / std::sqrt(3.0),
                      1e-12);
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             privacy::quantile_gradient_noise_multiplier(1.0, 0.5));
  }

  void quantileJointMultiplierFromTheReleasedStatistic() {
    // First principles, measured on what the oracle releases (q = 1, so the lot is the data set):
    //   Delta = max |r(D') - r(D)| over D' = D plus or minus one example (clipped or not),
    //   s     = the empirical std of the released r over many draws (sigma_b given),
    // make the count the Gaussian mechanism with multiplier s / Delta; composed with the
    // gradient's z_Delta (Mironov 2017 Prop. 1: alpha/(2 z_Delta^2) + alpha/(2 (s/Delta)^2)) the
    // step's joint multiplier must be the z the accountant charges.
    const double clip = 3.0;
    // Norms ||theta - x_i|| at theta = 0: 1 and 2 (kept), 5 (clipped).
    auto released = [&](const std::vector<float>& norms, double count_noise_std, std::uint64_t seed,
                        int draws) {
      Matrix xf = Matrix::Zero(static_cast<Index>(norms.size()), 2);
      for (std::size_t i = 0; i < norms.size(); ++i) xf(static_cast<Index>(i), 0) = norms[i];
      const data::Dataset train = testing::make_points(xf);
      QuadraticTestModel model(2);
      const privacy::DpSettings dp{clip, 0.0, static_cast<double>(norms.size())};
      privacy::NoisyGradientOracle oracle(train, model, dp, seed);
      Vector gradient(2);
      std::vector<double> out;
      for (int t = 0; t < draws; ++t) {
        double r = 0;
        oracle.query_with_unclipped_count(clip, 0.0, count_noise_std, gradient, r);
        out.push_back(r);
      }
      return out;
    };
    const std::vector<float> base = {1.f, 5.f};
    const double r0 = released(base, 0.0, 1, 1)[0];
    double sensitivity = 0;
    for (const std::vector<float>& neighbour :
         std::vector<std::vector<float>>{{1.f, 5.f, 2.f}, {1.f, 5.f, 6.f}, {5.f}, {1.f}}) {
      sensitivity = std::max(sensitivity, std::abs(released(neighbour, 0.0, 1, 1)[0] - r0));
    }
    QVERIFY(sensitivity > 0);
    const double sigma_b = 1.0, z = 1.0;
    const std::vector<double> noisy = released(base, sigma_b, 7, 20000);
    double sum = 0, sum_sq = 0;
    for (double r : noisy) {
      sum += r - r0;
      sum_sq += (r - r0) * (r - r0);
    }
    const double n = static_cast<double>(noisy.size());
    const double noise_std = std::sqrt(sum_sq / n - (sum / n) * (sum / n));
    const double count_multiplier = noise_std / sensitivity;
    const double z_delta = privacy::quantile_gradient_noise_multiplier(z, sigma_b);
    const double parts[] = {z_delta, count_multiplier};
    // 20000 draws: the std within ~1.5% (3 standard errors), so the joint multiplier within 2%.
    DPLAB_COMPARE_REL(privacy::joint_noise_multiplier(parts), z, 0.02);
  }

  void quantileFractionEstimateIsUnbiasedUnderPoissonLots() {
    // n = 1000 norms i/n, C = 0.3: the unclipped fraction is 0.3. Lots of rate q = 0.1 (L = 100),
    // sigma_b = 0: the mean of b~ = s~/L + 1/2 over 4000 lots is 0.3 (per-lot std ~0.05 => the
    // mean's std ~8e-4; tolerance 0.004).
    const Index n = 1000;
    Matrix xf = Matrix::Zero(n, 2);
    for (Index i = 0; i < n; ++i) xf(i, 0) = static_cast<float>((i + 1.0) / n);
    const data::Dataset train = testing::make_points(xf);
    QuadraticTestModel model(2);
    const privacy::DpSettings dp{0.3, 0.0, 100.0};
    privacy::NoisyGradientOracle oracle(train, model, dp, 9);
    Vector gradient(2);
    double sum = 0;
    const int lots = 4000;
    for (int t = 0; t < lots; ++t) {
      double centred = 0;
      oracle.query_with_unclipped_count(0.3, 0.0, 0.0, gradient, centred);
      sum += privacy::unclipped_fraction_estimate(centred, dp.lot_size);
    }
    QVERIFY2(std::abs(sum / lots - 0.3) < 0.004, qPrintable(QString::number(sum / lots)));
  }

  void adaptiveOptimizersAreOneQueryPerStep() {
    // The accountant counts queries; one joint query per step => same epsilon as DPSGD at nu.
    Fixture f;
    f.dp.noise_multiplier = 1.3;
    for (OptimizerKind kind : {OptimizerKind::kOsoDpSgd, OptimizerKind::kFixedQuantile}) {
      OptimizerSpec spec = optim::default_spec(kind);
      spec.count_noise_std = 5;  // L / 20 = 0.1 would be below z / 2 (Andrew et al. Thm 1)
      auto opt = optim::make_optimizer(spec, RunShape{3, 10, f.dp});
      QCOMPARE(opt->queries_per_step(), 1);
      privacy::NoisyGradientOracle oracle(f.train, f.model, f.dp, 3);
      for (int t = 0; t < 4; ++t) opt->step(f.model, oracle);
      QCOMPARE(oracle.queries_made(), std::int64_t{4});
    }
  }

  void osoHandComputedSteps() {
    Fixture f;
    OptimizerSpec spec = optim::default_spec(OptimizerKind::kOsoDpSgd);
    spec.learning_rate = 0.2;                   // rho_0
    spec.clip_adaptation_rate = 0.1;            // rho_c (large, to see it)
    spec.learning_rate_adaptation_rate = 0.05;  // rho_r
    optim::OsoDpSgd opt(spec, f.shape());
    QCOMPARE(opt.gradient_noise_multiplier(), 0.0);  // sigma = 0: no noise
    QVERIFY(std::isnan(opt.effective_step_size()));

    // Step 1: q~_0 = g~_0 = 0, so C and rho stay; theta1 = theta0 - 0.2 g~_1.
    const Eigen::Vector3d theta0 = f.theta();
    const Reference r1 = reference(theta0, f.x, 3.0);
    // g1 = (-0.5, -3, 3) is clipped to norm 3, g2 kept: g~ = (3 g1/||g1|| + g2) / 2.
    const Eigen::Vector3d g1(-0.5, -3, 3), g2(-2.5, -1, 1);
    QVERIFY((r1.gradient - (3 * g1 / std::sqrt(18.25) + g2) / 2).norm() < 1e-12);
    QVERIFY((r1.directions - g1 / std::sqrt(18.25) / 2).norm() < 1e-12);
    opt.step(f.model, *f.oracle);
    const Eigen::Vector3d theta1 = theta0 - 0.2 * r1.gradient;
    for (int j = 0; j < 3; ++j) DPLAB_COMPARE_REL(f.theta()[j], theta1[j], kFloatRel);
    DPLAB_COMPARE_REL(opt.clip_threshold(), 3.0, 1e-15);
    DPLAB_COMPARE_REL(opt.effective_step_size(), 0.2, 1e-15);

    // Step 2: theta2 = theta1 - 0.2 g~_2; C2 = 3 exp(0.1 sign(g~_2 . q~_1));
    // rho2 = 0.2 exp(0.05 sign(g~_2 . g~_1)).
    const Reference r2 = reference(theta1, f.x, 3.0);
    opt.step(f.model, *f.oracle);
    const Eigen::Vector3d theta2 = theta1 - 0.2 * r2.gradient;
    for (int j = 0; j < 3; ++j) DPLAB_COMPARE_REL(f.theta()[j], theta2[j], kFloatRel);
    const double c2 = 3.0 * std::exp(0.1 * sign(r2.gradient.dot(r1.directions)));
    const double rho2 = 0.2 * std::exp(0.05 * sign(r2.gradient.dot(r1.gradient)));
    // Both gradients point the same way here (theta moves toward the data): C and rho grow.
    QVERIFY(r2.gradient.dot(r1.directions) > 0 && r2.gradient.dot(r1.gradient) > 0);
    DPLAB_COMPARE_REL(opt.clip_threshold(), c2, 1e-12);
    DPLAB_COMPARE_REL(opt.effective_step_size(), rho2, 1e-12);

    // Step 3 uses C2 and rho2.
    const Reference r3 = reference(theta2, f.x, c2);
    opt.step(f.model, *f.oracle);
    const Eigen::Vector3d theta3 = theta2 - rho2 * r3.gradient;
    for (int j = 0; j < 3; ++j) DPLAB_COMPARE_REL(f.theta()[j], theta3[j], 5 * kFloatRel);
    DPLAB_COMPARE_REL(opt.clip_threshold(),
                      c2 * std::exp(0.1 * sign(r3.gradient.dot(r2.directions))), 1e-12);
  }

  void osoNoiseSplitFollowsProposition1() {
    Fixture f;
    f.dp.noise_multiplier = 2.0;
    OptimizerSpec spec = optim::default_spec(OptimizerKind::kOsoDpSgd);
    optim::OsoDpSgd rule(spec, f.shape());
    DPLAB_COMPARE_REL(rule.direction_noise_multiplier(), 7.124 * 2.0, 1e-4);
    DPLAB_COMPARE_REL(rule.gradient_noise_multiplier(), 2.02, 1e-12);
    spec.direction_noise_ratio = 2.0;  // nu_q = 4 => nu_g = (1/4 - 1/16)^(-1/2)
    optim::OsoDpSgd explicit_ratio(spec, f.shape());
    DPLAB_COMPARE_REL(explicit_ratio.gradient_noise_multiplier(), 1.0 / std::sqrt(3.0 / 16.0),
                      1e-12);
    spec.direction_noise_ratio = 0.5;
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, optim::OsoDpSgd(spec, f.shape()));
  }

  void osoNoiseHasTheSplitStandardDeviations() {
    // Zero data gradient (theta = x1 = x2): g~ is pure N(0, (nu_g C / L)^2), q~ is 0 + N(0,
    // (nu_q / L)^2). Empirical std over 20000 coordinates within 3%.
    Matrix xf(2, 3);
    xf << 1, 2, -1, 1, 2, -1;
    const data::Dataset train = testing::make_points(xf);
    QuadraticTestModel model(3);
    model.params() << 1.f, 2.f, -1.f;
    const privacy::DpSettings dp{0.5, 1.5, 2.0};
    privacy::NoisyGradientOracle oracle(train, model, dp, 11);
    const double nu_g = 1.515, nu_q = 1.5 * 7.124;
    Vector g(3), q(3);
    double sum_g = 0, sum_q = 0;
    const int n = 6667;
    for (int t = 0; t < n; ++t) {
      oracle.query_with_directions(0.5, nu_g, nu_q, g, q);
      sum_g += g.cast<double>().squaredNorm();
      sum_q += q.cast<double>().squaredNorm();
    }
    DPLAB_COMPARE_REL(std::sqrt(sum_g / (3.0 * n)), nu_g * 0.5 / 2.0, 0.03);
    DPLAB_COMPARE_REL(std::sqrt(sum_q / (3.0 * n)), nu_q / 2.0, 0.03);
  }

  void fixedQuantileHandComputedStep() {
    Fixture f;
    OptimizerSpec spec = optim::default_spec(OptimizerKind::kFixedQuantile);
    spec.learning_rate = 0.1;
    spec.target_quantile = 0.3;
    optim::FixedQuantile opt(spec, f.shape());
    const Reference r = reference(f.theta(), f.x, 3.0);
    QCOMPARE(r.unclipped, 1);  // g2 only: b = 1/2
    const Eigen::Vector3d theta1 = f.theta() - 0.1 * r.gradient;
    opt.step(f.model, *f.oracle);
    for (int j = 0; j < 3; ++j) DPLAB_COMPARE_REL(f.theta()[j], theta1[j], kFloatRel);
    DPLAB_COMPARE_REL(opt.last_unclipped_fraction(), 0.5, 1e-15);
    // C1 = 3 exp(-0.2 (1/2 - 0.3)) = 3 exp(-0.04)
    DPLAB_COMPARE_REL(opt.clip_threshold(), 3.0 * std::exp(-0.04), 1e-12);
  }

  void fixedQuantileSplitAndDefaults() {
    Fixture f;
    f.dp.noise_multiplier = 1.0;
    f.dp.lot_size = 2.0;
    OptimizerSpec spec = optim::default_spec(OptimizerKind::kFixedQuantile);
    QCOMPARE(spec.quantile_learning_rate, 0.2);
    QCOMPARE(spec.target_quantile, 0.5);
    spec.count_noise_std = 1.0;
    optim::FixedQuantile opt(spec, f.shape());
    DPLAB_COMPARE_REL(opt.gradient_noise_multiplier(), 2.0 / std::sqrt(3.0), 1e-12);
    spec.count_noise_std = 0.4;  // < z / 2: the split is impossible
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, optim::FixedQuantile(spec, f.shape()));
    spec.count_noise_std = 0;  // default max(L / 20, z) = max(0.1, 1) = 1
    optim::FixedQuantile defaulted(spec, f.shape());
    DPLAB_COMPARE_REL(defaulted.count_noise_std(), 1.0, 1e-15);
    DPLAB_COMPARE_REL(defaulted.gradient_noise_multiplier(), 2.0 / std::sqrt(3.0), 1e-12);
    spec.target_quantile = 1.0;
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, optim::FixedQuantile(spec, f.shape()));
  }

  void fixedQuantileTracksTheTargetQuantile_data() {
    QTest::addColumn<double>("gamma");
    QTest::addColumn<double>("noise_multiplier");
    QTest::newRow("gamma 0.3 exact") << 0.3 << 0.0;
    QTest::newRow("gamma 0.7 exact") << 0.7 << 0.0;
    QTest::newRow("gamma 0.5 noisy") << 0.5 << 1.0;
    QTest::newRow("gamma 0.1 noisy") << 0.1 << 1.0;
  }
  void fixedQuantileTracksTheTargetQuantile() {
    // theta stays at 0 (learning rate 1e-12), so ||g_i|| = ||x_i|| = i / n: uniform on (0, 1],
    // whose gamma-quantile is gamma. C starts at 0.05 or 2 (far below / above the target).
    QFETCH(double, gamma);
    QFETCH(double, noise_multiplier);
    const Index n = 1000;
    Matrix xf = Matrix::Zero(n, 2);
    for (Index i = 0; i < n; ++i) xf(i, 0) = static_cast<float>((i + 1.0) / n);
    const data::Dataset train = testing::make_points(xf);
    for (double c0 : {0.05, 2.0}) {
      QuadraticTestModel model(2);
      // Noisy: Poisson lots of L = 500 (q = 1/2); sigma_b = L / 20 = 25 (b~ std 0.05).
      const privacy::DpSettings dp{c0, noise_multiplier, noise_multiplier > 0 ? 500.0 : 1000.0};
      privacy::NoisyGradientOracle oracle(train, model, dp, 5);
      OptimizerSpec spec = optim::default_spec(OptimizerKind::kFixedQuantile);
      spec.learning_rate = 1e-12;
      spec.target_quantile = gamma;
      optim::FixedQuantile opt(spec, RunShape{2, 600, dp});
      double tail_sum = 0;
      int tail = 0;
      for (int t = 0; t < 600; ++t) {
        opt.step(model, oracle);
        if (t >= 400) {
          tail_sum += opt.clip_threshold();
          ++tail;
        }
      }
      const double mean_clip = tail_sum / tail;
      // Exact: converged to within the 1/n granularity. Noisy: the mean of C over the last 200
      // steps within 0.04 (b~ has std 0.05 + sampling; each step moves log C by 0.2 (b~ - gamma)).
      const double tolerance = noise_multiplier > 0 ? 0.04 : 0.003;
      if (!(std::abs(mean_clip - gamma) <= tolerance)) {
        QFAIL(qPrintable(
            QString("C0 = %1: mean C = %2, target %3").arg(c0).arg(mean_clip).arg(gamma)));
      }
    }
  }

  void weightedGradientSumMatchesDefinition_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("num_classes");
    QTest::newRow("logistic k=3") << int(models::ModelKind::kLogisticRegression) << 3;
    QTest::newRow("logistic binary") << int(models::ModelKind::kLogisticRegression) << 2;
    QTest::newRow("tlnn k=4") << int(models::ModelKind::kTwoLayerNetwork) << 4;
    QTest::newRow("linear") << int(models::ModelKind::kLinearRegression) << 0;
  }
  void weightedGradientSumMatchesDefinition() {
    QFETCH(int, kind);
    QFETCH(int, num_classes);
    models::ModelSpec spec;
    spec.kind = static_cast<models::ModelKind>(kind);
    spec.hidden_units = 5;
    const Index d = 6, m = 11;
    auto model = models::make_model(spec, d, num_classes);
    Rng rng(17);
    for (Index j = 0; j < model->num_params(); ++j) {
      model->params()[j] = static_cast<float>(rng.uniform() - 0.5);
    }
    Matrix x(m, d);
    Vector y(m), w(m);
    for (Index i = 0; i < m; ++i) {
      for (Index j = 0; j < d; ++j) x(i, j) = static_cast<float>(2 * rng.uniform() - 1);
      y[i] = num_classes == 0
                 ? static_cast<float>(rng.uniform())
                 : static_cast<float>(rng.below(static_cast<std::uint64_t>(num_classes)));
      w[i] = static_cast<float>(2 * rng.uniform() - 0.5);  // mixed signs
    }
    w[3] = 0.f;
    Vector fast(model->num_params()), slow(model->num_params());
    const double loss_fast = model->weighted_gradient_sum(x, y, w, fast);
    const double loss_slow = model->models::Model::weighted_gradient_sum(x, y, w, slow);
    DPLAB_COMPARE_REL(loss_fast, loss_slow, 1e-5);
    const double scale = slow.cast<double>().norm();
    QVERIFY(scale > 0);
    QVERIFY2((fast - slow).cast<double>().norm() <= 1e-5 * scale,
             qPrintable(QString("difference %1 of %2").arg((fast - slow).norm()).arg(scale)));
  }

  void namesRoundTrip() {
    QCOMPARE(optim::parse_optimizer_kind("oso-dpsgd"), OptimizerKind::kOsoDpSgd);
    QCOMPARE(optim::parse_optimizer_kind("Fixed-Quantile"), OptimizerKind::kFixedQuantile);
    QCOMPARE(optim::to_string(OptimizerKind::kOsoDpSgd), std::string("oso-dpsgd"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestAdaptiveClipping)
#include "test_adaptive_clipping.moc"
