// NoisyGradientOracle on the hand-computable QuadraticTestModel (g_i = theta - x_i):
//   - sigma = 0, no clipping: output = sum_{i in lot} g_i / L for the sampled lot (not / |lot|),
//     and the returned loss is the lot's mean loss;
//   - clipping: output = sum_{i in lot} min(1, C/||g_i||) g_i / L;
//   - q = 1 (L = n): every example, no gather;
//   - noise: output - (deterministic part) has per-coordinate std sigma C / L (statistical,
//     wide margin), mean 0; an empty-lot query is still noised;
//   - same seed => same outputs; invalid settings throw InvalidArgument naming the field.
// GCC 12 false positive in its AVX-512 headers under Eigen (bug 105593); see gaussian_noise.cpp.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <QTest>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/random.h"
#include "dp_gradient/noisy_gradient.h"
#include "engine/quadratic_test_model.h"
#include "models/model.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using dplab::testing::QuadraticTestModel;
using privacy::DpSettings;
using privacy::NoisyGradientOracle;

namespace {

// Float gradient (computed in double, rounded once) vs a double reference: 1e-6 relative to
// the largest entry, plus float rounding of the division by L.
constexpr double kFloatTolerance = 2e-6;

Matrix random_points(Index n, Index d, std::uint64_t seed, double spread) {
  Rng rng(seed);
  Matrix x(n, d);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < d; ++j) x(i, j) = static_cast<float>(spread * (2 * rng.uniform() - 1));
  return x;
}

// sum_{i in lot} min(1, C/||g_i||) g_i / L and the lot's mean loss, in double.
Eigen::VectorXd reference_mean(const Vector& theta, const Matrix& x, const std::vector<Index>& lot,
                               double clip, double lot_size, double* mean_loss = nullptr) {
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(theta.size());
  double loss = 0;
  for (Index i : lot) {
    const Eigen::VectorXd g = theta.cast<double>() - x.row(i).transpose().cast<double>();
    sum += std::min(1.0, clip / g.norm()) * g;
    loss += 0.5 * g.squaredNorm();
  }
  if (mean_loss) *mean_loss = lot.empty() ? 0 : loss / lot.size();
  return sum / lot_size;
}

