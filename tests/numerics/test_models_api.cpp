// The models' hand-checkable behaviour: loss and gradient values on 2-example toys (zero
// weights give ln 2, ln k, 1/2 y^2 per example), stability at extreme logits, evaluate() on
// data with known predictions, the factory, seeded initialisation, and the error messages for
// shape mismatches and invalid names.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/random.h"
#include "engine/models_reference.h"
#include "models/dense_layer.h"
#include "models/model.h"
#include "models/two_layer_network.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

// Hand-computed toys are exact up to float rounding of the inputs' arithmetic.
constexpr double kToy = 1e-6;

std::unique_ptr<models::Model> make(models::ModelKind kind, Index d, int classes,
                                    int hidden = 100) {
  models::ModelSpec spec;
  spec.kind = kind;
  spec.hidden_units = hidden;
  return models::make_model(spec, d, classes);
}

// The TLNN's per-example squared norms as two_layer_network.cpp computed them before they were
// summed by columns (a function of its own, as it was compiled inside block_gradient).
template <class E1, class A1, class E2>
__attribute__((noinline)) void former_tlnn_norms(const E1& e1, const A1& a1, const E2& e2,
                                                 Vector& squared) {
  squared.array() = (squared.array() + 1.f) * e1.rowwise().squaredNorm().array() +
                    (a1.rowwise().squaredNorm().array() + 1.f) * e2.rowwise().squaredNorm().array();
}

Matrix rows2(float a, float b, float c, float d) {
  Matrix x(2, 2);
  x << a, b, c, d;
  return x;
}

Vector vec(std::initializer_list<float> values) {
  Vector v(static_cast<Index>(values.size()));
  Index i = 0;
  for (float value : values) v[i++] = value;
  return v;
}

// The InvalidArgument message thrown by f, or "(no error)".
QString error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    return "(wrong exception type) " + QString::fromStdString(e.what());
  }
  return "(no error)";
}

#define DPLAB_VERIFY_ERROR(call, ...)                                                       \
  do {                                                                                      \
    const QString dplab_msg_ = error_of([&] { call; });                                     \
    for (const char* dplab_part_ : {__VA_ARGS__}) {                                         \
      QVERIFY2(dplab_msg_.contains(dplab_part_),                                            \
               qPrintable("message \"" + dplab_msg_ + "\" lacks \"" + dplab_part_ + "\"")); \
    }                                                                                       \
  } while (0)

data::Dataset dataset(const Matrix& x, const Vector& y, int classes) {
  data::Dataset d;
  d.name = "toy";
  d.features = x;
  d.targets = y;
  d.num_classes = classes;
  return d;
}

double log_sum_exp(std::initializer_list<double> z) {
  double top = -std::numeric_limits<double>::infinity(), total = 0;
  for (double v : z) top = std::max(top, v);
  for (double v : z) total += std::exp(v - top);
  return top + std::log(total);
}

}  // namespace

class TestModelsApi : public QObject {
  Q_OBJECT

 private slots:
  // x1 = (1, 2), y = 1; x2 = (3, -1), y = 0; w = 0: p = 1/2, loss ln 2 each, e = (-1/2, 1/2),
  // sum of gradients w: -1/2 x1 + 1/2 x2 = (1, -3/2), b: 0; ||g_i|| = 1/2 sqrt(||x_i||^2 + 1).
  void binaryLogisticToy() {
    auto model = make(models::ModelKind::kLogisticRegression, 2, 2);
    QCOMPARE(model->num_params(), Index{3});
    const Matrix x = rows2(1, 2, 3, -1);
    const Vector y = vec({1, 0});
    Vector g(3), norms(2);
    DPLAB_COMPARE_REL(model->clipped_gradient_sum(x, y, models::kNoClipping, g, norms),
                      2 * std::log(2.0), kToy);
    DPLAB_COMPARE_ABS(g[0], 1.0, kToy);
    DPLAB_COMPARE_ABS(g[1], -1.5, kToy);
    DPLAB_COMPARE_ABS(g[2], 0.0, kToy);
    DPLAB_COMPARE_REL(norms[0], 0.5 * std::sqrt(6.0), kToy);
    DPLAB_COMPARE_REL(norms[1], 0.5 * std::sqrt(11.0), kToy);
    DPLAB_COMPARE_REL(model->loss_sum(x, y), 2 * std::log(2.0), kToy);
    // C = 1: both clipped to norm C' = 1 - 1e-5 (the float safety margin that keeps every
    // clipped norm <= C): g = (C'/||g1||) g1 + (C'/||g2||) g2.
    model->clipped_gradient_sum(x, y, 1.0, g, norms);
    const double clipped_to = 1.0 - 1e-5;
    const double c1 = clipped_to / (0.5 * std::sqrt(6.0)),
                 c2 = clipped_to / (0.5 * std::sqrt(11.0));
    DPLAB_COMPARE_REL(g[0], c1 * -0.5 * 1 + c2 * 0.5 * 3, kToy);
    DPLAB_COMPARE_REL(g[1], c1 * -0.5 * 2 + c2 * 0.5 * -1, kToy);
    DPLAB_COMPARE_REL(g[2], c1 * -0.5 + c2 * 0.5, kToy);
  }

