// Issue #9 "what users expect": on every chart of the real window, hovering a data point shows a
// tooltip with its exact values; the mouse wheel zooms, dragging pans and a double-click resets;
// clicking a legend entry hides its series (and a group entry hides the whole group).
#include <qcustomplot.h>
#include <QWheelEvent>

#include "charts/chart_hover.h"
#include "run/run_data.h"
#include "support/test_registry.h"
#include "tuning/release_cost.h"
#include "views/accuracy_tab.h"
#include "views/parallel_coordinates_tab.h"
#include "views/privacy_utility_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

// The first visible graph with a finite point that lies inside the axis rect.
bool findPoint(QCustomPlot* plot, QCPGraph** graph, int* index) {
  for (int g = 0; g < plot->graphCount(); ++g) {
    QCPGraph* candidate = plot->graph(g);
    if (!candidate->visible()) continue;
    for (int i = 0; i < candidate->dataCount(); ++i) {
      const QPoint p = test::pixelOf(candidate, i);
      if (std::isfinite(candidate->data()->at(i)->value) && plot->axisRect()->rect().contains(p)) {
        *graph = candidate;
        *index = i;
        return true;
      }
    }
  }
  return false;
}

}  // namespace

class TestChartInteraction : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
    QVERIFY(test::runToEnd(window_));
    // A hidden tab draws when shown (issue #25 item 13): bring it to the front.
    window_->tabs()->setCurrentWidget(window_->privacyUtilityTab());
    // The drawing of the final results (live ones may be drawn first and replaced mid-test).
    QTRY_VERIFY_WITH_TIMEOUT(!window_->privacyUtilityTab()->shown().points.empty() &&
                                 window_->privacyUtilityTab()->shown().points.back().epsilon ==
                                     tuning::release_cost(window_->runData()->results()).epsilon &&
                                 window_->privacyUtilityTab()->chart()->plot()->graphCount() > 0,
                             30000);
  }
  void cleanupTestCase() { delete window_; }

  void hoverShowsExactValuesOnEveryChart() {
    int checked = 0;
    for (ChartView* chart : window_->charts()) {
      test::showChart(window_, chart);
      QCustomPlot* plot = chart->plot();
      QCPGraph* graph = nullptr;
      int index = -1;
      if (!findPoint(plot, &graph, &index)) {
        qInfo("%s: no graph point to hover (colour map only)", qPrintable(chart->fileStem()));
        continue;
      }
      const QPoint at = test::pixelOf(graph, index);
      QTest::mouseMove(plot, at);
      const QString text = chart->hover()->lastText();
      QVERIFY2(!text.isEmpty(), qPrintable(chart->fileStem()));
      // The same text as asked directly, and away from every point: nothing.
      QCOMPARE(chart->hover()->textAt(at), text);
      QVERIFY(chart->hover()->textAt(QPoint(-500, -500)).isEmpty());
      // The default text names the series and the exact value (6 significant digits); custom
      // tooltips (privacy–utility, parallel coordinates) carry their own exact numbers.
      if (chart != window_->privacyUtilityTab()->chart() &&
          chart != window_->parallelCoordinatesTab()->chart()) {
        const double value = graph->data()->at(index)->value;
        QVERIFY2(text.contains(QString::number(value, 'g', 6)),
                 qPrintable(chart->fileStem() + QStringLiteral(": ") + text));
      }
      ++checked;
    }
    qInfo("hover checked on %d charts", checked);
    QVERIFY(checked >= 6);  // curves, best-of-k, privacy–utility, parallel, step size, privacy tab
  }

  void wheelZoomsDragPansDoubleClickResets() {
    ChartView* chart = window_->accuracyTab()->curvesChart();
    test::showChart(window_, chart);
    QCustomPlot* plot = chart->plot();
    const QCPRange x0 = plot->xAxis->range();
    const QPoint centre = plot->axisRect()->rect().center();
    QWheelEvent wheel(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(plot, &wheel);
    QTRY_VERIFY(plot->xAxis->range().size() < 0.9 * x0.size());  // zoomed in
    const QCPRange zoomed = plot->xAxis->range();
    QTest::mousePress(plot, Qt::LeftButton, Qt::NoModifier, centre);
    QTest::mouseMove(plot, centre + QPoint(80, 0));
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::NoModifier, centre + QPoint(80, 0));
    QVERIFY(plot->xAxis->range().lower < zoomed.lower);  // panned to the left part of the data
    QTest::mouseDClick(plot, Qt::LeftButton, Qt::NoModifier, centre);
    // Reset: every data point is in the frame again.
    for (int g = 0; g < plot->graphCount(); ++g) {
      bool found = false;
      const QCPRange keys = plot->graph(g)->getKeyRange(found);
      if (!found) continue;
      QVERIFY(plot->xAxis->range().lower <= keys.lower && plot->xAxis->range().upper >= keys.upper);
    }
  }

  void legendClickHidesSeries() {
    ChartView* chart = window_->accuracyTab()->curvesChart();
    test::showChart(window_, chart);
    QCustomPlot* plot = chart->plot();
    QVERIFY(plot->legend->visible() && plot->legend->itemCount() > 0);
    auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(0));
    QVERIFY(item);
    QVERIFY(item->plottable()->visible());
    QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, item->rect().center());
    QVERIFY(!item->plottable()->visible());
    QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, item->rect().center());
    QVERIFY(item->plottable()->visible());
  }

  // Privacy–utility: an optimizer's legend entry hides its line AND its mode markers.
  void legendGroupHidesTheOptimizersMarkers() {
    ChartView* chart = window_->privacyUtilityTab()->chart();
    test::showChart(window_, chart);
    QCustomPlot* plot = chart->plot();
    QCPPlottableLegendItem* entry = nullptr;
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
      auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i));
      if (item && item->plottable()->property("dplabGroup") == QStringLiteral("opt:0")) {
        entry = item;
        break;
      }
    }
    QVERIFY(entry);
    QList<QCPAbstractPlottable*> group;
    for (int i = 0; i < plot->plottableCount(); ++i)
      if (plot->plottable(i)->property("dplabGroup") == QStringLiteral("opt:0"))
        group << plot->plottable(i);
    QCOMPARE(group.size(), 5);  // the LT sweep line and 4 mode markers
    QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, entry->rect().center());
    for (auto* p : group) QVERIFY(!p->visible());
    QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, entry->rect().center());
    for (auto* p : group) QVERIFY(p->visible());
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestChartInteraction)
#include "test_chart_interaction.moc"
