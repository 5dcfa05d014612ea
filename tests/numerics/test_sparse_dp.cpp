// Algorithm 3 of Zhang, Mironov & Hejazinia (optim/sparse_dp_optimizer.h) on a toy row-sparse
// model with constant per-example gradients, so every step can be computed by hand: the update
// touches only the selected coordinates, the noise has variance sigma^2 min(S1^2/b^2, S2^2), both
// clippings act as stated; the base updates against hand steps; and the accounting
// (privacy/accounting/sparse_dp_accounting.h): Theorem 3 against a hand computation, the RDP
// account against the exact subsampled-Gaussian RDP it must upper-bound.
#include <QTest>
#include <cmath>
#include <memory>
#include <vector>

#include "core/error.h"
#include "optim/sparse_dp_optimizer.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/accounting/rdp_subsampled_gaussian.h"
#include "privacy/accounting/sparse_dp_accounting.h"
#include "privacy/mechanisms/exponential_top_k.h"
#include "privacy/mechanisms/uniform_selection.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::optim;
using namespace dplab::privacy;

namespace {

// Linear toy: example i has loss <a_i, theta> on rows {i % R, (i + 1) % R}; its gradient is the
// constant a_i (2 rows of width W), independent of theta.
class ToyRowModel final : public models::RowSparseModel {
 public:
  ToyRowModel(Index rows, Index width, Index examples, float scale)
      : rows_(rows), width_(width), examples_(examples), scale_(scale) {
    params_.setZero(rows * width);
  }
  Index num_rows() const override { return rows_; }
  Index row_width() const override { return width_; }
  Vector& params() override { return params_; }
  Index num_examples() const override { return examples_; }
  double example_gradient(Index i, models::RowGradient& g) override {
    g.rows = {i % rows_, (i + 1) % rows_};
    if (g.rows[0] > g.rows[1]) std::swap(g.rows[0], g.rows[1]);
    g.values.assign(static_cast<std::size_t>(2 * width_), 0.0f);
    for (Index c = 0; c < 2 * width_; ++c) g.values[c] = scale_ * float((i + 1) * (c % 3 + 1));
    double loss = 0;
    for (int r = 0; r < 2; ++r)
      for (Index c = 0; c < width_; ++c)
        loss += g.values[r * width_ + c] * params_[g.rows[r] * width_ + c];
    return loss;
  }

 private:
  Index rows_, width_, examples_;
  float scale_;
  Vector params_;
};

}  // namespace

class TestSparseDp : public QObject {
  Q_OBJECT

 private slots:
  void update_touches_only_selected_coordinates() {
    ToyRowModel model(50, 4, 30, 1.0f);
    SparseDpSettings s{SparseTrainingMethod::kSparse, 5, 2.0, 0.5, 1.0};
    SparseDpOptimizer opt(s, model, std::make_unique<UniformSelection>(200, 7),
                          std::make_unique<SparseUpdate>(BaseUpdateKind::kSgd, 200, 0.1), 7);
    for (int step = 0; step < 50; ++step) {
      const Vector before = model.params();
      opt.step();
      const auto& selected = opt.last_updated();
      QCOMPARE(selected.size(), std::size_t(7));
      std::vector<char> is_selected(200, 0);
      for (const Index j : selected) is_selected[j] = 1;
      for (Index j = 0; j < 200; ++j) {
        const bool changed = model.params()[j] != before[j];
        QCOMPARE(changed, bool(is_selected[j]));  // noise > 0 moves every selected coordinate
      }
    }
  }

