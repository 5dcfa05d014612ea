// Issue #25 items 13, 6 and 7 in the real window:
// 13 a hidden result tab does not redraw while a run goes on (every tab's structural redraw at
//    once made the first tick of a run a 88–103 ms stall): its plots are not replotted, and it
//    catches up when shown; an export of a hidden chart reads it up to date;
// 6  "Privacy of tuning" at 1024 × 700 and 1920 × 1080: every chart's title is clear of the
//    "log y"/"Export" buttons, the y and x labels fit their axes inside the widget, and a legend
//    is no taller than its plot (Fig. 1a–c were ~130 px wide: titles under the buttons, 1b's y
//    label cut, its legend taller than the plot);
// 7  the α–C heatmap frames the Results winner's cell (the engine's winner rule, the one the
//    Results tab highlights), says so, and the frame lies inside the plot (it was cut by the
//    axes); the ticks are the grid values.
#include <QTabWidget>

#include "run/run_data.h"
#include "support/test_registry.h"
#include "tuning/runner.h"
#include "tuning/winners.h"
#include "views/accuracy_tab.h"
#include "views/heatmap_tab.h"
#include "views/parallel_coordinates_tab.h"
#include "views/privacy_tab.h"
#include "views/privacy_utility_tab.h"
#include "views/step_size_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

tuning::PointEvent point(int candidate, std::int64_t iteration, double accuracy) {
  tuning::PointEvent e;
  e.candidate = candidate;
  e.point.iteration = iteration;
  e.point.val_accuracy = accuracy;
  e.point.train_loss = 1 - accuracy;
  return e;
}

QList<double> tickPositions(QCPAxis* axis) {
  auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
  return ticker ? ticker->ticks().keys() : QList<double>();
}

// The drawn title text's rectangle: centred in the title element's inner rect (QCPTextElement).
QRect titleTextRect(ChartView* chart) {
  QCPTextElement* title = chart->titleElement();
  const QRect inner = title->rect();
  const QSize size =
      QFontMetrics(title->font()).boundingRect(QRect(), Qt::AlignCenter, title->text()).size();
  QRect text(QPoint(0, 0), size);
  text.moveCenter(inner.center());
  return text;
}

// Checks one chart's layout; returns an empty string or what is wrong.
QString layoutProblems(ChartView* chart) {
  QCustomPlot* plot = chart->plot();
  plot->replot(QCustomPlot::rpImmediateRefresh);
  QStringList problems;
  const QString name = chart->fileStem();
  const QRect text = titleTextRect(chart);
  const QRect buttons = chart->buttonsRect().translated(-plot->pos());
  if (text.intersects(buttons) || text.left() < 0 || text.right() > plot->width())
    problems << QStringLiteral("%1: title %2,%3 %4x%5 vs buttons %6,%7 %8x%9 (width %10)")
                    .arg(name)
                    .arg(text.x())
                    .arg(text.y())
                    .arg(text.width())
                    .arg(text.height())
                    .arg(buttons.x())
                    .arg(buttons.y())
                    .arg(buttons.width())
                    .arg(buttons.height())
                    .arg(plot->width());
  const QRect axes = plot->axisRect()->rect();
  // An axis label is drawn centred on its axis; each line must fit the widget.
  for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
    const QFontMetrics metrics(axis->labelFont());
    int longest = 0;
    for (const QString& line : axis->label().split(QLatin1Char('\n')))
      longest = std::max(longest, metrics.horizontalAdvance(line));
    const bool vertical = axis == plot->yAxis;
    const int centre = vertical ? axes.center().y() : axes.center().x();
    const int extent = vertical ? plot->height() : plot->width();
    if (centre - longest / 2 < 0 || centre + longest / 2 > extent)
      problems << QStringLiteral("%1: %2 label \"%3\" (%4 px) does not fit %5 px around %6")
                      .arg(name, vertical ? QStringLiteral("y") : QStringLiteral("x"),
                           axis->label())
                      .arg(longest)
                      .arg(extent)
                      .arg(centre);
  }
  if (plot->legend->visible() && plot->legend->outerRect().height() > axes.height())
    problems << QStringLiteral("%1: legend %2 px taller than the plot %3 px")
                    .arg(name)
                    .arg(plot->legend->outerRect().height())
                    .arg(axes.height());
  return problems.join(QStringLiteral("; "));
}

}  // namespace

