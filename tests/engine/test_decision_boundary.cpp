// engine/playground/decision_boundary.h: the p = 1/2 level set of a field whose boundary is known
// in closed form — a vertical line, a circle, a saddle — comes back at the right place and length.
#include <QTest>
#include <cmath>
#include <functional>
#include <numbers>

#include "core/error.h"
#include "playground/decision_boundary.h"
#include "support/test_registry.h"

using namespace dplab::playground;

namespace {

// p(x, y) = sigmoid(f(x, y)) sampled as decision_field lays the grid out.
DecisionField sampled(int n, const std::function<double(double, double)>& f) {
  DecisionField field;
  field.resolution = n;
  const double h = 2 * kPlaneExtent / (n - 1);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const double x = -kPlaneExtent + c * h, y = kPlaneExtent - r * h;
      field.probability.push_back(static_cast<float>(1 / (1 + std::exp(-f(x, y)))));
    }
  }
  return field;
}

double length(const std::vector<BoundarySegment>& segments) {
  double total = 0;
  for (const auto& s : segments) total += std::hypot(s.x1 - s.x0, s.y1 - s.y0);
  return total;
}

}  // namespace

class TestDecisionBoundary : public QObject {
  Q_OBJECT
 private slots:
  void a_vertical_line_at_its_place() {
    const auto segments =
        decision_boundary(sampled(101, [](double x, double) { return 4 * (x - 0.3); }));
    QVERIFY(!segments.empty());
    for (const auto& s : segments) {
      QVERIFY(std::abs(s.x0 - 0.3) < 1e-4);
      QVERIFY(std::abs(s.x1 - 0.3) < 1e-4);
    }
    QVERIFY(std::abs(length(segments) - 2 * kPlaneExtent) < 1e-6);  // top to bottom
  }

  void a_circle_at_its_radius_and_length() {
    const double radius = 0.6;
    const auto segments = decision_boundary(
        sampled(101, [&](double x, double y) { return 3 * (x * x + y * y - radius * radius); }));
    double worst = 0;
    for (const auto& s : segments) {
      worst = std::max({worst, std::abs(std::hypot(s.x0, s.y0) - radius),
                        std::abs(std::hypot(s.x1, s.y1) - radius)});
    }
    QVERIFY2(worst < 2e-3, qPrintable(QString::number(worst)));  // linear interpolation's error
    const double circumference = 2 * std::numbers::pi * radius;
    QVERIFY(std::abs(length(segments) - circumference) / circumference < 2e-3);
  }

  void a_saddle_is_split_by_its_centre() {
    // p > 1/2 where x·y > 0: two crossing lines. Each square of a 3-point grid whose corners are
    // (±h, ±h) gets two segments; the centre value decides how they pair.
    DecisionField field;
    field.resolution = 2;
    field.probability = {0.9f, 0.1f, 0.2f, 0.8f};  // a, b / e, d: a and d above, mean 0.5 → e side
    const auto apart = decision_boundary(field);
    QCOMPARE(apart.size(), std::size_t{2});
    field.probability = {0.9f, 0.3f, 0.3f, 0.9f};  // mean 0.6 > 1/2: a joins d through the centre
    const auto joined = decision_boundary(field);
    QCOMPARE(joined.size(), std::size_t{2});
    // Joined: the segments cut off b (top right) and e (bottom left), so both midpoints lie
    // where x·y > 0; apart: they cut off a (top left) and d (bottom right), x·y < 0.
    const auto quadrant = [](const BoundarySegment& s) { return (s.x0 + s.x1) * (s.y0 + s.y1); };
    QVERIFY(quadrant(joined[0]) > 0 && quadrant(joined[1]) > 0);
    QVERIFY(quadrant(apart[0]) < 0 && quadrant(apart[1]) < 0);
  }

  void no_boundary_in_a_field_of_one_class() {
    QVERIFY(decision_boundary(sampled(50, [](double, double) { return 2.0; })).empty());
    QVERIFY(decision_boundary(DecisionField{}).empty());
    DecisionField broken;
    broken.resolution = 4;
    broken.probability.assign(5, 0.5f);
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, decision_boundary(broken));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestDecisionBoundary)
#include "test_decision_boundary.moc"
