// Conv layers (network_layers.h) against a direct-loop reference in double (issue #30):
//   - forward, input gradient and every per-example weight gradient g_i of conv and transposed
//     conv layers (im2col + GEMM, run-wise unfold/fold) equal the textbook sums
//       conv:      z[y, x, o] = b[o] + sum_{ky, kx, c} in[y s - p + ky, x s - p + kx, c] W[(ky k +
//       kx) c_in + c, o] transposed: out[y s - p + ky, x s - p + kx, o] += sum_c in[y, x, c] W[c,
//       (ky k + kx) c_out + o]
//     to 1e-5 relative (Frobenius norm of the difference over the norm of the reference; the
//     float GEMMs sum at most a few hundred products, ~1e-6 relative);
//   - the reference's own gradients equal central finite differences of the reference forward
//     (double, h = 1e-3; the map is linear in W and in the input, so the difference quotient is
//     exact up to rounding) to 1e-5 relative — so the reference is itself checked;
//   - ghost and direct per-example squared norms equal ||g_i||^2 of the reference g_i (1e-5);
//   - max-pooling with 16, 32 and 20 channels (the AVX-512 16-lane path, and its scalar tail)
//     equals a scalar reference: the same maxima (exact) and the gradient routed to the first
//     maximum of each window.
// Geometries: the cnn's two conv layers (28x28x1 -> 16 k8 s2 p3; 13x13x16 -> 32 k4 s2), a 3x3
// autoencoder layer, stride 2 with padding, transposed convs k3 s1 and k4 s2 p1, and three that
// exercise the implicit-im2col kernels' other branches (padded input gradient; 48 and 80
// output channels; one input channel at strides 1 and 2). Each is run with ghost and direct norms,
// and the weighted gradient also without norms (the non-private step's product).
#include <QTest>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/random.h"
#include "core/types.h"
#include "models/network_layers.h"
#include "support/test_registry.h"

using namespace dplab;
using models::detail::Layer;
using models::detail::MapShape;
using models::detail::NormMethod;

