// The Playground's studies (issue #27, playground_studies.h) and adaptive clipping in a session:
// the alpha-C grid's cells are the engine runs of their settings and stop when cancelled; the
// spread reruns 5 distinct seeds and its min-max band contains every seed's curve; objective
// perturbation is calibrated to (and never above) the DP-SGD setting's epsilon; fixed-quantile
// sessions move C_t, explain each step at the C_t it used (clipped norms <= C_t, noise = L g~ - S)
// and cost the same epsilon as DPSGD.
#include <QTest>

#include <cmath>
#include <set>

#include "core/error.h"
#include "playground/playground_session.h"
#include "playground/playground_state.h"
#include "playground/playground_studies.h"
#include "privacy/accounting/accountant_choice.h"
#include "support/expect_error.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::playground;
using dplab::testing::error_of;

namespace {

PlaygroundSettings tiny() {
  PlaygroundSettings s;
  s.data.num_points = 200;
  s.data.seed = 3;
  s.training.lot_size = 30;
  s.training.steps = 30;
  return s;
}

std::vector<HistoryPoint> run(const PlaygroundSettings& s) {
  PlaygroundSession session(s);
  session.step(s.training.steps);
  return session.history();
}

}  // namespace

class TestPlaygroundStudies : public QObject {
  Q_OBJECT
 private slots:
  void gridCellsAreTheRunsOfTheirSettings() {
    const PlaygroundSettings s = tiny();
    const AlphaClipGrid g = alpha_clip_grid(s);
    QVERIFY(!g.cancelled);
    QCOMPARE(static_cast<int>(g.test_accuracy.size()), kGridSize * kGridSize);
    QCOMPARE(static_cast<int>(g.alphas.size()), kGridSize);
    for (int k = 1; k < kGridSize; ++k) {
      QVERIFY(g.alphas[static_cast<std::size_t>(k)] > g.alphas[static_cast<std::size_t>(k - 1)]);
      QVERIFY(g.clips[static_cast<std::size_t>(k)] > g.clips[static_cast<std::size_t>(k - 1)]);
    }
    QCOMPARE(g.alphas[2], s.training.learning_rate);
    QCOMPARE(g.clips[2], s.training.clip);
    QVERIFY(std::abs(g.alphas[4] / g.alphas[0] - 100.0) < 1e-9);  // two decades
    for (int c = 0; c < kGridSize; ++c) {
      for (int a = 0; a < kGridSize; ++a) {
        const std::size_t i = static_cast<std::size_t>(c * kGridSize + a);
        QCOMPARE(g.runs[i].training.learning_rate, g.alphas[static_cast<std::size_t>(a)]);
        QCOMPARE(g.runs[i].training.clip, g.clips[static_cast<std::size_t>(c)]);
        PlaygroundSettings expect = s;
        expect.training.learning_rate = g.alphas[static_cast<std::size_t>(a)];
        expect.training.clip = g.clips[static_cast<std::size_t>(c)];
        QVERIFY(g.runs[i] == expect);
      }
    }
    // Spot-check cells against separate sessions (same code path: exact).
    for (std::size_t i : {std::size_t{0}, std::size_t{12}, std::size_t{24}})
      QCOMPARE(g.test_accuracy[i], run(g.runs[i]).back().test_accuracy);
  }

  void gridStopsWhenCancelled() {
    int calls = 0;
    const AlphaClipGrid g = alpha_clip_grid(tiny(), [&] { return ++calls > 3; });
    QVERIFY(g.cancelled);
    QCOMPARE(static_cast<int>(g.test_accuracy.size()), 3);
    PlaygroundSettings open = tiny();
    open.training.is_private = false;
    QVERIFY(error_of<InvalidArgument>([&] { alpha_clip_grid(open); }).contains("not private"));
  }

