// Convolutional networks (issue #15): gradients of conv / transposed conv / pooling /
// activations / dense against central finite differences, and the per-example norms of the
// ghost and direct methods against materialised per-example gradients (single-row calls).
//   - Built-ins have the published sizes: cnn 26,010 parameters, conv-autoencoder 48,705
//     (the OSO paper's Table 1), wide-cnn the count of its architecture (549,994, issue #49).
//   - Finite differences: for each parametrised layer a random direction v restricted to its
//     parameters; (L(theta + h v) - L(theta - h v)) / 2h vs g . v (float model: h = 1e-2,
//     1e-2 relative; smooth activations so no kink falls inside [-h, h]).
//   - Norms: ghost, direct and auto agree with ||g_i|| to 1e-4 relative; the clipped sum is
//     sum_i min(1, C/||g_i||) g_i; blocks of rows (> kNetworkBlockRows) give the same sums.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/random.h"
#include "models/conv_network.h"
#include "models/model.h"
#include "models/network_description.h"
#include "support/layer_gradient_check.h"
#include "support/numeric_compare.h"
#include "support/per_example_gradients.h"
#include "support/random_batch.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

constexpr double kNormRel = 1e-4;

// Small networks covering every layer type and geometry (stride, padding, both pools).
const char* kClassifierJson = R"({"name": "small-cnn", "input": [9, 8, 2], "loss": "cross_entropy",
  "layers": [{"type": "conv", "channels": 3, "kernel": 3, "stride": 2, "padding": 1},
             {"type": "leaky_relu"},
             {"type": "avg_pool", "kernel": 2, "stride": 1},
             {"type": "conv", "channels": 4, "kernel": 2, "stride": 1},
             {"type": "sigmoid"},
             {"type": "dense", "units": 5}, {"type": "leaky_relu"},
             {"type": "dense", "units": 3}]})";
const char* kMaxPoolJson = R"({"name": "maxpool-cnn", "input": [7, 7, 1], "loss": "cross_entropy",
  "layers": [{"type": "conv", "channels": 4, "kernel": 3, "stride": 1, "padding": 1},
             {"type": "relu"},
             {"type": "max_pool", "kernel": 2, "stride": 2},
             {"type": "dense", "units": 3}]})";
// Widths the implicit-im2col kernels take on AVX-512 builds (conv_kernels.h): conv layers of 16
// and 32 channels (direct norms; the second with window rows of 2 x 16 floats, so its input
// gradient too) and a dense layer of 32 units (forward and input gradient as a 1 x 1 conv).
const char* kWideJson = R"({"name": "implicit-cnn", "input": [6, 6, 2], "loss": "cross_entropy",
  "layers": [{"type": "conv", "channels": 16, "kernel": 3, "stride": 1, "padding": 1},
             {"type": "relu"},
             {"type": "conv", "channels": 32, "kernel": 2, "stride": 2},
             {"type": "relu"},
             {"type": "dense", "units": 32}, {"type": "relu"},
             {"type": "dense", "units": 3}]})";
const char* kAutoencoderJson = R"({"name": "small-ae", "input": [8, 8, 1], "loss": "reconstruction",
  "layers": [{"type": "conv", "channels": 3, "kernel": 3, "stride": 2, "padding": 1},
             {"type": "leaky_relu"},
             {"type": "conv", "channels": 5, "kernel": 2},
             {"type": "leaky_relu"},
             {"type": "conv_transpose", "channels": 3, "kernel": 2},
             {"type": "leaky_relu"},
             {"type": "conv_transpose", "channels": 1, "kernel": 4, "stride": 2, "padding": 1},
             {"type": "sigmoid"}]})";

std::string with_norms(const std::string& json, const std::string& method) {
  return R"({"norms": ")" + method + R"(", )" + json.substr(1);
}

using Batch = testing::RandomBatch;
using testing::random_batch;