  // k = 3, W = 0: p = 1/3, loss ln 3 each; y = (0, 2): e1 = (-2/3, 1/3, 1/3), e2 = (1/3, 1/3,
  // -2/3).
  void multinomialLogisticToy() {
    auto model = make(models::ModelKind::kLogisticRegression, 2, 3);
    QCOMPARE(model->num_params(), Index{9});
    const Matrix x = rows2(1, 2, 3, -1);
    const Vector y = vec({0, 2});
    Vector g(9), norms(2);
    DPLAB_COMPARE_REL(model->clipped_gradient_sum(x, y, models::kNoClipping, g, norms),
                      2 * std::log(3.0), kToy);
    // W row-major: row r = x1_r e1 + x2_r e2; then b = e1 + e2.
    const double expected[9] = {1. / 3, 4. / 3,  -5. / 3, -5. / 3, 1. / 3,
                                4. / 3, -1. / 3, 2. / 3,  -1. / 3};
    for (int j = 0; j < 9; ++j) DPLAB_COMPARE_ABS(g[j], expected[j], kToy);
    // ||g_i||^2 = (||x_i||^2 + 1) ||e_i||^2 = 6 * 6/9 and 11 * 6/9.
    DPLAB_COMPARE_REL(norms[0], 2.0, kToy);
    DPLAB_COMPARE_REL(norms[1], std::sqrt(66.0) / 3, kToy);
  }

  // w = 0: y_hat = 0, loss 1/2 y^2; e = -y = (-2, 3): g_w = -2 x1 + 3 x2 = (7, -7), g_b = 1.
  void linearToy() {
    auto model = make(models::ModelKind::kLinearRegression, 2, 0);
    const Matrix x = rows2(1, 2, 3, -1);
    const Vector y = vec({2, -3});
    Vector g(3), norms(2);
    DPLAB_COMPARE_REL(model->clipped_gradient_sum(x, y, models::kNoClipping, g, norms), 6.5, kToy);
    DPLAB_COMPARE_ABS(g[0], 7.0, kToy);
    DPLAB_COMPARE_ABS(g[1], -7.0, kToy);
    DPLAB_COMPARE_ABS(g[2], 1.0, kToy);
    DPLAB_COMPARE_REL(norms[0], 2 * std::sqrt(6.0), kToy);
    DPLAB_COMPARE_REL(norms[1], 3 * std::sqrt(11.0), kToy);
  }

  // All-zero TLNN: output 0, loss ln k; only b2 has a gradient (a1 = relu(0) = 0, W2 = 0).
  void zeroNetworkToy() {
    auto model = make(models::ModelKind::kTwoLayerNetwork, 2, 3, 4);
    model->params().setZero();
    const Matrix x = rows2(1, 2, 3, -1);
    const Vector y = vec({0, 2});
    Vector g(model->num_params()), norms(2);
    DPLAB_COMPARE_REL(model->clipped_gradient_sum(x, y, models::kNoClipping, g, norms),
                      2 * std::log(3.0), kToy);
    const Index b2 = model->num_params() - 3;
    QVERIFY(g.head(b2).isZero(0));
    DPLAB_COMPARE_ABS(g[b2 + 0], -1. / 3, kToy);
    DPLAB_COMPARE_ABS(g[b2 + 1], 2. / 3, kToy);
    DPLAB_COMPARE_ABS(g[b2 + 2], -1. / 3, kToy);
    DPLAB_COMPARE_REL(norms[0], std::sqrt(6.0) / 3, kToy);  // ||e_i|| (a1 = 0: factor 1)
  }

