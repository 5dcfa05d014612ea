// Gradients of the three models (linear, logistic binary/multinomial, TLNN), checked against an
// independent double-precision reference with explicit per-example gradients
// (models_reference.h), itself checked by central finite differences:
//   - sum of gradients (clip = kNoClipping) = sum_i g_i;
//   - per-example norms from the rank-1 identity = ||g_i|| of single-example calls;
//   - clipped sum = sum_i min(1, C/||g_i||) g_i for C where all, some and none clip;
//   - any number of rows (more than kBlockRows) = the same computation on pieces.
// Shapes are chosen so that both branches of the clipped GEMM (diag(c) applied to the errors or
// to the narrower inputs) are exercised.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/random.h"
#include "engine/models_reference.h"
#include "models/model.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using dplab::testing::ReferenceShape;

namespace {

// Float kernels vs the double reference: float eps = 6e-8; a few hundred roundings in the dot
// products and the head leave a relative error of order 1e-6; 2e-5 keeps a margin of 10x.
constexpr double kFloatVsDouble = 2e-5;
// Central differences in double with step 1e-6: truncation ~1e-12, rounding ~1e-16/1e-6 = 1e-10.
constexpr double kDoubleFiniteDifference = 1e-7;
constexpr double kDoubleStep = 1e-6;
// Central differences on the float model: step 1e-2 along a unit direction; rounding of the
// float loss (~1e-7 * |L| / 1e-2) and curvature (~1e-4 |L'''|) stay far below 1e-2 of ||g||.
constexpr double kFloatFiniteDifference = 1e-2;
constexpr double kFloatStep = 1e-2;
constexpr Index kRows = 9;

struct Fixture {
  ReferenceShape shape;
  std::unique_ptr<models::Model> model;
  Matrix x;
  Vector y;
};

Fixture make_fixture(models::ModelKind kind, int d, int num_classes, int hidden, std::uint64_t seed,
                     Index rows = kRows) {
  Fixture f;
  f.shape = {kind, d, num_classes, hidden};
  models::ModelSpec spec;
  spec.kind = kind;
  spec.hidden_units = hidden > 0 ? hidden : 100;
  f.model = models::make_model(spec, d, num_classes);
  Rng rng(seed);
  // Non-trivial parameters (not the zero start) so every term of the gradient is exercised.
  f.model->params() = testing::random_matrix(f.model->num_params(), 1, -0.6, 0.6, rng);
  f.x = testing::random_matrix(rows, d, -1.0, 1.0, rng);
  f.y = testing::random_targets(rows, num_classes, rng);
  return f;
}

Eigen::VectorXd as_double(const Vector& v) {
  return v.cast<double>();
}

void add_model_rows() {
  QTest::addColumn<int>("kind");
  QTest::addColumn<int>("input_dim");
  QTest::addColumn<int>("num_classes");
  QTest::addColumn<int>("hidden");
  using K = models::ModelKind;
  // name: kind, d, classes, hidden. Comments: which operand diag(c) scales in each layer.
  QTest::newRow("linear d=4") << int(K::kLinearRegression) << 4 << 0 << 0;             // E
  QTest::newRow("linear d=1") << int(K::kLinearRegression) << 1 << 0 << 0;             // E
  QTest::newRow("logistic binary d=5") << int(K::kLogisticRegression) << 5 << 2 << 0;  // E
  QTest::newRow("logistic k=3 d=6") << int(K::kLogisticRegression) << 6 << 3 << 0;     // E
  QTest::newRow("logistic k=4 d=2") << int(K::kLogisticRegression) << 2 << 4 << 0;     // X
  QTest::newRow("tlnn binary 4-6-1") << int(K::kTwoLayerNetwork) << 4 << 2 << 6;       // X, E2
  QTest::newRow("tlnn 7-5-3") << int(K::kTwoLayerNetwork) << 7 << 3 << 5;              // E1, E2
  QTest::newRow("tlnn 3-2-4") << int(K::kTwoLayerNetwork) << 3 << 4 << 2;              // E1, A1
}

Fixture fixture_from_row(std::uint64_t seed, Index rows = kRows) {
  QFETCH(int, kind);
  QFETCH(int, input_dim);
  QFETCH(int, num_classes);
  QFETCH(int, hidden);
  return make_fixture(static_cast<models::ModelKind>(kind), input_dim, num_classes, hidden, seed,
                      rows);
}

// Explicit per-example gradients from single-example engine calls (m = 1, no clipping).
std::vector<Eigen::VectorXd> single_example_gradients(Fixture& f, std::vector<double>* norms) {
  std::vector<Eigen::VectorXd> gradients;
  Vector g(f.model->num_params());
  Vector norm(1);
  for (Index i = 0; i < f.x.rows(); ++i) {
    f.model->clipped_gradient_sum(f.x.row(i), f.y.segment(i, 1), models::kNoClipping, g, norm);
    gradients.push_back(as_double(g));
    if (norms != nullptr) norms->push_back(norm[0]);
  }
  return gradients;
}

}  // namespace