  void noise_has_the_stated_variance_data() {
    QTest::addColumn<double>("clip1");
    QTest::addColumn<double>("clip2");
    QTest::addColumn<double>("expected_std");
    // sigma = 2, b = 10: min(S1/b, S2) picks S2 = 0.05 in the paper's regime, S1/b otherwise.
    QTest::newRow("S2 binds") << 15.0 << 0.05 << 2 * 0.05;
    QTest::newRow("S1/b binds") << 0.3 << 0.05 << 2 * 0.03;
  }
  void noise_has_the_stated_variance() {
    QFETCH(double, clip1);
    QFETCH(double, clip2);
    QFETCH(double, expected_std);
    // Zero data gradients: with SGD at alpha = 1 every selected coordinate moves by -noise.
    ToyRowModel model(100, 5, 40, 0.0f);
    SparseDpSettings s{SparseTrainingMethod::kSparse, 10, clip1, clip2, 2.0};
    SparseDpOptimizer opt(s, model, std::make_unique<UniformSelection>(500, 10),
                          std::make_unique<SparseUpdate>(BaseUpdateKind::kSgd, 500, 1.0), 11);
    DPLAB_COMPARE_REL(opt.noise_std(), expected_std, 1e-15);
    double sum = 0, sum_sq = 0;
    long count = 0;
    for (int step = 0; step < 3000; ++step) {
      const Vector before = model.params();
      opt.step();
      for (const Index j : opt.last_updated()) {
        const double change = double(model.params()[j]) - before[j];
        sum += change;
        sum_sq += change * change;
        ++count;
      }
    }
    const double variance = sum_sq / count - (sum / count) * (sum / count);
    // 30000 samples: the variance estimate has relative std sqrt(2/30000) = 0.8%; 5 std = 4%.
    DPLAB_COMPARE_REL(variance, expected_std * expected_std, 0.04);
    DPLAB_COMPARE_ABS(sum / count, 0.0, 5 * expected_std / std::sqrt(double(count)));
  }

  void hand_computed_step_with_both_clippings() {
    // q = 1 (b = n = 2): the lot is both examples. R = 3 rows, W = 1.
    // Example 0: rows {0,1}, gradient (1, 2)*s;  example 1: rows {1,2}, gradient (2, 4)*s.
    // s = 1: ||g_0|| = sqrt 5, ||g_1|| = sqrt 20; S1 = 3 clips g_1 to 3/sqrt 20 of itself.
    ToyRowModel model(3, 1, 2, 1.0f);
    const double c1 = 3.0 / std::sqrt(20.0);
    const double g0 = 1.0 / 2, g1 = (2.0 + 2.0 * c1) / 2, g2 = 4.0 * c1 / 2;  // g^ = sum / b
    const double norm = std::sqrt(g0 * g0 + g1 * g1 + g2 * g2);
    const double s2 = 0.5;  // second clipping of Delta (all 3 coordinates selected)
    SparseDpSettings s{SparseTrainingMethod::kSparse, 2, 3.0, s2, 0.0};
    SparseDpOptimizer opt(s, model, std::make_unique<UniformSelection>(3, 3),
                          std::make_unique<SparseUpdate>(BaseUpdateKind::kSgd, 3, 0.1), 1);
    opt.step();
    const double f = s2 / norm;
    DPLAB_COMPARE_REL(model.params()[0], -0.1 * g0 * f, 1e-6);
    DPLAB_COMPARE_REL(model.params()[1], -0.1 * g1 * f, 1e-6);
    DPLAB_COMPARE_REL(model.params()[2], -0.1 * g2 * f, 1e-6);
  }

  void lazy_adam_matches_hand_step() {
    // Two calls on coordinate 0, one on coordinate 1 (alpha = 0.1, b1 = 0.9, b2 = 0.999, xi = 0).
    SparseUpdate adam(BaseUpdateKind::kAdam, 3, 0.1, 0.9, 0.999, 0.0);
    Vector p = Vector::Zero(3);
    const std::vector<Index> i0{0}, i1{1};
    const std::vector<float> g{2.0f}, h{-1.0f};
    adam.apply(i0, g,
               p);  // t = 1: m = 0.2, v = 0.004; step 0.1 * (0.2/0.1) / sqrt(0.004/0.001) = 0.1
    DPLAB_COMPARE_REL(p[0], -0.1, 1e-6);
    adam.apply(i1, h, p);  // t = 2, coordinate 1: m = -0.1, v = 0.001
    const double m = -0.1 / (1 - 0.81), v = 0.001 / (1 - 0.999 * 0.999);
    DPLAB_COMPARE_REL(p[1], -0.1 * m / std::sqrt(v), 1e-6);
    DPLAB_COMPARE_REL(p[0], -0.1, 1e-6);  // untouched by the second call
    QCOMPARE(p[2], 0.0f);
  }