  // |z| = 1000: no overflow, loss = |z| for the wrong class, ~0 for the right one.
  void extremeLogitsAreStable() {
    auto binary = make(models::ModelKind::kLogisticRegression, 2, 2);
    binary->params() = vec({1000, 0, 0});
    const Matrix x = rows2(1, 0, -1, 0);
    Vector g(3), norms(2);
    const double loss = binary->clipped_gradient_sum(x, vec({0, 0}), models::kNoClipping, g, norms);
    DPLAB_COMPARE_REL(loss, 1000.0, kToy);  // 1000 + log1p(e^-1000) + log1p(e^-1000)
    QVERIFY(g.allFinite());
    DPLAB_COMPARE_ABS(g[0], 1.0, kToy);  // e = (1, 0)
    DPLAB_COMPARE_ABS(g[2], 1.0, kToy);

    auto multi = make(models::ModelKind::kLogisticRegression, 2, 3);
    multi->params().setZero();
    multi->params().head(3) = vec({1000, 0, -1000});  // W row 0
    Vector gm(9), nm(2);
    // Row 1: z = (1000, 0, -1000), y = 2: loss 2000; row 2: z = (-1000, 0, 1000), y = 2: ~0.
    const double mloss = multi->clipped_gradient_sum(x, vec({2, 2}), models::kNoClipping, gm, nm);
    DPLAB_COMPARE_REL(mloss, 2000.0, kToy);
    QVERIFY(gm.allFinite() && nm.allFinite());
    DPLAB_COMPARE_REL(nm[0], std::sqrt(2.0) * std::sqrt(2.0),
                      kToy);  // e = (1, 0, -1), ||x||^2 + 1 = 2
    DPLAB_COMPARE_ABS(nm[1], 0.0, kToy);
  }

  // W = [[1, 0, 0], [0, 1, 0]], b = (0, 0, 1/2): predictions 0, 1, 2, 0 for labels 0, 1, 2, 2.
  void evaluateMultinomial() {
    auto model = make(models::ModelKind::kLogisticRegression, 2, 3);
    model->params() = vec({1, 0, 0, 0, 1, 0, 0, 0, 0.5f});
    Matrix x(4, 2);
    x << 2, 0, 0, 2, 0, 0, 1, 0;
    const models::Evaluation e = model->evaluate(dataset(x, vec({0, 1, 2, 2}), 3));
    DPLAB_COMPARE_REL(e.accuracy, 0.75, 1e-15);
    QVERIFY(std::isnan(e.mse));
    const double expected = (log_sum_exp({2, 0, 0.5}) - 2 + log_sum_exp({0, 2, 0.5}) - 2 +
                             log_sum_exp({0, 0, 0.5}) - 0.5 + log_sum_exp({1, 0, 0.5}) - 0.5) /
                            4;
    DPLAB_COMPARE_REL(e.mean_loss, expected, kToy);

    // The same decision function as a TLNN 2-2-3 with W1 = I (inputs are >= 0, so relu = id).
    auto net = make(models::ModelKind::kTwoLayerNetwork, 2, 3, 2);
    net->params() = vec({1, 0, 0, 1, /*b1*/ 0, 0, /*W2*/ 1, 0, 0, 0, 1, 0, /*b2*/ 0, 0, 0.5f});
    const models::Evaluation n = net->evaluate(dataset(x, vec({0, 1, 2, 2}), 3));
    DPLAB_COMPARE_REL(n.accuracy, 0.75, 1e-15);
    DPLAB_COMPARE_REL(n.mean_loss, expected, kToy);
  }

  // w = (1, -1), b = 1/4: z = 1.25, -0.75, 0.25, -0.75 -> predicted 1, 0, 1, 0 for 1, 1, 1, 0.
  void evaluateBinary() {
    auto model = make(models::ModelKind::kLogisticRegression, 2, 2);
    model->params() = vec({1, -1, 0.25f});
    Matrix x(4, 2);
    x << 1, 0, 0, 1, 0, 0, -1, 0;
    const models::Evaluation e = model->evaluate(dataset(x, vec({1, 1, 1, 0}), 2));
    DPLAB_COMPARE_REL(e.accuracy, 0.75, 1e-15);
    auto softplus = [](double z) { return std::log1p(std::exp(z)); };  // -log sigmoid(-z)
    const double expected =
        (softplus(-1.25) + softplus(0.75) + softplus(-0.25) + softplus(-0.75)) / 4;
    DPLAB_COMPARE_REL(e.mean_loss, expected, kToy);
    // z = 0 (sigmoid exactly 1/2) predicts class 0.
    model->params().setZero();
    DPLAB_COMPARE_REL(model->evaluate(dataset(x, vec({0, 1, 0, 1}), 2)).accuracy, 0.5, 1e-15);
  }