class TestModelsGradients : public QObject {
  Q_OBJECT

 private slots:
  void referenceMatchesFiniteDifferences_data() { add_model_rows(); }
  // The double reference is the gradient of the double reference loss (all coordinates).
  void referenceMatchesFiniteDifferences() {
    Fixture f = fixture_from_row(11);
    const Eigen::VectorXd theta = as_double(f.model->params());
    Eigen::VectorXd gradient = Eigen::VectorXd::Zero(theta.size()), g_i;
    for (Index i = 0; i < f.x.rows(); ++i) {
      testing::reference_example(f.shape, theta, f.x.row(i).transpose().cast<double>(), f.y[i],
                                 g_i);
      gradient += g_i;
    }
    for (Index j = 0; j < theta.size(); ++j) {
      Eigen::VectorXd plus = theta, minus = theta;
      plus[j] += kDoubleStep;
      minus[j] -= kDoubleStep;
      const double fd = (testing::reference_loss_sum(f.shape, plus, f.x, f.y) -
                         testing::reference_loss_sum(f.shape, minus, f.x, f.y)) /
                        (2 * kDoubleStep);
      DPLAB_COMPARE_ABS(fd, gradient[j], kDoubleFiniteDifference * (1 + std::abs(gradient[j])));
    }
  }

  void gradientSumMatchesReference_data() { add_model_rows(); }
  // clip = kNoClipping: the plain sum of per-example gradients, and the summed loss.
  void gradientSumMatchesReference() {
    Fixture f = fixture_from_row(12);
    const Eigen::VectorXd theta = as_double(f.model->params());
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(theta.size()), g_i;
    double expected_loss = 0;
    for (Index i = 0; i < f.x.rows(); ++i) {
      expected_loss += testing::reference_example(
          f.shape, theta, f.x.row(i).transpose().cast<double>(), f.y[i], g_i);
      expected += g_i;
    }
    Vector gradient(f.model->num_params());
    Vector norms(f.x.rows());
    const double loss =
        f.model->clipped_gradient_sum(f.x, f.y, models::kNoClipping, gradient, norms);
    DPLAB_COMPARE_VECTOR_REL(as_double(gradient), expected, kFloatVsDouble);
    DPLAB_COMPARE_REL(loss, expected_loss, kFloatVsDouble);
    DPLAB_COMPARE_REL(f.model->loss_sum(f.x, f.y), expected_loss, kFloatVsDouble);
  }

  void floatFiniteDifferences_data() { add_model_rows(); }
  // Central differences of the float model's own loss_sum along the gradient direction and along
  // random unit directions.
  void floatFiniteDifferences() {
    Fixture f = fixture_from_row(13);
    Vector gradient(f.model->num_params());
    Vector norms(0);
    f.model->clipped_gradient_sum(f.x, f.y, models::kNoClipping, gradient, norms);
    const Vector theta = f.model->params();
    const double gradient_norm = gradient.cast<double>().norm();
    Rng rng(99);
    for (int trial = 0; trial < 4; ++trial) {
      Eigen::VectorXd direction =
          trial == 0
              ? Eigen::VectorXd(gradient.cast<double>())
              : Eigen::VectorXd(testing::random_matrix(theta.size(), 1, -1, 1, rng).cast<double>());
      direction.normalize();
      const Vector step = (kFloatStep * direction).cast<float>();
      f.model->params() = theta + step;
      const double up = f.model->loss_sum(f.x, f.y);
      f.model->params() = theta - step;
      const double down = f.model->loss_sum(f.x, f.y);
      f.model->params() = theta;
      const double fd = (up - down) / (2 * kFloatStep);
      DPLAB_COMPARE_ABS(fd, gradient.cast<double>().dot(direction),
                        kFloatFiniteDifference * gradient_norm);
    }
  }