QString construction_error(const data::Dataset& train, const DpSettings& settings) {
  QuadraticTestModel model(train.dim());
  try {
    NoisyGradientOracle oracle(train, model, settings, 1);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TestNoisyGradient : public QObject {
  Q_OBJECT

 private slots:
  void noiselessUnclippedIsSumOverLotDividedByL() {
    const data::Dataset train = testing::make_points(random_points(200, 4, 1, 3.0));
    QuadraticTestModel model(4);
    model.params() << 0.5f, -1.0f, 2.0f, 0.25f;
    const DpSettings settings{models::kNoClipping, 0.0, 20.0};
    NoisyGradientOracle oracle(train, model, settings, 42);
    QCOMPARE(oracle.sampling_rate(), 0.1);
    Vector gradient(4);
    for (int query = 1; query <= 30; ++query) {
      const double loss = oracle.query(gradient);
      const std::vector<Index>& lot = oracle.last_lot_indices();
      QCOMPARE(oracle.last_lot_size(), Index(lot.size()));
      double mean_loss = 0;
      const Eigen::VectorXd expected = reference_mean(model.params(), train.features, lot,
                                                      models::kNoClipping, 20.0, &mean_loss);
      const double scale = std::max(1.0, expected.cwiseAbs().maxCoeff());
      for (Index j = 0; j < 4; ++j)
        DPLAB_COMPARE_ABS(gradient[j], expected[j], kFloatTolerance * scale);
      DPLAB_COMPARE_REL(loss, mean_loss, 1e-12);
      QCOMPARE(oracle.queries_made(), std::int64_t(query));
    }
    QCOMPARE(model.gradient_calls() <= 30, true);  // empty lots skip the model
  }

  void clippingIsApplied() {
    // Points spread +-3 around theta: most ||g_i|| exceed C = 0.5, some do not.
    const data::Dataset train = testing::make_points(random_points(300, 3, 2, 3.0));
    QuadraticTestModel model(3);
    const DpSettings settings{0.5, 0.0, 30.0};
    NoisyGradientOracle oracle(train, model, settings, 7);
    Vector gradient(3);
    int clipped = 0, unclipped = 0;
    for (int query = 0; query < 20; ++query) {
      model.params() = Vector::Constant(3, 0.1f * query);
      oracle.query(gradient);
      const std::vector<Index>& lot = oracle.last_lot_indices();
      const Eigen::VectorXd expected =
          reference_mean(model.params(), train.features, lot, 0.5, 30.0);
      for (Index j = 0; j < 3; ++j) DPLAB_COMPARE_ABS(gradient[j], expected[j], 1e-6);
      for (Index i : lot) {
        ((model.params() - train.features.row(i).transpose()).norm() > 0.5 ? clipped : unclipped)++;
      }
      // Each clipped term has norm <= C, so ||mean|| <= |lot| C / L.
      QVERIFY(gradient.norm() <= lot.size() * 0.5 / 30.0 + 1e-6);
    }
    QVERIFY(clipped > 0 && unclipped > 0);
  }

  void rateOneUsesEveryExample() {
    Matrix x(2, 3);
    x << 1, 2, -1, 3, 0, 1;  // mean (2, 1, 0)
    const data::Dataset train = testing::make_points(x);
    QuadraticTestModel model(3);
    model.params() << 0.5f, -1.0f, 2.0f;
    NoisyGradientOracle oracle(train, model, DpSettings{models::kNoClipping, 0.0, 2.0}, 1);
    QCOMPARE(oracle.sampling_rate(), 1.0);
    Vector gradient(3);
    const double loss = oracle.query(gradient);
    QCOMPARE(oracle.last_lot_size(), Index(2));
    // theta - mean = (-1.5, -2, 2); losses 0.5 * (0.25 + 9 + 9) and 0.5 * (6.25 + 1 + 1).
    DPLAB_COMPARE_ABS(gradient[0], -1.5, 1e-7);
    DPLAB_COMPARE_ABS(gradient[1], -2.0, 1e-7);
    DPLAB_COMPARE_ABS(gradient[2], 2.0, 1e-7);
    DPLAB_COMPARE_REL(loss, (9.125 + 4.125) / 2, 1e-12);
  }

  void noiseStdIsSigmaCOverL() {
    // Data gradient known exactly (sigma = 0 twin with the same seed would sample the same lot
    // but not the same noise stream, so compute the deterministic part from the lot instead).
    const data::Dataset train = testing::make_points(random_points(100, 50, 3, 1.0));
    QuadraticTestModel model(50);
    const double sigma = 2.0, clip = 0.8, lot_size = 10.0;
    NoisyGradientOracle oracle(train, model, DpSettings{clip, sigma, lot_size}, 99);
    DPLAB_COMPARE_REL(oracle.noise_std_of_mean(), sigma * clip / lot_size, 1e-15);
    Vector gradient(50);
    double sum = 0, sum_sq = 0, count = 0;
    for (int query = 0; query < 4000; ++query) {
      oracle.query(gradient);
      const Eigen::VectorXd noise =
          gradient.cast<double>() -
          reference_mean(model.params(), train.features, oracle.last_lot_indices(), clip, lot_size);
      sum += noise.sum();
      sum_sq += noise.squaredNorm();
      count += noise.size();
    }
    const double expected_std = sigma * clip / lot_size;  // 0.16
    const double mean = sum / count, std = std::sqrt(sum_sq / count - mean * mean);
    // 200,000 samples: relative std of the std estimate 1/sqrt(2N) = 0.16%; 2% is ~12 std.
    DPLAB_COMPARE_REL(std, expected_std, 0.02);
    DPLAB_COMPARE_ABS(mean, 0.0, 6 * expected_std / std::sqrt(count));
  }

  void emptyLotIsStillNoised() {
    // q = 1e-4 with n = 10: almost every lot is empty; the output must still be noise.
    const data::Dataset train = testing::make_points(random_points(10, 5, 4, 1.0));
    QuadraticTestModel model(5);
    NoisyGradientOracle oracle(train, model, DpSettings{1.0, 1.0, 1e-3}, 5);
    Vector gradient(5);
    const double loss = oracle.query(gradient);
    QCOMPARE(oracle.last_lot_size(), Index(0));
    QCOMPARE(loss, 0.0);
    QVERIFY(gradient.cwiseAbs().maxCoeff() > 0);
  }

  void deterministicPerSeed() {
    const data::Dataset train = testing::make_points(random_points(500, 8, 5, 2.0));
    QuadraticTestModel m1(8), m2(8), m3(8);
    const DpSettings settings{1.0, 1.5, 25.0};
    NoisyGradientOracle a(train, m1, settings, 123), b(train, m2, settings, 123),
        c(train, m3, settings, 124);
    Vector ga(8), gb(8), gc(8);
    for (int q = 0; q < 10; ++q) {
      QCOMPARE(a.query(ga), b.query(gb));
      c.query(gc);
      QVERIFY(ga == gb);
      QVERIFY(ga != gc);
      QVERIFY(a.last_lot_indices() == b.last_lot_indices());
    }
  }

  void invalidSettingsNameTheField() {
    const data::Dataset train = testing::make_points(random_points(100, 2, 6, 1.0));
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QCOMPARE(construction_error(train, {1.0, 1.0, 0.0}), QString("lot_size = 0 must be > 0"));
    QVERIFY(construction_error(train, {1.0, 1.0, -5.0}).startsWith("lot_size = -5"));
    QVERIFY(construction_error(train, {1.0, 1.0, 101.0}).startsWith("lot_size = 101 must be <="));
    QVERIFY(construction_error(train, {1.0, 1.0, nan}).startsWith("lot_size"));
    QCOMPARE(construction_error(train, {0.0, 1.0, 10.0}), QString("clip = 0 must be > 0"));
    QVERIFY(construction_error(train, {-1.0, 1.0, 10.0}).startsWith("clip = -1"));
    QVERIFY(construction_error(train, {nan, 1.0, 10.0}).startsWith("clip"));
    QVERIFY(construction_error(train, {1.0, -1.0, 10.0}).startsWith("noise_multiplier = -1"));
    QVERIFY(construction_error(train, {1.0, inf, 10.0}).startsWith("noise_multiplier"));
    QVERIFY(construction_error(train, {inf, 1.0, 10.0}).startsWith("clip = inf must be finite"));
    QVERIFY(construction_error(train, {inf, 0.0, 10.0}).isEmpty());   // non-private baseline
    QVERIFY(construction_error(train, {1.0, 1.0, 100.0}).isEmpty());  // L = n
    const data::Dataset empty = testing::make_points(Matrix(0, 2));
    QVERIFY(construction_error(empty, {1.0, 1.0, 1.0}).contains("empty"));
  }

  void wrongGradientSizeRejected() {
    const data::Dataset train = testing::make_points(random_points(10, 3, 7, 1.0));
    QuadraticTestModel model(3);
    NoisyGradientOracle oracle(train, model, DpSettings{1.0, 1.0, 5.0}, 1);
    Vector wrong(4);
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, oracle.query(wrong));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestNoisyGradient)
#include "test_noisy_gradient.moc"
