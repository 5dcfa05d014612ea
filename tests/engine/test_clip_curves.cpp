// tuning::adaptive_clip_curves (the GUI's C_t chart): per adaptive candidate, the geometric mean
// over repeats of the recorded C_t and OSO-DPSGD's rho_t, hand-computed; fixed-threshold
// candidates and points without a recorded C (runs stored before C_t was) are left out; a live
// run's shorter repeat counts only where it has points.
#include <QTest>

#include <cmath>
#include <limits>

#include "chart_series/clip_curves.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

training::CurvePoint point(std::int64_t iteration, double clip, double step_size) {
  training::CurvePoint p;
  p.iteration = iteration;
  p.clip = clip;
  p.step_size = step_size;
  return p;
}

experiment::Candidate candidate(int index, optim::OptimizerKind kind, double clip) {
  experiment::Candidate c;
  c.index = index;
  c.optimizer_index = index;
  c.optimizer.kind = kind;
  c.clip = clip;
  return c;
}

// Three candidates x two repeats: OSO-DPSGD, DPSGD (fixed C), FixedQuantile.
SearchResults results() {
  SearchResults r;
  r.config.repeats = 2;
  r.candidates = {candidate(0, optim::OptimizerKind::kOsoDpSgd, 1),
                  candidate(1, optim::OptimizerKind::kDpSgd, 1),
                  candidate(2, optim::OptimizerKind::kFixedQuantile, 2)};
  r.jobs.resize(6);
  for (int j = 0; j < 6; ++j) {
    r.jobs[static_cast<std::size_t>(j)].candidate = j / 2;
    r.jobs[static_cast<std::size_t>(j)].repeat = j % 2;
  }
  // OSO-DPSGD: C 1 and 4 -> 2; rho 0.1 and 0.4 -> 0.2; then C 2 and 8 -> 4, rho 1 and 1 -> 1.
  r.jobs[0].curve = {point(10, 1, 0.1), point(20, 2, 1)};
  r.jobs[1].curve = {point(10, 4, 0.4), point(20, 8, 1)};
  r.jobs[2].curve = {point(10, 1, 0.5), point(20, 1, 0.5)};
  r.jobs[3].curve = {point(10, 1, 0.5), point(20, 1, 0.5)};
  // FixedQuantile: repeat 1 is live and has one point only; point 2 of repeat 0 is from an old
  // file (no C recorded).
  r.jobs[4].curve = {point(10, 9, 0.5), point(20, 3, 0.5), point(30, kNaN, 0.5)};
  r.jobs[5].curve = {point(10, 1, 0.5)};
  return r;
}

bool close(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::abs(b);
}

}  // namespace

class TestClipCurves : public QObject {
  Q_OBJECT
 private slots:
  void geometricMeansOfAdaptiveCandidates() {
    const auto curves = adaptive_clip_curves(results());
    QCOMPARE(curves.size(), std::size_t{2});
    const ClipCurve& oso = curves[0];
    QCOMPARE(oso.candidate, 0);
    QCOMPARE(oso.iterations, (std::vector<std::int64_t>{10, 20}));
    QVERIFY(close(oso.clip[0], 2.0));
    QVERIFY(close(oso.clip[1], 4.0));
    QVERIFY(close(oso.learning_rate[0], 0.2));
    QVERIFY(close(oso.learning_rate[1], 1.0));
    QCOMPARE(oso.repeats, (std::vector<int>{2, 2}));

    const ClipCurve& quantile = curves[1];
    QCOMPARE(quantile.candidate, 2);
    QCOMPARE(quantile.iterations, (std::vector<std::int64_t>{10, 20}));  // 30: no C recorded
    QVERIFY(close(quantile.clip[0], 3.0));                               // sqrt(9 * 1)
    QVERIFY(close(quantile.clip[1], 3.0));                               // repeat 0 only
    QCOMPARE(quantile.repeats, (std::vector<int>{2, 1}));
    QVERIFY(std::isnan(quantile.learning_rate[0]));  // FixedQuantile has no adaptive rho
  }

  void onlyAdaptiveKinds() {
    QVERIFY(adapts_clip(optim::OptimizerKind::kOsoDpSgd));
    QVERIFY(adapts_clip(optim::OptimizerKind::kFixedQuantile));
    for (auto kind : {optim::OptimizerKind::kDpSgd, optim::OptimizerKind::kDpMomentum,
                      optim::OptimizerKind::kDpAdam, optim::OptimizerKind::kAdaDp,
                      optim::OptimizerKind::kDpAdamWosm}) {
      QVERIFY(!adapts_clip(kind));
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestClipCurves)
#include "test_clip_curves.moc"