  void perExampleNormsMatchExplicitGradients_data() { add_model_rows(); }
  // Batched norms (rank-1 identity, no materialised g_i) = norms of explicit single-example
  // gradients; those gradients = the reference's.
  void perExampleNormsMatchExplicitGradients() {
    Fixture f = fixture_from_row(14);
    std::vector<double> single_norms;
    const auto gradients = single_example_gradients(f, &single_norms);
    Vector sum(f.model->num_params());
    Vector norms(f.x.rows());
    f.model->clipped_gradient_sum(f.x, f.y, models::kNoClipping, sum, norms);
    const Eigen::VectorXd theta = as_double(f.model->params());
    Eigen::VectorXd reference;
    for (Index i = 0; i < f.x.rows(); ++i) {
      testing::reference_example(f.shape, theta, f.x.row(i).transpose().cast<double>(), f.y[i],
                                 reference);
      DPLAB_COMPARE_VECTOR_REL(gradients[i], reference, kFloatVsDouble);
      DPLAB_COMPARE_REL(norms[i], gradients[i].norm(), kFloatVsDouble);
      DPLAB_COMPARE_REL(single_norms[i], reference.norm(), kFloatVsDouble);
      DPLAB_COMPARE_REL(norms[i], reference.norm(), kFloatVsDouble);
    }
  }

  void clippedSumMatchesExplicitClipping_data() { add_model_rows(); }
  // sum_i min(1, C/||g_i||) g_i from explicit g_i, for C where all, some, and no examples clip.
  void clippedSumMatchesExplicitClipping() {
    Fixture f = fixture_from_row(15);
    const auto gradients = single_example_gradients(f, nullptr);
    std::vector<double> sorted;
    for (const auto& g : gradients) sorted.push_back(g.norm());
    std::sort(sorted.begin(), sorted.end());
    QVERIFY2(sorted.front() > 0, "fixture should have non-zero per-example gradients");
    const double mid = 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
    struct Level {
      double clip;
      Index expected_clipped;  // -1: some but not all
    };
    const Level levels[] = {{1e-3 * sorted.front(), kRows}, {mid, -1}, {1e3 * sorted.back(), 0}};
    for (const Level& level : levels) {
      Eigen::VectorXd expected = Eigen::VectorXd::Zero(f.model->num_params());
      Index clipped = 0;
      for (const auto& g : gradients) {
        const double factor = std::min(1.0, level.clip / g.norm());
        clipped += factor < 1.0 ? 1 : 0;
        // The clipped contribution respects the bound C (the sensitivity of the sum).
        QVERIFY(factor * g.norm() <= level.clip * (1 + 1e-12));
        expected += factor * g;
      }
      if (level.expected_clipped >= 0) {
        QCOMPARE(clipped, level.expected_clipped);
      } else {
        QVERIFY(clipped > 0 && clipped < kRows);
      }
      Vector sum(f.model->num_params());
      Vector norms(f.x.rows());
      f.model->clipped_gradient_sum(f.x, f.y, level.clip, sum, norms);
      DPLAB_COMPARE_VECTOR_REL(as_double(sum), expected, kFloatVsDouble);
      // A sum of kRows contributions of norm <= C has norm <= kRows C.
      QVERIFY(sum.cast<double>().norm() <= kRows * level.clip * (1 + kFloatVsDouble));
      for (Index i = 0; i < f.x.rows(); ++i) {
        DPLAB_COMPARE_REL(norms[i], gradients[i].norm(), kFloatVsDouble);  // unclipped norms
      }
    }
  }

  void skippedNormsGiveSameSum_data() { add_model_rows(); }
  // clip = kNoClipping with empty norms (a non-private step) = the same sum with norms.
  void skippedNormsGiveSameSum() {
    Fixture f = fixture_from_row(16);
    Vector with(f.model->num_params()), without(f.model->num_params());
    Vector norms(f.x.rows()), none(0);
    const double loss_with =
        f.model->clipped_gradient_sum(f.x, f.y, models::kNoClipping, with, norms);
    const double loss_without =
        f.model->clipped_gradient_sum(f.x, f.y, models::kNoClipping, without, none);
    QCOMPARE(loss_without, loss_with);
    QVERIFY(with == without);
  }