namespace {

constexpr double kRel = 1e-5;

struct Geometry {
  MapShape input;
  Index channels, kernel, stride, padding;
  bool transposed;
};

// Flat HWC index of (y, x, c) in a map, or -1 outside it.
Index at(const MapShape& s, Index y, Index x, Index c) {
  if (y < 0 || y >= s.height || x < 0 || x >= s.width) return -1;
  return (y * s.width + x) * s.channels + c;
}

// The direct-loop reference of one example. For a conv, `small` = output, `big` = input; for a
// transposed conv the roles swap (it is the conv big -> small used backwards). `pairs` calls
// f(big index, small position (y, x), small channel, big channel, weight index) for every term.
template <typename F>
void for_each_term(const Geometry& g, const MapShape& big, const MapShape& small, F&& f) {
  const Index k = g.kernel;
  for (Index y = 0; y < small.height; ++y) {
    for (Index x = 0; x < small.width; ++x) {
      for (Index ky = 0; ky < k; ++ky) {
        for (Index kx = 0; kx < k; ++kx) {
          for (Index cb = 0; cb < big.channels; ++cb) {
            const Index b =
                at(big, y * g.stride - g.padding + ky, x * g.stride - g.padding + kx, cb);
            if (b < 0) continue;
            for (Index cs = 0; cs < small.channels; ++cs) {
              const Index w = g.transposed
                                  ? cs * (k * k * big.channels) + (ky * k + kx) * big.channels + cb
                                  : ((ky * k + kx) * big.channels + cb) * small.channels + cs;
              f(b, (y * small.width + x) * small.channels + cs, w);
            }
          }
        }
      }
    }
  }
}

struct Reference {
  Eigen::VectorXd out;                 // m x output size
  Eigen::VectorXd in_grad;             // m x input size
  std::vector<Eigen::VectorXd> grads;  // g_i, [W, b] as the layer lays them out
};

Reference reference(const Geometry& g, const MapShape& out_shape, Index num_params,
                    const Eigen::VectorXd& params, const Eigen::VectorXd& in,
                    const Eigen::VectorXd& out_grad, Index m) {
  const MapShape& in_shape = g.input;
  const MapShape big = g.transposed ? out_shape : in_shape;
  const MapShape small = g.transposed ? in_shape : out_shape;
  const Index weights = num_params - g.channels;
  Reference r{
      Eigen::VectorXd::Zero(m * out_shape.size()), Eigen::VectorXd::Zero(m * in_shape.size()), {}};
  for (Index i = 0; i < m; ++i) {
    const double* x = in.data() + i * in_shape.size();
    const double* e = out_grad.data() + i * out_shape.size();
    double* z = r.out.data() + i * out_shape.size();
    double* dx = r.in_grad.data() + i * in_shape.size();
    Eigen::VectorXd gi = Eigen::VectorXd::Zero(num_params);
    for (Index p = 0; p < out_shape.positions(); ++p) {
      for (Index o = 0; o < g.channels; ++o) {
        z[p * g.channels + o] += params[weights + o];
        gi[weights + o] += e[p * g.channels + o];
      }
    }
    for_each_term(g, big, small, [&](Index b, Index s, Index w) {
      if (g.transposed) {  // in = small, out = big
        z[b] += x[s] * params[w];
        dx[s] += e[b] * params[w];
        gi[w] += x[s] * e[b];
      } else {  // in = big, out = small
        z[s] += x[b] * params[w];
        dx[b] += e[s] * params[w];
        gi[w] += x[b] * e[s];
      }
    });
    r.grads.push_back(gi);
  }
  return r;
}

double relative_error(const Eigen::VectorXd& actual, const Eigen::VectorXd& expected) {
  return (actual - expected).norm() / std::max(expected.norm(), 1e-300);
}

Eigen::VectorXd random_vector(Index n, Rng& rng) {
  Eigen::VectorXd v(n);
  for (Index j = 0; j < n; ++j) v[j] = 2 * rng.uniform() - 1;
  return v;
}

std::unique_ptr<Layer> make_layer(const Geometry& g, NormMethod method) {
  return g.transposed ? models::detail::make_conv_transpose(g.input, g.channels, g.kernel, g.stride,
                                                            g.padding, method)
                      : models::detail::make_conv(g.input, g.channels, g.kernel, g.stride,
                                                  g.padding, method);
}

}  // namespace

class TestConvLayers : public QObject {
  Q_OBJECT