// Replaces the piecewise-linear layers by smooth ones of the same shape.
std::string smooth(std::string json) {
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"\"leaky_relu\"", "\"sigmoid\""},
        {"\"relu\"", "\"sigmoid\""},
        {"\"max_pool\"", "\"avg_pool\""}}) {
    for (auto at = json.find(from); at != std::string::npos; at = json.find(from))
      json.replace(at, from.size(), to);
  }
  return json;
}

int classes_of(const std::string& json) {
  if (json.find("reconstruction") != std::string::npos) return 0;
  return nlohmann::json::parse(json).at("layers").back().at("units").get<int>();  // last dense
}

// The networks of the finite-difference and norm checks.
void add_networks() {
  QTest::addColumn<QString>("json");
  QTest::addColumn<int>("dim");
  QTest::newRow("conv/avgpool/dense, stride 2 pad 1") << QString(kClassifierJson) << 144;
  QTest::newRow("conv/maxpool") << QString(kMaxPoolJson) << 49;
  QTest::newRow("conv + transposed conv autoencoder") << QString(kAutoencoderJson) << 64;
  QTest::newRow("16 / 32 channels, dense 32 (implicit kernels)") << QString(kWideJson) << 72;
}

}  // namespace

class TestConvNetwork : public QObject {
  Q_OBJECT

