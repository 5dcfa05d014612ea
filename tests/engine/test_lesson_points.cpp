// The Playground's lessons make their point on their own settings (issue #44: "each lesson's
// point visible without reading"): what a lesson's first sentence claims is measured here on the
// shipped file, so editing a lesson's settings until the screen no longer shows it fails a test
// (lessons 1, 4, 5 and 7).
#include <QTest>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "playground/decision_boundary.h"
#include "playground/playground_lesson.h"
#include "playground/playground_session.h"
#include "playground/playground_studies.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using namespace dplab::playground;

namespace {

Lesson shipped(const std::string& file) {
  const auto path =
      std::filesystem::path(dplab::testing::source_dir()) / "resources" / "lessons" / file;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return parse_lesson(text.str(), file);
}

// `settings` trained to its T.
std::unique_ptr<PlaygroundSession> trained(const PlaygroundSettings& settings) {
  auto run = std::make_unique<PlaygroundSession>(settings);
  run->set_explain(false);
  run->step(settings.training.steps);
  return run;
}

// The shortest distance from (x, y) to a boundary (segments sampled at tenths).
double distance_to(const std::vector<BoundarySegment>& boundary, double x, double y) {
  double best = INFINITY;
  for (const auto& s : boundary) {
    for (int k = 0; k <= 10; ++k) {
      const double t = k / 10.0;
      best = std::min(best, std::hypot(s.x0 + t * (s.x1 - s.x0) - x, s.y0 + t * (s.y1 - s.y0) - y));
    }
  }
  return best;
}

}  // namespace

class TestLessonPoints : public QObject {
  Q_OBJECT
 private slots:
  // Lesson 4: the non-private boundary wraps itself around the outlier, the private one stays
  // where it is without the outlier (measured: 0.03 vs 0.42 from it, 0.39 without it).
  void outlier_pulls_only_the_non_private_boundary() {
    const Lesson lesson = shipped("04-outlier-bounded-by-c.json");
    QVERIFY(lesson.settings.data.outlier.has_value());
    const double x = lesson.settings.data.outlier->x, y = lesson.settings.data.outlier->y;
    const auto priv = trained(lesson.settings);
    const auto open = trained(non_private_shadow(lesson.settings));
    const double d_private = distance_to(decision_boundary(priv->decision_field(100)), x, y);
    const double d_open = distance_to(decision_boundary(open->decision_field(100)), x, y);
    QVERIFY2(d_open < 0.1, qPrintable(QString::number(d_open)));
    QVERIFY2(d_private > 0.3, qPrintable(QString::number(d_private)));
  }

  // Lesson 5: at its C the private model keeps the majority and loses the minority, which the
  // non-private model learns; raising C to 0.3 (its question) gives most of it back (measured:
  // minority 0.15 → 0.92, majority 0.997 → 0.986; non-private minority 0.92).
  void clipping_costs_the_minority_first() {
    const Lesson lesson = shipped("05-uneven-cost-across-groups.json");
    QVERIFY(lesson.settings.data.minority_fraction > 0);
    const HistoryPoint dp = trained(lesson.settings)->history().back();
    const HistoryPoint open = trained(non_private_shadow(lesson.settings))->history().back();
    QVERIFY2(dp.majority_test_accuracy > 0.95,
             qPrintable(QString::number(dp.majority_test_accuracy)));
    QVERIFY2(dp.minority_test_accuracy < dp.majority_test_accuracy - 0.5,
             qPrintable(QString::number(dp.minority_test_accuracy)));
    QVERIFY(open.minority_test_accuracy > 0.8);
    PlaygroundSettings larger = lesson.settings;
    larger.training.clip = 0.3;
    const HistoryPoint wider = trained(larger)->history().back();
    QVERIFY2(wider.minority_test_accuracy > dp.minority_test_accuracy + 0.5,
             qPrintable(QString::number(wider.minority_test_accuracy)));
  }

