// DP-AdamBC (Tang, Shpilevskiy & Lécuyer 2024; optim/dp_adam_bc.h), by hand:
//   m_t = b1 m + (1 - b1) g_t, v_t = b2 v + (1 - b2) g_t^2, m^ = m_t / (1 - b1^t),
//   v^ = v_t / (1 - b2^t), theta -= alpha m^ / sqrt(max(v^ - Phi, gamma')), Phi = (sigma C / L)^2.
// A scripted model feeds the optimizer a FIXED gradient sequence g_1, g_2, g_3 (one training row,
// q = 1, L = 1, no noise in the oracle: g~_t = g_t exactly), while the optimizer's RunShape says
// sigma = 1, C = 1, L = 10, so Phi = 0.01: the middle coordinate's v^ (0.0025) stays below Phi and
// takes the floor every step. Also: Phi is exactly the variance of the noise the oracle adds (on
// pure-noise gradients mean_j v^_j -> Phi), sigma = 0 is Adam with the floor inside the square
// root, the paper defaults, names, and the errors naming the field.
// GCC 12 false positive in its AVX-512 headers under Eigen (bug 105593); see gaussian_noise.cpp.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <QTest>
#include <cmath>
#include <memory>
#include <vector>

#include "core/error.h"
#include "dp_gradient/noisy_gradient.h"
#include "engine/quadratic_test_model.h"
#include "models/model.h"
#include "optim/dp_adam_bc.h"
#include "optim/optimizer.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using optim::OptimizerKind;
using optim::OptimizerSpec;
using optim::RunShape;

namespace {

// Returns gradients_[k] as the (unclipped) gradient sum of its k-th call, whatever x.
class ScriptedGradientModel final : public models::Model {
 public:
  explicit ScriptedGradientModel(std::vector<Eigen::Vector3d> gradients)
      : gradients_(std::move(gradients)) {
    params_.setZero(3);
  }
  std::string name() const override { return "scripted"; }
  void initialize(std::uint64_t) override { params_.setZero(); }
  double loss_sum(const MatrixView&, const VectorView&) override { return 0; }
  double clipped_gradient_sum(const MatrixView& x, const VectorView&, const models::Clipping&,
                              VectorSpan gradient_sum, VectorSpan norms) override {
    const Eigen::Vector3d& g = gradients_.at(calls_++);
    gradient_sum = g.cast<float>();
    for (Index i = 0; i < norms.size(); ++i) norms[i] = static_cast<float>(g.norm());
    (void)x;
    return 0;
  }
  models::Evaluation evaluate(const data::Dataset&) override { return {}; }
  std::unique_ptr<models::Model> clone() const override {
    return std::make_unique<ScriptedGradientModel>(*this);
  }

 private:
  std::vector<Eigen::Vector3d> gradients_;
  std::size_t calls_ = 0;
};

constexpr double kFloatRel = 2e-6;

struct Script {
  data::Dataset train = testing::make_points(Matrix::Zero(1, 3));
  ScriptedGradientModel model{{{0.5, 0.05, -0.2}, {0.4, -0.05, 0.3}, {0.6, 0.02, 0.1}}};
  // The oracle releases g_t exactly (sigma = 0, no clipping, q = 1, L = 1) ...
  privacy::NoisyGradientOracle oracle{train, model, {models::kNoClipping, 0.0, 1.0}, 1};
  // ... while DP-AdamBC is told the run's noise: Phi = (1 * 1 / 10)^2 = 0.01.
  RunShape shape{3, 3, privacy::DpSettings{1.0, 1.0, 10.0}};
  Script() { model.params() << 0.5f, -1.0f, 2.0f; }
};

void compare_theta(const models::Model& model, double a, double b, double c) {
  DPLAB_COMPARE_REL(model.params()[0], a, kFloatRel);
  DPLAB_COMPARE_REL(model.params()[1], b, kFloatRel);
  DPLAB_COMPARE_REL(model.params()[2], c, kFloatRel);
}

OptimizerSpec hand_spec() {
  OptimizerSpec spec = optim::default_spec(OptimizerKind::kDpAdamBc);
  spec.learning_rate = 0.01;  // alpha
  spec.epsilon = 1e-4;        // gamma': sqrt(gamma') = 0.01, a visible floor
  return spec;
}

}  // namespace

class TestDpAdamBc : public QObject {
  Q_OBJECT

 private slots:
  void defaultsAndName() {
    const OptimizerSpec spec = optim::default_spec(OptimizerKind::kDpAdamBc);
    QCOMPARE(spec.learning_rate, 1e-3);
    QCOMPARE(spec.beta1, 0.9);
    QCOMPARE(spec.beta2, 0.999);
    QCOMPARE(spec.epsilon, 1e-8);  // gamma', the authors' code's --eps_root default
    QCOMPARE(optim::to_string(OptimizerKind::kDpAdamBc), std::string("dpadam-bc"));
    QCOMPARE(optim::parse_optimizer_kind("DPAdam-BC"), OptimizerKind::kDpAdamBc);
    QVERIFY(optim::supports_automatic_clipping(OptimizerKind::kDpAdamBc));
    Script s;
    auto opt = optim::make_optimizer(spec, s.shape);
    QCOMPARE(opt->name(), std::string("dpadam-bc"));
    QCOMPARE(dynamic_cast<const optim::DpAdamBc&>(*opt).noise_variance(), 0.01);
    QVERIFY(std::isnan(opt->effective_step_size()));
  }