  void dense_adam_keeps_moving_an_unlisted_coordinate() {
    // torch.optim.Adam on a masked gradient (alpha = 0.1, b1 = 0.9, b2 = 0.999, xi = 1e-8): one
    // gradient 2 on coordinate 0, then a call listing only coordinate 1 (gradient -1).
    SparseUpdate adam(BaseUpdateKind::kAdam, 3, 0.1, 0.9, 0.999, 1e-8, AdamMoments::kDense);
    Vector p = Vector::Zero(3);
    const std::vector<Index> i0{0}, i1{1};
    const std::vector<float> g{2.0f}, h{-1.0f};
    adam.apply(i0, g, p);  // t = 1: as lazy, -0.1
    DPLAB_COMPARE_REL(p[0], -0.1, 1e-6);
    adam.apply(i1, h, p);  // t = 2: coordinate 0 has m = 0.18, v = 0.003996 and still moves
    const double c1 = 1 - 0.81, c2 = 1 - 0.999 * 0.999;
    const double m0 = 0.9 * 0.2, v0 = 0.999 * 0.004;
    DPLAB_COMPARE_REL(p[0], -0.1 - 0.1 * (m0 / c1) / std::sqrt(v0 / c2), 1e-6);
    const double m1 = -0.1, v1 = 0.001;
    DPLAB_COMPARE_REL(p[1], -0.1 * (m1 / c1) / std::sqrt(v1 / c2), 1e-6);
    QCOMPARE(p[2], 0.0f);  // never had a gradient: m = v = 0, a zero step
  }

  void dp_sgd_adds_noise_everywhere() {
    ToyRowModel model(20, 2, 10, 0.0f);
    SparseDpSettings s{SparseTrainingMethod::kDpSgd, 2, 1.0, 0.0, 1.0};
    SparseDpOptimizer opt(s, model, nullptr,
                          std::make_unique<SparseUpdate>(BaseUpdateKind::kSgd, 40, 1.0), 3);
    opt.step();
    for (Index j = 0; j < 40; ++j) QVERIFY(model.params()[j] != 0.0f);
    DPLAB_COMPARE_REL(opt.noise_std(), 0.5, 1e-15);  // sigma S1 / b
  }

  void theorem3_matches_hand_computation() {
    // n = 2e5, b = 20, T = 2e5, sigma = 0.5, eps' = 0.002, delta' = 1.25e-7 (python, double):
    //   eps_G = sqrt(2 log(1.25/1.25e-7))/0.5 = 11.35538485511022
    //   paper's eps~ = 1e-4 (0.002 + eps_G) = 0.001135738485511022,  delta~ = 2.5e-11
    //   paper's eps = T eps~ (e^eps~ - 1) + eps~ sqrt(2 T log(1/(T delta~))) = 2.7676795964870533
    //   closed form 4 (b/n) sqrt(T log(n/(2bT delta'))) (eps' + eps_G) = 7.098086815630788
    //   delta = 4 b T delta' / n = 1e-5;  assumption eps~ <= 1/sqrt(T) = 0.00224: holds.
    // The guarantee amplifies by Poisson sampling correctly: eps~ = log1p(1e-4 expm1(eps0)) =
    // 2.2575273864556 (eps0 = 11.357 is far outside q eps0's range), and its strong composition
    // over T = 2e5 steps is 3869614.7217443646 (vacuous: the RDP account is the useful one).
    const Theorem3Result r = theorem3_epsilon({2e5, 20, 200000, 0.5, 0.002, 1.25e-7});
    DPLAB_COMPARE_REL(r.gaussian_epsilon, 11.35538485511022, 1e-13);
    DPLAB_COMPARE_REL(r.paper_step_epsilon, 0.001135738485511022, 1e-13);
    DPLAB_COMPARE_REL(r.step_epsilon, 2.2575273864556, 1e-12);
    DPLAB_COMPARE_REL(r.step_delta, 2.5e-11, 1e-13);
    DPLAB_COMPARE_REL(r.paper_epsilon, 2.7676795964870533, 1e-12);
    DPLAB_COMPARE_REL(r.epsilon, 3869614.7217443646, 1e-10);
    DPLAB_COMPARE_REL(r.epsilon_closed_form, 7.098086815630788, 1e-12);
    DPLAB_COMPARE_REL(r.delta, 1e-5, 1e-13);
    QVERIFY(r.assumption_holds);
    QVERIFY(!r.gaussian_lemma_applies);  // eps_G = 11.4 > 1: Lemma 3 is not proved there
    QVERIFY(!r.sampling_lemma_applies);
    // 50x the steps breaks the assumption.
    QVERIFY(!theorem3_epsilon({2e5, 20, 10000000, 0.5, 0.002, 2.5e-9}).assumption_holds);
  }

