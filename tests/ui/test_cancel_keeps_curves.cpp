// Issue #44 (exploration): cancelling a run in which no job has finished keeps the curves drawn
// (the chart emptied: the engine's aggregates count finished jobs only, and a cancelled job's
// partial curve was dropped — thousands of iterations of live curves vanished on Esc). A
// cancelled job's curve is drawn as it stood, as while live; the Results table still counts
// finished jobs only. The live legend flows into columns.
#include <algorithm>

#include "run/run_data.h"
#include "support/test_registry.h"
#include "views/accuracy_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

int pointsDrawn(ChartView* chart) {
  int n = 0;
  for (int i = 0; i < chart->plot()->graphCount(); ++i) n += chart->plot()->graph(i)->dataCount();
  return n;
}

// The furthest iteration any curve reaches. While a run is live, each provisional (dotted) part
// repeats the last settled point to join it, and those joins go when the run ends, so the count
// of points drawn is not monotone; how far the curves reach is.
double furthestDrawn(ChartView* chart) {
  double x = -1;
  for (int i = 0; i < chart->plot()->graphCount(); ++i) {
    bool found = false;
    const QCPRange keys = chart->plot()->graph(i)->getKeyRange(found);
    if (found) x = std::max(x, keys.upper);
  }
  return x;
}

// tinyExperiment trained long enough that no job finishes before the cancel.
experiment::ExperimentConfig longExperiment() {
  experiment::ExperimentConfig c = test::tinyExperiment();
  c.name = "ui test long";
  c.privacy.steps = 20'000'000;
  return c;
}

}  // namespace

class TestCancelKeepsCurves : public QObject {
  Q_OBJECT
 private slots:
  void cancelWithNoFinishedJobKeepsCurves() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow* window = test::openWindow(dir, longExperiment());
    ChartView* chart = window->accuracyTab()->curvesChart();
    window->tabs()->setCurrentWidget(window->accuracyTab());
    QSignalSpy finished(window, &MainWindow::runFinished);
    window->runAction()->trigger();
    // Live curves with a few points per candidate.
    QVERIFY(QTest::qWaitFor([&] { return pointsDrawn(chart) >= 20; }, 30000));
    const int live_points = pointsDrawn(chart);
    const double live_reach = furthestDrawn(chart);
    // The live legend flows into columns as its entries come (it stayed one column of 8 rows
    // under a 650-px chart: the entries arrived after the last resize).
    QCPLegend* legend = chart->plot()->legend;
    QVERIFY(legend->itemCount() >= 4);
    QVERIFY2(legend->columnCount() >= 2,
             qPrintable(QStringLiteral("%1 entries in %2 column(s) at %3 px")
                            .arg(legend->itemCount())
                            .arg(legend->columnCount())
                            .arg(chart->width())));
    int finished_jobs = 0;
    for (const auto& job : window->runData()->runs().jobs)
      finished_jobs += job.status == tuning::JobStatus::kFinished ? 1 : 0;
    QCOMPARE(finished_jobs, 0);
    window->cancelAction()->trigger();
    QVERIFY(finished.wait(30000));
    QVERIFY(finished.first().at(0).toBool());  // ok
    QVERIFY(finished.first().at(1).toBool());  // cancelled
    QApplication::processEvents();
    chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
    for (const auto& job : window->runData()->runs().jobs)
      QVERIFY(job.status != tuning::JobStatus::kFinished);
    // Every curve is kept as far as it got: nothing drawn live is taken back.
    QVERIFY2(
        furthestDrawn(chart) >= live_reach && pointsDrawn(chart) >= live_points / 2,
        qPrintable(QStringLiteral("after the cancel %1 points reaching %2, before %3 reaching %4")
                       .arg(pointsDrawn(chart))
                       .arg(furthestDrawn(chart))
                       .arg(live_points)
                       .arg(live_reach)));
    // The curves are said to be partial.
    QVERIFY2(chart->title().contains(QStringLiteral("cancel")), qPrintable(chart->title()));
    delete window;
  }
};

DPLAB_TEST_MAIN(TestCancelKeepsCurves)
#include "test_cancel_keeps_curves.moc"