  // w = (1, 2), b = 1/2: residuals 0.5, -0.5, 0 -> MSE 1/6, mean loss 1/12, accuracy NaN.
  void evaluateLinear() {
    auto model = make(models::ModelKind::kLinearRegression, 2, 0);
    model->params() = vec({1, 2, 0.5f});
    Matrix x(3, 2);
    x << 1, 1, 0, -1, 2, 0;
    const models::Evaluation e = model->evaluate(dataset(x, vec({3, -1, 2.5f}), 0));
    DPLAB_COMPARE_REL(e.mse, 1.0 / 6, kToy);
    DPLAB_COMPARE_REL(e.mean_loss, 1.0 / 12, kToy);
    QVERIFY(std::isnan(e.accuracy));
  }

  void factoryShapesAndNames() {
    using K = models::ModelKind;
    for (K kind : {K::kLinearRegression, K::kLogisticRegression, K::kTwoLayerNetwork}) {
      QCOMPARE(models::parse_model_kind(models::to_string(kind)), kind);
    }
    QCOMPARE(models::parse_model_kind("TLNN"), K::kTwoLayerNetwork);
    // Fashion-MNIST shapes: 784 * 10 + 10; 784 * 100 + 100 + 100 * 10 + 10; binary: one output.
    QCOMPARE(make(K::kLogisticRegression, 784, 10)->num_params(), Index{7850});
    QCOMPARE(make(K::kTwoLayerNetwork, 784, 10)->num_params(), Index{79510});
    QCOMPARE(make(K::kLogisticRegression, 5, 2)->num_params(), Index{6});
    QCOMPARE(make(K::kTwoLayerNetwork, 5, 2, 3)->num_params(), Index{5 * 3 + 3 + 3 + 1});
    QCOMPARE(make(K::kLinearRegression, 5, 0)->num_params(), Index{6});
    QCOMPARE(make(K::kTwoLayerNetwork, 784, 10)->name(), std::string("tlnn"));
    QCOMPARE(make(K::kTwoLayerNetwork, 784, 10)->description(), std::string("tlnn 784-100-10"));
    QCOMPARE(make(K::kLogisticRegression, 784, 10)->description(), std::string("logistic 784-10"));
    QCOMPARE(make(K::kLinearRegression, 3, 0)->description(), std::string("linear 3-1"));
  }

  // Linear models start at zero; the TLNN is seeded (same seed, same parameters) and He/Glorot
  // scaled with zero biases; clones are independent copies.
  void initializationAndClone() {
    auto logistic = make(models::ModelKind::kLogisticRegression, 4, 3);
    logistic->params().setOnes();
    logistic->initialize(5);
    QVERIFY(logistic->params().isZero(0));

    models::TwoLayerNetwork net(10, 3, 8);
    const Vector fresh = net.params();
    QVERIFY(!fresh.isZero(0));  // constructor initialises with seed 0
    net.initialize(7);
    const Vector seven = net.params();
    net.initialize(7);
    QVERIFY(net.params() == seven);
    net.initialize(8);
    QVERIFY(net.params() != seven);
    net.initialize(0);
    QVERIFY(net.params() == fresh);
    const Index w1 = 10 * 8, b1 = 8, w2 = 8 * 3;
    QVERIFY(seven.segment(w1, b1).isZero(0));
    QVERIFY(seven.tail(3).isZero(0));
    QVERIFY(seven.head(w1).cwiseAbs().maxCoeff() <= std::sqrt(6.0 / 10));
    QVERIFY(seven.segment(w1 + b1, w2).cwiseAbs().maxCoeff() <= std::sqrt(6.0 / (8 + 3)));
    // Uniform(-a, a) has variance a^2 / 3 = 2 / fan_in (He); 80 draws: within 40%.
    const double variance = seven.head(w1).cast<double>().squaredNorm() / w1;
    QVERIFY2(std::abs(variance - 0.2) < 0.08, qPrintable(QString::number(variance)));

    auto copy = net.clone();
    QVERIFY(copy->params() == net.params());
    copy->params().setZero();
    QVERIFY(net.params() != copy->params());
  }