  void spreadBandContainsEverySeed() {
    PlaygroundSettings s = tiny();
    s.training.seed = 9;
    const SeedSpread spread = seed_spread(s);
    QCOMPARE(static_cast<int>(spread.seeds.size()), kSpreadSeeds);
    QCOMPARE(
        static_cast<int>(std::set<std::uint64_t>(spread.seeds.begin(), spread.seeds.end()).size()),
        kSpreadSeeds);
    const SpreadBand& b = spread.band;
    bool wide = false;
    for (std::uint64_t seed : spread.seeds) {
      PlaygroundSettings r = s;
      r.training.seed = seed;
      const auto h = run(r);
      QCOMPARE(h.size(), b.steps.size());
      for (std::size_t i = 0; i < h.size(); ++i) {
        QCOMPARE(h[i].step, b.steps[i]);
        QVERIFY(b.test_accuracy_min[i] <= h[i].test_accuracy);
        QVERIFY(h[i].test_accuracy <= b.test_accuracy_max[i]);
        QVERIFY(b.test_loss_min[i] <= h[i].test_loss);
        QVERIFY(h[i].test_loss <= b.test_loss_max[i]);
        wide |= b.test_loss_max[i] > b.test_loss_min[i];
      }
    }
    QVERIFY(wide);
    // The band is the min and max, not wider: each bound is attained by some seed.
    for (std::size_t i = 0; i < b.steps.size(); ++i) {
      bool lo = false, hi = false;
      for (const auto& h : spread.histories) {
        lo |= h[i].test_accuracy == b.test_accuracy_min[i];
        hi |= h[i].test_accuracy == b.test_accuracy_max[i];
      }
      QVERIFY(lo && hi);
    }
    // Histories of different steps cannot be banded.
    auto bad = spread.histories;
    bad[1].pop_back();
    QVERIFY(error_of<InvalidArgument>([&] { min_max_band(bad); }).contains("different steps"));
  }

  void objpertMatchesTheDpSgdEpsilon() {
    PlaygroundSettings s = tiny();
    s.data.num_points = 400;
    s.training.steps = 200;
    const ObjPertBaseline o = objpert_baseline(s, 20);
    const double target =
        setting_epsilon(s.training, train_size_of(s.data), privacy::Accountant::kRdp);
    QCOMPARE(o.target_epsilon, target);
    QVERIFY(o.epsilon <= target * (1 + 1e-12));
    QVERIFY(o.epsilon > 0.5 * target);
    QVERIFY(o.noise_std > 0 && o.regularization > 0);
    QCOMPARE(o.field.resolution, 20);
    QCOMPARE(static_cast<int>(o.field.probability.size()), 400);
    for (float p : o.field.probability) QVERIFY(p >= 0.f && p <= 1.f);
    // Two Gaussians are (nearly) linearly separable: it learns something at this epsilon.
    QVERIFY(o.test_accuracy > 0.6);
    // Deterministic for a seed.
    QCOMPARE(objpert_baseline(s, 20).test_accuracy, o.test_accuracy);
  }

  void fixedQuantileMovesCAndExplainsEachStepAtCt() {
    PlaygroundSettings s = tiny();
    s.model.hidden = {4};
    s.training.optimizer = OptimizerChoice::kFixedQuantile;
    s.training.clip = 5.0;  // C_0 far above every gradient norm: C_t must fall
    s.training.steps = 60;
    PlaygroundSession session(s);
    QCOMPARE(session.history().front().clip, 5.0);
    double previous = 5.0;
    bool moved = false;
    for (int k = 0; k < 20; ++k) {
      session.step(3);
      const StepPicture& p = session.picture();
      QVERIFY(std::isfinite(p.clip) && p.clip > 0);
      // The step shown used C_t (<= the C_0 above the norms once it moved), and its clipped
      // gradients lie inside that circle.
      for (const Vec2& c : p.clipped) QVERIFY(std::hypot(c.x, c.y) <= p.clip * (1 + 1e-6));
      moved |= p.clip < previous;
      previous = p.clip;
    }
    QVERIFY(moved);
    QVERIFY(session.history().back().clip < 5.0);
    // The noise drawn: Z = L g~ - S with g~ = -update / alpha (FixedQuantile's descent).
    const StepPicture& p = session.picture();
    const double l = s.training.lot_size, a = s.training.learning_rate;
    QVERIFY(std::abs(p.noise.x - (-l / a * p.update.x - p.clipped_sum.x)) <=
            1e-3 * (1 + std::abs(p.noise.x)));
    QVERIFY(p.noise_std > 0);
    // Same epsilon as DPSGD (one joint query per step at multiplier sigma).
    PlaygroundSettings fixed = s;
    fixed.training.optimizer = OptimizerChoice::kDpSgd;
    QCOMPARE(session.epsilon(privacy::Accountant::kRdp),
             PlaygroundSession(fixed).epsilon(privacy::Accountant::kRdp));
    // Round trip through the settings JSON and the non-private shadow (plain SGD).
    QVERIFY(settings_from_json(settings_to_json(s)) == s);
    PlaygroundSession shadow(non_private_shadow(s));
    shadow.step(5);
    QVERIFY(std::isinf(shadow.picture().clip));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestPlaygroundStudies)
#include "test_playground_studies.moc"
