// The Playground's studies (issue #27, playground_studies.h) and adaptive clipping in a session:
// the alpha-C grid's cells are the engine runs of their settings and stop when cancelled; the
// spread reruns 5 distinct seeds and its min-max band contains every seed's curve; objective
// perturbation is calibrated to (and never above) the DP-SGD setting's epsilon; fixed-quantile
// sessions move C_t, explain each step at the C_t it used (clipped norms <= C_t, noise = L g~ - S)
// and cost the same epsilon as DPSGD; automatic clipping runs at C = 1 (the knob C changes
// nothing: the grid's C columns are one run) at DPSGD's epsilon; DP-AdamBC trains; the C sweep's
// DP points are the engine runs of their settings and its grey points the same runs clipped
// without noise (a clip-only session: no noise, epsilon = infinity), it stops when cancelled and
// refuses a setting with no C to vary; a trained run is the session's history and boundary.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "core/error.h"
#include "playground/decision_boundary.h"
#include "playground/playground_session.h"
#include "playground/playground_state.h"
#include "playground/playground_studies.h"
#include "privacy/accounting/accountant_choice.h"
#include "support/expect_error.h"
#include "support/test_registry.h"

#include <nlohmann/json.hpp>

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

std::vector<HistoryPoint> run(const PlaygroundSettings& s, NoiseMode noise = NoiseMode::kAsSet) {
  PlaygroundSession session(s, std::make_shared<const PlaygroundData>(make_playground_data(s.data)),
                            noise);
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

  // Automatic clipping (Bu et al. 2023): C disappears. The alpha-C grid's five C of each alpha
  // are one run (same identity, same accuracy); under flat clipping they are not.
  void automaticClippingMakesTheGridColumnsEqual() {
    PlaygroundSettings s = tiny();
    s.training.automatic_clipping = true;
    s.training.learning_rate = 0.3;
    const AlphaClipGrid g = alpha_clip_grid(s);
    for (int a = 0; a < kGridSize; ++a) {
      for (int c = 1; c < kGridSize; ++c) {
        const std::size_t i = static_cast<std::size_t>(c * kGridSize + a);
        QCOMPARE(g.test_accuracy[i], g.test_accuracy[static_cast<std::size_t>(a)]);
        QCOMPARE(run_identity(g.runs[i]), run_identity(g.runs[static_cast<std::size_t>(a)]));
      }
    }
    PlaygroundSettings flat = s;
    flat.training.automatic_clipping = false;
    const AlphaClipGrid f = alpha_clip_grid(flat);
    bool c_matters = false;
    for (int a = 0; a < kGridSize; ++a) {
      for (int c = 1; c < kGridSize; ++c)
        c_matters |= f.test_accuracy[static_cast<std::size_t>(c * kGridSize + a)] !=
                     f.test_accuracy[static_cast<std::size_t>(a)];
    }
    QVERIFY(c_matters);
  }

  void automaticClippingRunsAtSensitivityOne() {
    PlaygroundSettings s = tiny();
    s.model.hidden = {4};
    s.training.automatic_clipping = true;
    s.training.clip = 7.0;  // ignored
    s.training.noise_multiplier = 1.5;
    PlaygroundSession session(s);
    session.step(4);
    const StepPicture& p = session.picture();
    QCOMPARE(p.clip, 1.0);
    QCOMPARE(p.noise_std, 1.5);  // sigma * 1
    // Every drawn contribution g_i / (||g_i|| + 0.01) lies inside the unit circle.
    for (std::size_t i = 0; i < p.clipped.size(); ++i) {
      QVERIFY(std::hypot(p.clipped[i].x, p.clipped[i].y) < 1.0);
      const double scale = 1.0 / (p.norms[i] + 0.01);
      QVERIFY(std::abs(p.clipped[i].x - p.gradients[i].x * scale) <= 1e-4 * (1 + scale));
    }
    // The same epsilon as flat DPSGD with the same sigma, q, T; C plays no part in it.
    PlaygroundSettings flat = s;
    flat.training.automatic_clipping = false;
    QCOMPARE(session.epsilon(privacy::Accountant::kRdp),
             PlaygroundSession(flat).epsilon(privacy::Accountant::kRdp));
    // The knob C does not change the run.
    PlaygroundSettings other_c = s;
    other_c.training.clip = 0.1;
    PlaygroundSession twin(other_c);
    twin.step(4);
    QVERIFY(twin.parameters() == session.parameters());
    QCOMPARE(run_identity(other_c), run_identity(s));
    QVERIFY(run_identity(flat) != run_identity(s));
    // Settings JSON: "clipping": "automatic", round trip; refused with adaptive C.
    QVERIFY(settings_to_json(s)["training"]["clipping"] == "automatic");
    QVERIFY(!settings_to_json(flat)["training"].contains("clipping"));
    QVERIFY(settings_from_json(settings_to_json(s)) == s);
    PlaygroundSettings adaptive = s;
    adaptive.training.optimizer = OptimizerChoice::kFixedQuantile;
    QVERIFY(error_of<InvalidArgument>([&] { validate(adaptive); }).startsWith("training.clipping"));
    QVERIFY(error_of<ParseError>([&] {
              settings_from_json(nlohmann::json::parse(R"({"training": {"clipping": "x"}})"));
            }).contains("training.clipping"));
  }

  void clipSweepPointsAreTheRunsOfTheirClips() {
    const PlaygroundSettings s = tiny();
    const ClipSweep w = clip_sweep(s);
    QVERIFY(!w.cancelled);
    QCOMPARE(static_cast<int>(w.clips.size()), kSweepSize);
    QCOMPARE(w.clips.front(), 0.01);
    QCOMPARE(w.clips.back(), 10.0);
    for (std::size_t i = 1; i < w.clips.size(); ++i) QVERIFY(w.clips[i] > w.clips[i - 1]);
    for (std::size_t i = 0; i < w.clips.size(); ++i) {
      PlaygroundSettings expect = s;
      expect.training.clip = w.clips[i];
      QVERIFY(w.runs[i] == expect);
    }
    // Spot checks against separate sessions (same code path: exact).
    for (std::size_t i : {std::size_t{0}, std::size_t{6}, std::size_t{9}}) {
      QCOMPARE(w.test_accuracy[i], run(w.runs[i]).back().test_accuracy);
      QCOMPARE(w.noise_free_accuracy[i], run(w.runs[i], NoiseMode::kClipOnly).back().test_accuracy);
    }
    // The best clip is one of the sweep's, with the highest DP accuracy.
    const double best = w.best_clip();
    QCOMPARE(w.clips[w.best_index()], best);
    const auto at = std::find(w.clips.begin(), w.clips.end(), best) - w.clips.begin();
    QVERIFY(at < static_cast<std::ptrdiff_t>(w.clips.size()));
    for (double acc : w.test_accuracy)
      QVERIFY(acc <= w.test_accuracy[static_cast<std::size_t>(at)]);
    // The sweep of a setting that differs only in C is the same sweep.
    PlaygroundSettings other_c = s;
    other_c.training.clip = 7;
    QVERIFY(sweep_key(other_c) == sweep_key(s));
    PlaygroundSettings other_sigma = s;
    other_sigma.training.noise_multiplier = 3;
    QVERIFY(!(sweep_key(other_sigma) == sweep_key(s)));
  }

  void clipSweepStopsWhenCancelledAndNeedsAC() {
    int calls = 0;
    const ClipSweep w = clip_sweep(tiny(), [&] { return ++calls > 2; });
    QVERIFY(w.cancelled);
    QCOMPARE(static_cast<int>(w.test_accuracy.size()), 2);
    QCOMPARE(static_cast<int>(w.noise_free_accuracy.size()), 2);
    PlaygroundSettings open = tiny();
    open.training.is_private = false;
    QVERIFY(error_of<InvalidArgument>([&] { clip_sweep(open); }).contains("not private"));
    PlaygroundSettings automatic = tiny();
    automatic.training.automatic_clipping = true;
    QVERIFY(error_of<InvalidArgument>([&] { clip_sweep(automatic); }).contains("no effect"));
    QVERIFY(std::isnan(ClipSweep{}.best_clip()));
  }

  // A clip-only session clips as set and adds no noise: with a C no gradient reaches it is the
  // non-private run (up to rounding), its epsilon is infinite and its step's noise zero.
  void clipOnlySessionAddsNoNoise() {
    PlaygroundSettings s = tiny();
    s.training.clip = 1e6;
    const auto data = std::make_shared<const PlaygroundData>(make_playground_data(s.data));
    PlaygroundSession clipped(s, data, NoiseMode::kClipOnly);
    PlaygroundSession open(non_private_shadow(s), data);
    PlaygroundSession noisy(s, data);
    clipped.step(s.training.steps);
    open.step(s.training.steps);
    noisy.step(s.training.steps);
    const double scale = open.parameters().cast<double>().norm();
    QVERIFY((clipped.parameters() - open.parameters()).cast<double>().norm() <= 1e-4 * scale);
    QVERIFY((noisy.parameters() - open.parameters()).cast<double>().norm() > 1e-2 * scale);
    QVERIFY(std::isinf(clipped.epsilon(privacy::Accountant::kRdp)));
    QVERIFY(std::isinf(clipped.epsilon_spent(privacy::Accountant::kRdp)));
    QCOMPARE(clipped.picture().noise_std, 0.0);
    // Z = L g~ - S of no noise: zero up to the float rounding of L (S / L).
    QVERIFY(std::abs(clipped.picture().noise.x) < 1e-5 &&
            std::abs(clipped.picture().noise.y) < 1e-5);
    // At a small C it clips: not the non-private run.
    PlaygroundSettings small = tiny();
    small.training.clip = 0.01;
    PlaygroundSession cut(small, data, NoiseMode::kClipOnly);
    cut.step(small.training.steps);
    QVERIFY((cut.parameters() - open.parameters()).cast<double>().norm() > 1e-2 * scale);
    QCOMPARE(cut.picture().fraction_clipped, 1.0);
  }

  void trainedRunIsTheSessionsHistoryAndBoundary() {
    const PlaygroundSettings s = tiny();
    const TrainedRun r = trained_run(s);
    PlaygroundSession session(s);
    session.step(s.training.steps);
    QVERIFY(r.settings == s);
    QCOMPARE(r.history.size(), session.history().size());
    QCOMPARE(r.history.back().test_accuracy, session.history().back().test_accuracy);
    QCOMPARE(r.history.back().step, s.training.steps);
    const auto boundary = decision_boundary(session.decision_field(100));
    QCOMPARE(r.boundary.size(), boundary.size());
    QVERIFY(!r.boundary.empty());
  }

  void dpAdamBcTrains() {
    PlaygroundSettings s = tiny();
    s.training.optimizer = OptimizerChoice::kDpAdamBc;
    s.training.learning_rate = 0.05;
    QCOMPARE(parse_optimizer_choice("dpadam-bc"), OptimizerChoice::kDpAdamBc);
    QVERIFY(settings_from_json(settings_to_json(s)) == s);
    const auto h = run(s);
    QVERIFY(std::isfinite(h.back().test_accuracy) && h.back().test_accuracy > 0.5);
  }
};

DPLAB_TEST_GUILESS_MAIN(TestPlaygroundStudies)
#include "test_playground_studies.moc"
