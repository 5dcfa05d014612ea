// The Playground's lessons make their point on their own settings (issue #44: "each lesson's
// point visible without reading"): what a lesson's first sentence claims is measured here on the
// shipped file, so editing a lesson's settings until the screen no longer shows it fails a test.
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
};

DPLAB_TEST_APPLESS_MAIN(TestLessonPoints)
#include "test_lesson_points.moc"