 private slots:
  void matchesDirectReference_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("cnn conv1 28x28x1 -> 16 k8 s2 p3") << 0;
    QTest::newRow("cnn conv2 13x13x16 -> 32 k4 s2") << 1;
    QTest::newRow("autoencoder 3x3 10x10x8 -> 16") << 2;
    QTest::newRow("stride 2 pad 1, 9x8x3 -> 5 k3") << 3;
    QTest::newRow("transposed 6x6x8 -> 4 k3 s1") << 4;
    QTest::newRow("transposed 4x4x3 -> 2 k4 s2 p1") << 5;
    // The implicit-im2col kernels (conv_kernels.h, AVX-512 builds) in shapes the cnn does not
    // have: a padded input gradient (cropped from the padded maps), 3 output vectors (one
    // column group of 3), 5 output vectors (groups of 4 and 1), row tiles with tails.
    QTest::newRow("padded input gradient 7x6x16 -> 16 k3 s2 p1") << 6;
    QTest::newRow("48 channels 9x9x16 -> 48 k2 s1 p1") << 7;
    QTest::newRow("80 channels 5x5x16 -> 80 k3 s1") << 8;
    // One input channel (the row tiles): stride 1 with 32 channels and rows longer than a tile,
    // stride 2 with 48 channels (column groups of 2 and 1).
    QTest::newRow("one channel 20x19x1 -> 32 k3 s1 p1") << 9;
    QTest::newRow("one channel 11x12x1 -> 48 k4 s2 p1") << 10;
  }
  void matchesDirectReference() {
    QFETCH(int, which);
    const Geometry geometries[] = {
        {{28, 28, 1}, 16, 8, 2, 3, false}, {{13, 13, 16}, 32, 4, 2, 0, false},
        {{10, 10, 8}, 16, 3, 1, 0, false}, {{9, 8, 3}, 5, 3, 2, 1, false},
        {{6, 6, 8}, 4, 3, 1, 0, true},     {{4, 4, 3}, 2, 4, 2, 1, true},
        {{7, 6, 16}, 16, 3, 2, 1, false},  {{9, 9, 16}, 48, 2, 1, 1, false},
        {{5, 5, 16}, 80, 3, 1, 0, false},  {{20, 19, 1}, 32, 3, 1, 1, false},
        {{11, 12, 1}, 48, 4, 2, 1, false}};
    const Geometry& g = geometries[which];
    const Index m = 3;
    for (const NormMethod method : {NormMethod::kGhost, NormMethod::kDirect}) {
      auto layer = make_layer(g, method);
      const MapShape out_shape = layer->output_shape();
      const Index n_in = m * g.input.size(), n_out = m * out_shape.size();
      const Index d = layer->num_params();
      Rng rng(17 + static_cast<std::uint64_t>(which));
      const Eigen::VectorXd params = random_vector(d, rng), in = random_vector(n_in, rng),
                            out_grad = random_vector(n_out, rng);
      const Vector params_f = params.cast<float>(), in_f = in.cast<float>(),
                   out_grad_f = out_grad.cast<float>();
      // The reference on the float-rounded inputs, so both sides see the same numbers.
      const Reference ref = reference(g, out_shape, d, params_f.cast<double>(), in_f.cast<double>(),
                                      out_grad_f.cast<double>(), m);

      layer->reserve(m);
      Vector out(n_out), in_grad(n_in);
      layer->forward(params_f.data(), in_f.data(), out.data(), m);
      QVERIFY2(relative_error(out.cast<double>(), ref.out) <= kRel, "forward");
      layer->prepare_backward(params_f.data());
      layer->backward(params_f.data(), in_f.data(), out.data(), out_grad_f.data(), in_grad.data(),
                      m);
      QVERIFY2(relative_error(in_grad.cast<double>(), ref.in_grad) <= kRel, "input gradient");
      Vector squared = Vector::Zero(m);
      layer->add_squared_norms(squared.data(), m);
      for (Index i = 0; i < m; ++i) {
        const double expected = ref.grads[static_cast<std::size_t>(i)].squaredNorm();
        QVERIFY2(std::abs(squared[i] - expected) <= kRel * expected,
                 qPrintable(QString("%1 norm of example %2: %3, reference %4")
                                .arg(method == NormMethod::kGhost ? "ghost" : "direct")
                                .arg(i)
                                .arg(squared[i])
                                .arg(expected)));
      }
      // g_i itself: the weighted gradient with weights e_i (one-hot).
      for (Index i = 0; i < m; ++i) {
        Vector w = Vector::Zero(m), gi(d);
        w[i] = 1.f;
        layer->add_weighted_gradient(w.data(), gi.data(), false, m);
        QVERIFY2(relative_error(gi.cast<double>(), ref.grads[static_cast<std::size_t>(i)]) <= kRel,
                 qPrintable(QString("per-example weight gradient %1").arg(i)));
      }
      // Without norms (a non-private or weighted step: no stored G_i): sum_i w_i g_i by the
      // layer's weighted product, unweighted and weighted, written then accumulated.
      layer->backward(params_f.data(), in_f.data(), out.data(), out_grad_f.data(), in_grad.data(),
                      m);
      Vector weights(m), sum(d);
      Eigen::VectorXd plain = Eigen::VectorXd::Zero(d), weighted = Eigen::VectorXd::Zero(d);
      for (Index i = 0; i < m; ++i) {
        weights[i] = static_cast<float>(0.5 - 0.75 * static_cast<double>(i));
        plain += ref.grads[static_cast<std::size_t>(i)];
        weighted += static_cast<double>(weights[i]) * ref.grads[static_cast<std::size_t>(i)];
      }
      layer->add_weighted_gradient(nullptr, sum.data(), false, m);
      QVERIFY2(relative_error(sum.cast<double>(), plain) <= kRel, "sum of gradients, no norms");
      layer->add_weighted_gradient(weights.data(), sum.data(), true, m);
      QVERIFY2(relative_error(sum.cast<double>(), plain + weighted) <= kRel,
               "weighted sum accumulated, no norms");
    }
  }

  void referenceMatchesFiniteDifferences() {
    // The reference's gradients against central differences of its own forward pass, for one
    // small conv and one transposed conv: <g, v> vs (L(W + h v) - L(W - h v)) / 2h with
    // L = <e, z>, and likewise for the input.
    const Geometry geometries[] = {{{7, 6, 2}, 3, 3, 2, 1, false}, {{4, 3, 2}, 3, 4, 2, 1, true}};
    for (const Geometry& g : geometries) {
      auto layer = make_layer(g, NormMethod::kDirect);
      const MapShape out_shape = layer->output_shape();
      const Index d = layer->num_params(), m = 2;
      Rng rng(5);
      const Eigen::VectorXd params = random_vector(d, rng),
                            in = random_vector(m * g.input.size(), rng),
                            e = random_vector(m * out_shape.size(), rng);
      const Reference r = reference(g, out_shape, d, params, in, e, m);
      const auto loss = [&](const Eigen::VectorXd& p, const Eigen::VectorXd& x) {
        return e.dot(reference(g, out_shape, d, p, x, e, m).out);
      };
      constexpr double h = 1e-3;
      const Eigen::VectorXd v = random_vector(d, rng), u = random_vector(in.size(), rng);
      const double dw = (loss(params + h * v, in) - loss(params - h * v, in)) / (2 * h);
      const double dx = (loss(params, in + h * u) - loss(params, in - h * u)) / (2 * h);
      const double gw = (r.grads[0] + r.grads[1]).dot(v), gx = r.in_grad.dot(u);
      QVERIFY2(std::abs(dw - gw) <= kRel * std::abs(gw), "weight gradient vs finite difference");
      QVERIFY2(std::abs(dx - gx) <= kRel * std::abs(gx), "input gradient vs finite difference");
    }
  }

  void maxPoolWideChannels() {
    for (const Index channels : {Index{16}, Index{32}, Index{20}}) {
      const MapShape shape{5, 6, channels};
      for (const Index stride : {Index{1}, Index{2}}) {
        auto pool = models::detail::make_pool(shape, true, 2, stride);
        const MapShape out_shape = pool->output_shape();
        const Index m = 2, n = m * shape.size(), n_out = m * out_shape.size();
        Rng rng(static_cast<std::uint64_t>(channels + stride));
        Vector x(n), e(n_out), out(n_out), dx(n);
        for (Index j = 0; j < n; ++j) x[j] = static_cast<float>(rng.below(7));  // many ties
        for (Index j = 0; j < n_out; ++j) e[j] = static_cast<float>(2 * rng.uniform() - 1);
        pool->reserve(m);
        pool->forward(nullptr, x.data(), out.data(), m);
        pool->backward(nullptr, x.data(), out.data(), e.data(), dx.data(), m);
        Eigen::VectorXd expected_dx = Eigen::VectorXd::Zero(n);
        for (Index i = 0; i < m; ++i) {
          for (Index oy = 0; oy < out_shape.height; ++oy) {
            for (Index ox = 0; ox < out_shape.width; ++ox) {
              for (Index c = 0; c < channels; ++c) {
                Index best = -1;  // first maximum in window order (ky, then kx)
                for (Index ky = 0; ky < 2; ++ky) {
                  for (Index kx = 0; kx < 2; ++kx) {
                    const Index j =
                        i * shape.size() + at(shape, oy * stride + ky, ox * stride + kx, c);
                    if (best < 0 || x[j] > x[best]) best = j;
                  }
                }
                const Index o = i * out_shape.size() + at(out_shape, oy, ox, c);
                QCOMPARE(out[o], x[best]);  // a maximum is one of the inputs: exact
                expected_dx[best] += e[o];
              }
            }
          }
        }
        QVERIFY2(
            relative_error(dx.cast<double>(), expected_dx) <= 1e-6,
            qPrintable(
                QString("max-pool gradient, %1 channels, stride %2").arg(channels).arg(stride)));
      }
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestConvLayers)
#include "test_conv_layers.moc"