  // The TLNN's per-example norms (dense_layer.h two_layer_squared_norms) sum the column-major
  // e1 and a1 column by column; they must equal the row-wise Eigen expression the network used
  // before, on blocks inside larger buffers. Not bit for bit: the two are different code paths,
  // and how Eigen vectorises the row-wise sums depends on the CPU's vector width (-march=native on
  // an AVX-512 Xeon differed by 1.5e-5 on values near 2e4). Tolerance from the computation: each
  // result is (x + 1) |e1|^2 + (|a1|^2 + 1) |e2|^2, sums of at most h + 10 non-negative float
  // terms and 3 more roundings, so each path is within (h + 13) u of the exact value relative to
  // it (Higham, Accuracy and Stability, eq. 4.4 with all terms >= 0; u = 2^-24), and the two
  // paths within twice that of each other.
  void tlnnNormsEqualTheRowWiseExpression() {
    using models::detail::ColMatrix;
    for (const Index m : {Index{1}, Index{17}, Index{250}, Index{256}}) {
      for (const Index h : {Index{1}, Index{5}, Index{100}}) {
        Rng rng(static_cast<std::uint64_t>(m * 1000 + h));
        auto fill = [&](auto& matrix) {
          for (Index i = 0; i < matrix.rows(); ++i)
            for (Index j = 0; j < matrix.cols(); ++j)
              matrix(i, j) = static_cast<float>(3 * rng.uniform() - 1);
        };
        ColMatrix e1_buffer(256 + 7, h), a1_buffer(256 + 7, h);
        Matrix e2_buffer(256 + 7, 10);
        fill(e1_buffer);
        fill(a1_buffer);
        fill(e2_buffer);
        auto e1 = e1_buffer.topRows(m);
        auto a1 = a1_buffer.topRows(m);
        auto e2 = e2_buffer.topRows(m);
        Vector x_sq(m);
        for (Index i = 0; i < m; ++i) x_sq[i] = static_cast<float>(50 * rng.uniform());
        Vector expected = x_sq;
        former_tlnn_norms(e1, a1, e2, expected);
        Vector actual = x_sq, scratch1(m), scratch2(m), scratch3(m);
        models::detail::two_layer_squared_norms(e1, a1, e2, scratch1.data(), scratch2.data(),
                                                scratch3.data(), actual.data());
        const double relative_tolerance = 2.0 * static_cast<double>(h + 13) * 0x1p-24;
        double worst = 0;  // largest |actual - expected| / expected
        for (Index i = 0; i < m; ++i) {
          QVERIFY(expected[i] > 0);
          worst = std::max(worst,
                           std::abs(double(actual[i]) - double(expected[i])) / double(expected[i]));
        }
        QVERIFY2(worst <= relative_tolerance,
                 qPrintable(QString("m = %1, h = %2: relative difference %3 > %4")
                                .arg(m)
                                .arg(h)
                                .arg(worst, 0, 'g', 17)
                                .arg(relative_tolerance, 0, 'g', 17)));
      }
    }
  }

  // The small-head forward (k <= 16 outputs, eight rows at a time) against the product in
  // double: every row count around its blocks of 8, heads of 1, 2, 10 and 16, rows with a
  // stride wider than the input (a view into a wider matrix). Each z_io is a sum of d products
  // in float, so it is within d + 1 roundings of the exact value.
  void smallHeadForwardEqualsTheProduct() {
    const Index d = 37;
    for (const Index k : {Index{1}, Index{2}, Index{10}, Index{16}}) {
      for (const Index m : {Index{1}, Index{7}, Index{8}, Index{9}, Index{250}}) {
        Rng rng(static_cast<std::uint64_t>(100 * k + m));
        Matrix wide(m, d + 5);
        for (Index i = 0; i < m; ++i)
          for (Index j = 0; j < d + 5; ++j) wide(i, j) = static_cast<float>(2 * rng.uniform() - 1);
        std::vector<float> params(static_cast<std::size_t>(d * k + k));
        for (float& p : params) p = static_cast<float>(2 * rng.uniform() - 1);
        const MatrixView a = wide.leftCols(d);
        Matrix out(m, k);
        const auto z = models::detail::dense_forward(a, params.data(), k, out);
        QCOMPARE(z.rows(), m);
        for (Index i = 0; i < m; ++i) {
          for (Index o = 0; o < k; ++o) {
            double exact = params[static_cast<std::size_t>(d * k + o)], magnitude = std::abs(exact);
            for (Index j = 0; j < d; ++j) {
              const double term = double(a(i, j)) * params[static_cast<std::size_t>(j * k + o)];
              exact += term;
              magnitude += std::abs(term);
            }
            const double bound = static_cast<double>(d + 1) * 0x1p-24 * magnitude;
            QVERIFY2(std::abs(double(z(i, o)) - exact) <= bound,
                     qPrintable(QString("k = %1, m = %2, z(%3, %4) = %5, exact %6")
                                    .arg(k)
                                    .arg(m)
                                    .arg(i)
                                    .arg(o)
                                    .arg(double(z(i, o)), 0, 'g', 9)
                                    .arg(exact, 0, 'g', 17)));
          }
        }
      }
    }
  }