  // Lesson 1: C's trade-off is a curve with an interior optimum. On the shipped setting the C
  // sweep peaks inside the range and falls by at least 10 points on each side (measured: 51 % at
  // C = 0.01-0.05, 100 % at C = 0.5 and 1, 72.5 % at C = 10); the left side is the bias of
  // clipping (the noise-free run is as low there), the right side is the noise (the noise-free
  // run stays at 100 %). The lesson opens on the left flank, at C = 0.05.
  void clip_sweep_has_an_interior_optimum() {
    const Lesson lesson = shipped("01-clipping-vs-noise.json");
    QCOMPARE(lesson.picture, std::string("sweep"));
    const ClipSweep sweep = clip_sweep(lesson.settings);
    QVERIFY(!sweep.cancelled);
    const auto& acc = sweep.test_accuracy;
    const std::size_t best = sweep.best_index();
    QString numbers;
    for (std::size_t i = 0; i < acc.size(); ++i)
      numbers += QStringLiteral("C=%1: %2 / %3  ")
                     .arg(sweep.clips[i])
                     .arg(acc[i], 0, 'f', 3)
                     .arg(sweep.noise_free_accuracy[i], 0, 'f', 3);
    qInfo("lesson 1 sweep (DP / clipped, no noise): %s", qPrintable(numbers));
    QVERIFY2(best > 0 && best + 1 < acc.size(), qPrintable(numbers));
    QVERIFY2(acc[best] >= acc.front() + 0.1 && acc[best] >= acc.back() + 0.1, qPrintable(numbers));
    QVERIFY(acc[best] > 0.95);
    // Small C: the noise-free run fails as well (bias); large C: only the DP run (noise).
    QVERIFY2(sweep.noise_free_accuracy.front() < acc[best] - 0.1, qPrintable(numbers));
    QVERIFY2(sweep.noise_free_accuracy.back() > acc.back() + 0.1, qPrintable(numbers));
    // The lesson's own C is on the left flank, well below the best.
    const auto own =
        std::find(sweep.clips.begin(), sweep.clips.end(), lesson.settings.training.clip);
    QVERIFY(own != sweep.clips.end());
    QVERIFY(acc[static_cast<std::size_t>(own - sweep.clips.begin())] < acc[best] - 0.1);
  }

  // Lesson 7: at the lesson's alpha and C, DPAdam (the lesson's setting) reaches what DPSGD (its
  // pinned first setting) does not, and keeps it over the three C of the question, where DPSGD
  // needs C to be retuned (measured: DPAdam 98.7 / 99.3 / 98.0 % at C = 0.1 / 1 / 5, DPSGD
  // 40.7 / 43.3 / 70.0 %).
  void dpadam_beats_the_pinned_dpsgd_at_every_c() {
    const Lesson lesson = shipped("07-dpadam-fewer-candidates.json");
    QVERIFY(lesson.pinned.has_value());
    QVERIFY(lesson.settings.training.optimizer == OptimizerChoice::kDpAdam);
    QVERIFY(lesson.pinned->settings.training.optimizer == OptimizerChoice::kDpSgd);
    PlaygroundSettings same = lesson.pinned->settings;  // the pin differs only in the optimizer
    same.training.optimizer = OptimizerChoice::kDpAdam;
    QVERIFY(same == lesson.settings);
    for (double clip : {0.1, 1.0, 5.0}) {
      PlaygroundSettings adam = lesson.settings, sgd = lesson.pinned->settings;
      adam.training.clip = sgd.training.clip = clip;
      const double a = trained(adam)->history().back().test_accuracy;
      const double g = trained(sgd)->history().back().test_accuracy;
      qInfo("lesson 7 at C = %g: DPAdam %.3f, DPSGD %.3f", clip, a, g);
      QVERIFY2(a > 0.95, qPrintable(QString::number(a)));
      QVERIFY2(g < 0.8, qPrintable(QString::number(g)));
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestLessonPoints)
#include "test_lesson_points.moc"