class TestTabRedrawLayout : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
  }
  void cleanupTestCase() { delete window_; }

  void hiddenTabsDoNotRedrawDuringARun() {
    window_->tabs()->setCurrentWidget(window_->accuracyTab());
    QApplication::processEvents();
    QList<ChartView*> hidden = {window_->heatmapTab()->chart(), window_->stepSizeTab()->chart(),
                                window_->privacyUtilityTab()->chart(),
                                window_->parallelCoordinatesTab()->chart()};
    QMap<ChartView*, int> replots;
    for (ChartView* c : hidden)
      connect(c->plot(), &QCustomPlot::beforeReplot, this, [&replots, c] { ++replots[c]; });
    int shown_replots = 0;
    connect(window_->accuracyTab()->curvesChart()->plot(), &QCustomPlot::beforeReplot, this,
            [&shown_replots] { ++shown_replots; });

    const experiment::ExperimentConfig config = test::tinyExperiment();
    RunData* data = window_->runData();
    data->beginLive(tuning::Runner(config, tuning::load_experiment_data(config)).plan());
    for (int tick = 1; tick <= 5; ++tick) {
      tuning::MonitorUpdate update;
      for (int c = 0; c < 5; ++c) update.new_points.push_back(point(c, 10 * tick, 0.5 + 0.01 * c));
      data->apply(update);
      QTest::qWait(20);
    }
    const tuning::SearchResults done =
        tuning::Runner(config, tuning::load_experiment_data(config)).run();
    data->setResults(done);
    QTest::qWait(50);
    QVERIFY(shown_replots > 0);
    for (ChartView* c : hidden)
      QVERIFY2(replots.value(c) == 0,
               qPrintable(QStringLiteral("%1 replotted %2 times while hidden")
                              .arg(c->fileStem())
                              .arg(replots.value(c))));

    // An export of a hidden chart reads it up to date (the step-size chart's CSV is its drawn
    // points: DPAdam's step sizes).
    QVERIFY(!window_->stepSizeTab()->chart()->csvData().rows.isEmpty());

    // Shown, a tab catches up with the finished run at once.
    window_->tabs()->setCurrentWidget(window_->heatmapTab());
    QCOMPARE(window_->heatmapTab()->cellCount(), 3);
    QVERIFY(window_->heatmapTab()->winnerFrame());
    for (ChartView* c : hidden) disconnect(c->plot(), nullptr, this, nullptr);
    disconnect(window_->accuracyTab()->curvesChart()->plot(), nullptr, this, nullptr);
  }

  void heatmapFramesTheResultsWinnerInsideThePlot() {
    QVERIFY(test::runToEnd(window_));
    HeatmapTab* heatmap = window_->heatmapTab();
    for (int size = 0; size < 2; ++size) {
      window_->resize(size == 0 ? QSize(1024, 700) : QSize(1920, 1080));
      test::showChart(window_, heatmap->chart());
      QCustomPlot* plot = heatmap->chart()->plot();
      // tinyExperiment's DPSGD grid: α ∈ {0.1, 0.5, 2}, C = 1; ticks at exactly those values.
      QCOMPARE(tickPositions(plot->yAxis), (QList<double>{0.1, 0.5, 2.0}));
      QCOMPARE(tickPositions(plot->xAxis), (QList<double>{1.0}));
      // The frame is on the Results winner's cell (the engine's rule, as the Results tab).
      const tuning::SearchResults& results = window_->runData()->results();
      const int winner = tuning::winners_per_optimizer(window_->runData()->viewResults()).at(0);
      QVERIFY(winner >= 0);
      const auto& w = results.candidates.at(static_cast<std::size_t>(winner));
      QCPItemRect* frame = heatmap->winnerFrame();
      QVERIFY(frame);
      QVERIFY2(heatmap->winnerText().contains(QStringLiteral("Results winner #%1").arg(winner)),
               qPrintable(heatmap->winnerText()));
      QVERIFY(heatmap->winnerText().contains(QStringLiteral("validation accuracy")));
      const QPointF a = frame->topLeft->pixelPosition(), b = frame->bottomRight->pixelPosition();
      const double cx = plot->xAxis->coordToPixel(w.clip);
      const double cy = plot->yAxis->coordToPixel(w.optimizer.learning_rate);
      QVERIFY(std::min(a.x(), b.x()) < cx && cx < std::max(a.x(), b.x()));
      QVERIFY(std::min(a.y(), b.y()) < cy && cy < std::max(a.y(), b.y()));
      // The frame, pen included, lies inside the plot's axis rect: drawn whole, not cut.
      const double half = frame->pen().widthF() / 2;
      const QRectF outer = QRectF(a, b).normalized().adjusted(-half, -half, half, half);
      // (half a pixel of rounding either side)
      const QRectF axes = QRectF(plot->axisRect()->rect()).adjusted(-0.5, -0.5, 1.5, 1.5);
      QVERIFY2(axes.contains(outer),
               qPrintable(QStringLiteral("frame %1,%2–%3,%4 outside the plot %5,%6–%7,%8")
                              .arg(outer.left())
                              .arg(outer.top())
                              .arg(outer.right())
                              .arg(outer.bottom())
                              .arg(axes.left())
                              .arg(axes.top())
                              .arg(axes.right())
                              .arg(axes.bottom())));
      QVERIFY(frame->clipToAxisRect());
    }
    test::saveShot(window_, QStringLiteral("heatmap_1920x1080"), heatmap);
    window_->resize(1024, 700);
    test::showChart(window_, heatmap->chart());
    test::saveShot(window_, QStringLiteral("heatmap_1024x700"), heatmap);
  }

  void privacyOfTuningLaysOutWhole_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1024x700") << QSize(1024, 700);
    QTest::newRow("1920x1080") << QSize(1920, 1080);
  }
  void privacyOfTuningLaysOutWhole() {
    QFETCH(QSize, size);
    PrivacyTab* privacy = window_->privacyTab();
    window_->resize(size);
    window_->tabs()->setCurrentWidget(privacy);
    QTRY_VERIFY_WITH_TIMEOUT(privacy->upToDate(), 30000);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    QStringList problems;
    for (ChartView* chart : privacy->charts()) {
      privacy->showFigure1Panel(chart);
      for (int i = 0; i < 3; ++i) QApplication::processEvents();
      QVERIFY(chart->isVisible());
      const QString p = layoutProblems(chart);
      if (!p.isEmpty()) problems << p;
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    privacy->showFigure1Panel(privacy->figure1Panel(1));
    test::saveShot(window_, QStringLiteral("privacy_%1x%2").arg(size.width()).arg(size.height()),
                   privacy);
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestTabRedrawLayout)
#include "test_tab_redraw_layout.moc"