  void threeStepsByHandWithTheFloor() {
    Script s;
    auto opt = optim::make_optimizer(hand_spec(), s.shape);
    // t = 1: m^ = g_1, v^ = g_1^2 (the bias corrections undo 1 - b), so
    //   delta_j = alpha g_j / sqrt(max(g_j^2 - 0.01, 1e-4)):
    //   j = 0: 0.25 - 0.01 = 0.24          -> 0.01 * 0.5 / sqrt(0.24)   = 0.0102062072615966
    //   j = 1: 0.0025 - 0.01 < 1e-4: floor -> 0.01 * 0.05 / 0.01        = 0.05
    //   j = 2: 0.04 - 0.01 = 0.03          -> 0.01 * -0.2 / sqrt(0.03)  = -0.0115470053837925
    opt->step(s.model, s.oracle);
    compare_theta(s.model, 0.5 - 0.0102062072615966, -1.05, 2.0 + 0.0115470053837925);
    // ESS = mean_j alpha / sqrt(max(v^_j - Phi, gamma')) = 0.01 (1/sqrt(.24) + 100 +
    // 1/sqrt(.03)) / 3
    DPLAB_COMPARE_REL(opt->effective_step_size(),
                      0.01 * (1 / std::sqrt(0.24) + 100 + 1 / std::sqrt(0.03)) / 3, 1e-6);
    // t = 2, g_2 = (0.4, -0.05, 0.3): m_2 = 0.09 g_1 + 0.1 g_2, m^ = m_2 / 0.19;
    //   v_2 = 0.000999 g_1^2 + 0.001 g_2^2, v^ = v_2 / 0.001999:
    //   j = 0: m^ = 0.085 / 0.19 = 0.447368421052632, v^ - Phi = 0.194977488744375
    //   j = 1: m^ = -0.0005 / 0.19 = -0.00263157894736842, v^ = 0.0025 < Phi: floor
    //   j = 2: m^ = 0.012 / 0.19 = 0.0631578947368421, v^ - Phi = 0.0550125062531275
    opt->step(s.model, s.oracle);
    compare_theta(s.model, 0.479662308141209, -1.04736842105263, 2.00885424983413);
    // t = 3, g_3 = (0.6, 0.02, 0.1): m^ = (0.503690036900369, 0.00571955719557196,
    //   0.0767527675276753), v^ - Phi = (0.246703367800011, floor, 0.0366566544355508)
    opt->step(s.model, s.oracle);
    compare_theta(s.model, 0.469521423989503, -1.0530879782482, 2.00484541991172);
    DPLAB_COMPARE_REL(opt->effective_step_size(), 0.357454537412118, 1e-5);
    const auto& bc = dynamic_cast<const optim::DpAdamBc&>(*opt);
    QCOMPARE(bc.steps_taken(), std::int64_t{3});
  }

  void withoutNoiseItIsAdamWithTheFloorInside() {
    // sigma = 0: Phi = 0 and the step is alpha m^ / sqrt(max(v^, gamma')); at t = 1 that is
    // alpha g / |g| = alpha sign(g) where g^2 > gamma', and alpha g / 0.01 below (none here).
    Script s;
    s.shape.dp = privacy::DpSettings{models::kNoClipping, 0.0, 10.0};
    auto opt = optim::make_optimizer(hand_spec(), s.shape);
    QCOMPARE(dynamic_cast<const optim::DpAdamBc&>(*opt).noise_variance(), 0.0);
    opt->step(s.model, s.oracle);
    compare_theta(s.model, 0.49, -1.01, 2.01);
  }

  void phiIsTheVarianceTheOracleAdds() {
    // Pure-noise gradients (data gradient scale 1e-9): g~ = N(0, (sigma C / L)^2) per
    // coordinate, so v^_t -> Phi = (2 * 0.5 / 4)^2 = 0.0625 (the oracle divides by L, as Phi
    // does). v^ averages ~2000 squared normals (beta2 = 0.999): ~3% relative std per
    // coordinate, ~0.2% for the mean over 300 coordinates; the check allows 2%, and a Phi off by
    // the lot-size convention (|lot| = L here, q = 1) or by a factor C would miss it by far.
    const Index d = 300;
    const data::Dataset train = testing::make_points(Matrix::Zero(4, d));
    testing::QuadraticTestModel model(d, 1e-9);
    const privacy::DpSettings dp{0.5, 2.0, 4.0};
    privacy::NoisyGradientOracle oracle(train, model, dp, 31415);
    OptimizerSpec spec = optim::default_spec(OptimizerKind::kDpAdamBc);
    spec.learning_rate = 1e-6;
    auto opt = optim::make_optimizer(spec, RunShape{d, 5000, dp});
    for (int t = 0; t < 5000; ++t) opt->step(model, oracle);
    const auto& bc = dynamic_cast<const optim::DpAdamBc&>(*opt);
    QCOMPARE(bc.noise_variance(), 0.0625);
    const double c2 = 1 - std::pow(0.999, 5000.0);
    const double mean_v_hat = bc.second_moment().cast<double>().mean() / c2;
    DPLAB_COMPARE_REL(mean_v_hat, bc.noise_variance(), 0.02);
  }

  void errorsNameTheField() {
    Script s;
    OptimizerSpec spec = hand_spec();
    spec.epsilon = 0;
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              optim::make_optimizer(spec, s.shape);
            }).startsWith("epsilon = 0"));
    spec.epsilon = 1e-60;  // not a float: the floor would be 0
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              optim::make_optimizer(spec, s.shape);
            }).startsWith("epsilon = "));
    spec = hand_spec();
    spec.beta2 = 1;
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              optim::make_optimizer(spec, s.shape);
            }).startsWith("beta2 = 1"));
    RunShape shape = s.shape;
    shape.dp.clip = models::kNoClipping;  // noise sigma C would be infinite
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              optim::make_optimizer(hand_spec(), shape);
            }).startsWith("clip = "));
  }
};

DPLAB_TEST_MAIN(TestDpAdamBc)
#include "test_dp_adam_bc.moc"