  void invalidKindAndShapes() {
    using K = models::ModelKind;
    DPLAB_VERIFY_ERROR(models::parse_model_kind("svm"), "svm", "linear, logistic, tlnn");
    DPLAB_VERIFY_ERROR(make(K::kLinearRegression, 5, 10), "linear", "regression", "10 classes");
    DPLAB_VERIFY_ERROR(make(K::kLogisticRegression, 5, 0), "logistic", "classification");
    DPLAB_VERIFY_ERROR(make(K::kTwoLayerNetwork, 5, 0), "tlnn", "classification");
    DPLAB_VERIFY_ERROR(make(K::kLogisticRegression, 5, 1), "num_classes = 1");
    DPLAB_VERIFY_ERROR(make(K::kLogisticRegression, 0, 3), "input_dim = 0");
    DPLAB_VERIFY_ERROR(make(K::kTwoLayerNetwork, 5, 3, 0), "hidden_units = 0");

    auto model = make(K::kLogisticRegression, 3, 3);
    Matrix x = Matrix::Zero(2, 3);
    Vector y = vec({0, 2});
    Vector g(model->num_params()), norms(2);
    const Matrix wide = Matrix::Zero(2, 4);
    DPLAB_VERIFY_ERROR(model->clipped_gradient_sum(wide, y, 1.0, g, norms), "logistic", "4 columns",
                       "input_dim = 3");
    DPLAB_VERIFY_ERROR(model->loss_sum(wide, y), "4 columns");
    DPLAB_VERIFY_ERROR(model->clipped_gradient_sum(x, vec({0}), 1.0, g, norms), "1 targets",
                       "2 rows");
    Vector short_g(5);
    DPLAB_VERIFY_ERROR(model->clipped_gradient_sum(x, y, 1.0, short_g, norms), "5 entries",
                       "12 parameters");
    Vector no_norms(0);
    DPLAB_VERIFY_ERROR(model->clipped_gradient_sum(x, y, 1.0, g, no_norms), "norms", "2 rows");
    DPLAB_VERIFY_ERROR(model->clipped_gradient_sum(x, y, 0.0, g, norms), "clip = 0", "> 0");
    DPLAB_VERIFY_ERROR(
        model->clipped_gradient_sum(x, y, std::numeric_limits<double>::quiet_NaN(), g, norms),
        "clip = nan");
    DPLAB_VERIFY_ERROR(model->clipped_gradient_sum(x, vec({0, 3}), 1.0, g, norms), "target 3",
                       "row 1", "0..2");
    DPLAB_VERIFY_ERROR(model->loss_sum(x, vec({0.5f, 1})), "target 0.5", "row 0");
    auto binary = make(K::kLogisticRegression, 3, 2);
    DPLAB_VERIFY_ERROR(binary->loss_sum(x, vec({1, 2})), "target 2", "0..1");
    auto linear = make(K::kLinearRegression, 3, 0);
    DPLAB_VERIFY_ERROR(linear->loss_sum(x, vec({1, std::numeric_limits<float>::quiet_NaN()})),
                       "linear", "not a finite number");

    DPLAB_VERIFY_ERROR(model->evaluate(dataset(x, y, 4)), "'toy'", "4 classes",
                       "built for 3 classes");
    DPLAB_VERIFY_ERROR(model->evaluate(dataset(wide, y, 3)), "4 features", "input_dim = 3");
    DPLAB_VERIFY_ERROR(linear->evaluate(dataset(x, y, 3)), "3 classes", "regression");
    DPLAB_VERIFY_ERROR(model->evaluate(dataset(Matrix(0, 3), Vector(0), 3)), "empty");
  }
};

DPLAB_TEST_APPLESS_MAIN(TestModelsApi)
#include "test_models_api.moc"