 private slots:
  void builtinSizes() {
    auto cnn = models::make_model({models::ModelKind::kCnn, 0, {}}, 784, 10);
    QCOMPARE(cnn->num_params(), Index{26010});
    auto ae = models::make_model({models::ModelKind::kConvAutoencoder, 0, {}}, 784, 10);
    QCOMPARE(ae->num_params(), Index{48705});
    // Both conv layers direct (methodsAreChosenByCost); ghost is exercised by the forced methods.
    QVERIFY(!QString::fromStdString(cnn->description()).contains("ghost"));
    QVERIFY(QString::fromStdString(cnn->description()).contains("direct"));
    // Blocks sized to the largest per-example scratch, at most kNetworkBlockRows: cnn conv1
    // 196 x 64 floats (the 4-row cap), autoencoder conv4 400 x 288 floats = 450 KiB (2 rows in
    // 1 MiB).
    QCOMPARE(dynamic_cast<models::ConvNetwork&>(*cnn).block_rows(), models::kNetworkBlockRows);
    QCOMPARE(models::kNetworkBlockRows, Index{4});
    QCOMPARE(dynamic_cast<models::ConvNetwork&>(*ae).block_rows(), Index{2});
    // wide-cnn from its architecture: 3x3 convs (9 c_in + 1) c_out, 1 -> 32 -> 32 -> 64 -> 64
    // -> 128 -> 128; three pools 28 -> 14 -> 7 -> 4 (the last 4x4 stride 1); dense 4 x 4 x 128
    // -> 128 -> 10.
    auto wide = models::make_model({models::ModelKind::kWideCnn, 0, {}}, 784, 10);
    Index expected = 0;
    const Index channels[] = {1, 32, 32, 64, 64, 128, 128};
    for (int l = 0; l + 1 < 7; ++l) expected += (9 * channels[l] + 1) * channels[l + 1];
    expected += (4 * 4 * 128 + 1) * 128 + (128 + 1) * 10;
    QCOMPARE(expected, Index{549994});
    QCOMPARE(wide->num_params(), expected);
    QVERIFY(wide->num_params() >= 500000);  // issue #49
    // Every conv direct: P = 784 / 196 / 49 positions, P^2 (a + b) >> a b.
    QCOMPARE(QString::fromStdString(wide->description()).count("(direct)"), 6);
    // conv6's G_i is 1,152 x 128 floats = 576 KiB per example: one row per 1 MiB block.
    QCOMPARE(dynamic_cast<models::ConvNetwork&>(*wide).block_rows(), Index{1});
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             models::make_model({models::ModelKind::kCnn, 0, {}}, 100, 10));
    QVERIFY_THROWS_EXCEPTION(
        InvalidArgument,
        models::make_network(
            R"({"input": [2,2,1], "layers": [{"type": "conv", "channels": 1, "kernel": 5}]})", 4,
            2));
  }

  // The finite-difference rows and the built-in wide-cnn (issue #49: 32..128 channels, padded
  // 3x3 convs on 28x28, tanh, a 4x4 stride-1 pool); its norms are checked in test_ghost_norms.
  void gradientsMatchFiniteDifferences_data() {
    add_networks();
    QTest::newRow("wide-cnn") << QString::fromStdString(models::builtin_network_json("wide-cnn"))
                              << 784;
  }
  void gradientsMatchFiniteDifferences() {
    QFETCH(QString, json);
    QFETCH(int, dim);
    // Piecewise-linear pieces (ReLU, LeakyReLU, max-pool) would put kinks inside [-h, h] for
    // some of the ~1000 pre-activations; the network check runs on their smooth stand-ins
    // (sigmoid, avg-pool) and piecewiseLayersMatchFiniteDifferences checks those layers alone.
    const std::string text = smooth(json.toStdString());
    const int classes = classes_of(text);
    auto net = models::make_network(text, dim, classes > 0 ? classes : 10);
    net->initialize(7);
    const Batch b = random_batch(5, dim, classes, 3);
    Rng rng(11);
    // The built-in's layers have up to 147,584 parameters: a unit direction moves the 5-row loss
    // by ~1e-3 per unit, so at h = 1e-2 its float rounding (~3e-5 over 2h) is 1 % of the
    // derivative; h = 0.1 brings it to ~0.1 % (all its layers agree to 3e-3 there, measured),
    // the tanh network's curvature staying far below.
    const bool wide = QByteArray(QTest::currentDataTag()) == "wide-cnn";
    const auto check = test::check_layer_gradients(*net, b.x, b.y, rng, 1e-2, wide ? 0.1 : 1e-2);
    QVERIFY2(check.failure.empty(), check.failure.c_str());
    QVERIFY(check.checked >= 2);
  }

  void normsGhostDirectMaterialised_data() { add_networks(); }
  void normsGhostDirectMaterialised() {
    QFETCH(QString, json);
    QFETCH(int, dim);
    const std::string text = json.toStdString();
    const int classes = classes_of(text);
    const int model_classes = classes > 0 ? classes : 10;
    auto reference = models::make_network(text, dim, model_classes);
    reference->initialize(5);
    const Batch b = random_batch(70, dim, classes, 9);  // 70 > kNetworkBlockRows: several blocks
    const auto g = testing::per_example_gradients(*reference, b.x, b.y);
    double median_norm = 0;
    {
      std::vector<double> norms;
      for (const auto& gi : g) norms.push_back(gi.norm());
      std::nth_element(norms.begin(), norms.begin() + 35, norms.end());
      median_norm = norms[35];
    }
    for (const char* method : {"ghost", "direct", "auto"}) {
      auto net = models::make_network(with_norms(text, method), dim, model_classes);
      net->params() = reference->params();
      Vector sum(net->num_params()), norms(b.x.rows());
      // Clip at the median norm: half the rows are scaled.
      const double clip = median_norm;
      net->clipped_gradient_sum(b.x, b.y, clip, sum, norms);
      Eigen::VectorXd expected = Eigen::VectorXd::Zero(net->num_params());
      for (Index i = 0; i < b.x.rows(); ++i) {
        const double norm = g[static_cast<std::size_t>(i)].norm();
        if (!(std::abs(norms[i] - norm) <= kNormRel * norm)) {
          QFAIL(qPrintable(QString("%1: row %2 norm %3, materialised %4")
                               .arg(method)
                               .arg(i)
                               .arg(norms[i], 0, 'g', 10)
                               .arg(norm, 0, 'g', 10)));
        }
        expected += std::min(1.0, clip / norm) * g[static_cast<std::size_t>(i)];
      }
      const double error = (sum.cast<double>() - expected).norm();
      double term_scale = 0;  // float rounding scales with the terms, not their (cancelling) sum
      for (const auto& gi : g) term_scale += std::min(gi.norm(), clip);
      QVERIFY2(error <= 1e-5 * term_scale, qPrintable(QString("%1: clipped sum off by %2 of %3")
                                                          .arg(method)
                                                          .arg(error)
                                                          .arg(expected.norm())));
      // weighted_gradient_sum = the row-by-row default.
      Vector w(b.x.rows()), fast(net->num_params()), slow(net->num_params());
      for (Index i = 0; i < b.x.rows(); ++i) w[i] = static_cast<float>((i % 7) - 2.5) / 3.f;
      net->weighted_gradient_sum(b.x, b.y, w, fast);
      net->models::Model::weighted_gradient_sum(b.x, b.y, w, slow);
      QVERIFY((fast - slow).cast<double>().norm() <= 2e-4 * slow.cast<double>().norm());
    }
  }

  // A relu directly before a max-pool is run by the pool (Layer::absorb_relu). Against the same
  // network with the two swapped (max-pool, then relu: nothing absorbed, and the same function
  // and gradient, relu being monotone with relu'(0) = 0): the same outputs, per-example norms and
  // clipped sum, to float rounding. Once after a conv, once as the first layer (no input
  // gradient); inputs shifted to [-0.5, 0.5) so that the first relu has work to do.
  void reluBeforeMaxPoolMatchesPoolBeforeRelu() {
    const auto network = [](bool fused, bool first) {
      const std::string pair =
          fused ? R"({"type": "relu"}, {"type": "max_pool", "kernel": 2, "stride": 1})"
                : R"({"type": "max_pool", "kernel": 2, "stride": 1}, {"type": "relu"})";
      const std::string conv =
          first ? "" : R"({"type": "conv", "channels": 16, "kernel": 3, "padding": 1}, )";
      return std::string(
                 R"({"name": "pair", "input": [7, 7, 16], "loss": "cross_entropy", "layers": [)") +
             conv + pair + R"(, {"type": "dense", "units": 4}]})";
    };
    for (const bool first : {false, true}) {
      auto fused = models::make_network(network(true, first), 7 * 7 * 16, 4);
      auto plain = models::make_network(network(false, first), 7 * 7 * 16, 4);
      fused->initialize(3);
      plain->params() = fused->params();
      Batch b = random_batch(9, 7 * 7 * 16, 4, 5);
      b.x.array() -= 0.5f;
      Matrix out_fused, out_plain;
      fused->logits(b.x, out_fused);
      plain->logits(b.x, out_plain);
      QVERIFY((out_fused - out_plain).norm() <= 1e-6 * out_plain.norm());
      Vector sum_fused(fused->num_params()), sum_plain(plain->num_params()), norms_fused(9),
          norms_plain(9);
      fused->clipped_gradient_sum(b.x, b.y, 0.5, sum_fused, norms_fused);
      plain->clipped_gradient_sum(b.x, b.y, 0.5, sum_plain, norms_plain);
      QVERIFY2((norms_fused - norms_plain).norm() <= 1e-5 * norms_plain.norm(),
               first ? "norms, relu first" : "norms, relu after conv");
      QVERIFY2((sum_fused - sum_plain).norm() <= 1e-5 * sum_plain.norm(),
               first ? "clipped sum, relu first" : "clipped sum, relu after conv");
      QVERIFY(sum_plain.norm() > 0);
    }
  }

  void piecewiseLayersMatchFiniteDifferences() {
    // One layer alone, L(x) = r . f(x) with random r; inputs at least 0.1 away from 0 and
    // distinct (no ties inside a pooling window), so x +- h e_j with h = 1e-3 crosses no kink
    // and the difference quotient is exact up to float rounding.
    using namespace models::detail;
    const MapShape shape{4, 5, 3};
    const Index m = 2, n = m * shape.size();
    Rng rng(4);
    Vector x(n);
    for (Index j = 0; j < n; ++j) {
      const double magnitude = 0.1 + 0.9 * (static_cast<double>(j) + rng.uniform() * 0.5) / n;
      x[j] = static_cast<float>(rng.uniform() < 0.5 ? -magnitude : magnitude);
    }
    std::vector<std::unique_ptr<Layer>> layers;
    layers.push_back(make_activation(shape, Activation::kRelu));
    layers.push_back(make_activation(shape, Activation::kLeakyRelu));
    layers.push_back(make_pool(shape, true, 2, 1));
    layers.push_back(make_pool(shape, true, 2, 2));
    layers.push_back(make_pool(shape, false, 3, 1));
    for (auto& layer : layers) {
      layer->reserve(m);
      const Index out_n = m * layer->output_shape().size();
      Vector r(out_n), out(out_n), dx(n);
      for (Index k = 0; k < out_n; ++k) r[k] = static_cast<float>(2 * rng.uniform() - 1);
      layer->forward(nullptr, x.data(), out.data(), m);
      layer->backward(nullptr, x.data(), out.data(), r.data(), dx.data(), m);
      constexpr float h = 1e-3f;
      for (Index j = 0; j < n; ++j) {
        Vector xp = x, xm = x, op(out_n), om(out_n);
        xp[j] += h;
        xm[j] -= h;
        layer->forward(nullptr, xp.data(), op.data(), m);
        const double plus = r.cast<double>().dot(op.cast<double>());
        layer->forward(nullptr, xm.data(), om.data(), m);
        const double minus = r.cast<double>().dot(om.cast<double>());
        const double numeric = (plus - minus) / (2.0 * h);
        if (!(std::abs(numeric - dx[j]) <= 2e-3)) {
          QFAIL(qPrintable(QString("%1: d/dx[%2] = %3, finite difference %4")
                               .arg(QString::fromStdString(layer->describe()))
                               .arg(j)
                               .arg(dx[j])
                               .arg(numeric)));
        }
      }
    }
  }

  void methodsAreChosenByCost() {
    using models::detail::NormMethod;
    // Norms + clipped sum per example: ghost P^2 (a + b) + P a b, direct P a b + a b.
    // cnn conv1: P = 196, D = 64, c_out = 16: ghost 196^2 * 80 > 64 * 16.
    QVERIFY(models::detail::cheaper_norm_method(196, 64, 16) == NormMethod::kDirect);
    // cnn conv2: P = 25, D = 256, c_out = 32: ghost 625 * 288 = 180,000 > 256 * 32 = 8,192
    // (counting the norms alone picked ghost and paid a second P a b GEMM for the sum).
    QVERIFY(models::detail::cheaper_norm_method(25, 256, 32) == NormMethod::kDirect);
    // A late layer with few positions and wide operands: 4^2 * 1024 = 16,384 < 512 * 512.
    QVERIFY(models::detail::cheaper_norm_method(4, 512, 512) == NormMethod::kGhost);
  }

  void autoencoderEvaluatesMse() {
    auto ae = models::make_model({models::ModelKind::kConvAutoencoder, 0, {}}, 784, 10);
    data::Dataset d;
    const Batch b = random_batch(3, 784, 10, 1);
    d.features = b.x;
    d.targets = b.y;
    d.num_classes = 10;
    const models::Evaluation e = ae->evaluate(d);
    QVERIFY(std::isnan(e.accuracy));
    QVERIFY(e.mse > 0 && e.mse < 1);  // sigmoid outputs and pixels both in [0, 1]
    DPLAB_COMPARE_REL(e.mean_loss, ae->loss_sum(b.x, b.y) / 3, 1e-6);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestConvNetwork)
#include "test_conv_network.moc"