  void theorem3_amplifies_by_poisson_sampling_not_q_eps() {
    // eps0 = eps' + eps_G = 1 exactly (eps' = 1 - eps_G), q = 0.01: the amplified step is
    // ln(1 + 0.01 (e - 1)) = 0.01703686323617655, not the paper's q eps0 = 0.01 (e - 1 ~ 1.72x).
    const double step_delta = 1e-6;
    const double sigma = 8.0;  // eps_G = sqrt(2 log(1.25e6))/8 = 0.662 < 1
    const double eps_g = std::sqrt(2.0 * std::log(1.25 / step_delta)) / sigma;
    QVERIFY(eps_g < 1);
    const Theorem3Result r = theorem3_epsilon({1000, 10, 100, sigma, 1.0 - eps_g, step_delta});
    DPLAB_COMPARE_REL(r.step_epsilon, 0.01703686323617655, 1e-12);
    DPLAB_COMPARE_REL(r.paper_step_epsilon, 0.01, 1e-12);
    QVERIFY(r.epsilon > r.paper_epsilon);
  }

  void theorem3_calibration_round_trip() {
    // The calibrated (sigma, eps') spend exactly eps_noise + eps_sel in the closed form.
    const auto c = theorem3_calibrate(50000, 20, 5000, 20, 10, 1e-5);
    const Theorem3Result r =
        theorem3_epsilon({50000, 20, 5000, c.noise_multiplier, c.selection_epsilon, c.step_delta});
    DPLAB_COMPARE_REL(r.epsilon_closed_form, 30.0, 1e-12);
    DPLAB_COMPARE_REL(r.delta, 1e-5, 1e-12);
  }

  void rdp_general_bound_dominates_exact_subsampled_gaussian() {
    // Selection cost 0, S2 = inf: the step is the subsampled Gaussian with sigma_eff = sigma.
    const double sigma = 1.1, q = 0.01;
    std::vector<double> rdp(65);
    for (int l = 2; l <= 64; ++l) rdp[l] = l / (2 * sigma * sigma);
    for (int a = 2; a <= 64; a *= 2) {
      const double bound = poisson_subsampled_rdp_bound(rdp.data(), a, q);
      const double exact = rdp_subsampled_gaussian(sigma, q, a);
      QVERIFY2(bound >= exact * (1 - 1e-12),
               qPrintable(QString("a=%1 %2 < %3").arg(a).arg(bound).arg(exact)));
      QVERIFY(bound <= 3 * exact + 1e-12);  // and not vacuous
    }
    SparseDpRdpInput in{
        q, 1000, sigma, 20, 15, std::numeric_limits<double>::infinity(), SelectionKind::kUniform,
        0, 0};
    const RdpEpsilon ours = sparse_dp_rdp_epsilon(in, 1e-5);
    const double exact = epsilon_for_delta({sigma, q, 1000}, 1e-5).epsilon;
    QVERIFY(ours.available);
    QVERIFY(ours.epsilon >= exact);
    QVERIFY(ours.epsilon <= 1.5 * exact);
    // The second clipping doubles the add/remove sensitivity relative to the noise scale.
    in.clip2 = 0.05;
    QCOMPARE(sparse_dp_rdp_epsilon(in, 1e-5).effective_noise_multiplier, sigma / 2);
    // The exponential mechanism adds its cost; SVT has no RDP bound.
    in.selection = SelectionKind::kExponential;
    in.draw_epsilon = 0.01;
    in.draws = 100;
    QVERIFY(sparse_dp_rdp_epsilon(in, 1e-5).epsilon > ours.epsilon);
    in.selection = SelectionKind::kSparseVector;
    QVERIFY(!sparse_dp_rdp_epsilon(in, 1e-5).available);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestSparseDp)
#include "test_sparse_dp.moc"