  void emptyBatchGivesZero_data() { add_model_rows(); }
  // An empty Poisson lot: zero sum, zero loss.
  void emptyBatchGivesZero() {
    Fixture f = fixture_from_row(17);
    Vector sum = Vector::Constant(f.model->num_params(), 7.f);
    Vector norms(0);
    const double loss = f.model->clipped_gradient_sum(f.x.topRows(0), f.y.head(0), 1.0, sum, norms);
    QCOMPARE(loss, 0.0);
    QVERIFY(sum.isZero(0));
    QCOMPARE(f.model->loss_sum(f.x.topRows(0), f.y.head(0)), 0.0);
  }

  void manyRowsEqualPieces_data() { add_model_rows(); }
  // More rows than kBlockRows (processed in blocks) = the same calls on uneven pieces.
  void manyRowsEqualPieces() {
    const Index n = 2 * models::kBlockRows + 452;
    Fixture f = fixture_from_row(18, n);
    const Index cuts[] = {0, 700, 1800, n};
    const double clip = 0.5;
    Vector sum(f.model->num_params()), piece_sum(f.model->num_params());
    Vector norms(n);
    const double loss = f.model->clipped_gradient_sum(f.x, f.y, clip, sum, norms);
    Eigen::VectorXd pieces_sum = Eigen::VectorXd::Zero(f.model->num_params());
    double pieces_loss = 0, pieces_loss_only = 0;
    for (int p = 0; p + 1 < 4; ++p) {
      const Index start = cuts[p], rows = cuts[p + 1] - cuts[p];
      Vector piece_norms(rows);
      pieces_loss += f.model->clipped_gradient_sum(
          f.x.middleRows(start, rows), f.y.segment(start, rows), clip, piece_sum, piece_norms);
      pieces_loss_only += f.model->loss_sum(f.x.middleRows(start, rows), f.y.segment(start, rows));
      pieces_sum += as_double(piece_sum);
      DPLAB_COMPARE_VECTOR_REL(as_double(norms.segment(start, rows)), as_double(piece_norms), 1e-6);
    }
    // Only the order of float additions in the GEMMs differs between the two.
    DPLAB_COMPARE_VECTOR_REL(as_double(sum), pieces_sum, 1e-5);
    DPLAB_COMPARE_REL(loss, pieces_loss, 1e-6);
    DPLAB_COMPARE_REL(f.model->loss_sum(f.x, f.y), pieces_loss_only, 1e-6);
    DPLAB_COMPARE_REL(loss,
                      testing::reference_loss_sum(f.shape, as_double(f.model->params()), f.x, f.y),
                      kFloatVsDouble);

    // evaluate on the whole set = evaluate on the pieces, combined by row counts.
    data::Dataset all;
    all.features = f.x;
    all.targets = f.y;
    all.num_classes = f.shape.num_classes;
    const models::Evaluation whole = f.model->evaluate(all);
    double mean_loss = 0, accuracy = 0, mse = 0;
    for (int p = 0; p + 1 < 4; ++p) {
      data::Dataset piece;
      piece.features = f.x.middleRows(cuts[p], cuts[p + 1] - cuts[p]);
      piece.targets = f.y.segment(cuts[p], cuts[p + 1] - cuts[p]);
      piece.num_classes = f.shape.num_classes;
      const models::Evaluation e = f.model->evaluate(piece);
      const double weight = static_cast<double>(piece.size()) / static_cast<double>(n);
      mean_loss += weight * e.mean_loss;
      accuracy += weight * e.accuracy;
      mse += weight * e.mse;
    }
    DPLAB_COMPARE_REL(whole.mean_loss, mean_loss, 1e-6);
    if (f.shape.num_classes == 0) {
      QVERIFY(std::isnan(whole.accuracy));
      DPLAB_COMPARE_REL(whole.mse, mse, 1e-6);
      DPLAB_COMPARE_REL(whole.mean_loss, whole.mse / 2, 1e-6);
    } else {
      QVERIFY(std::isnan(whole.mse));
      DPLAB_COMPARE_ABS(whole.accuracy, accuracy, 1e-12);
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestModelsGradients)
#include "test_models_gradients.moc"
