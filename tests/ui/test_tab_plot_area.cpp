// Issue #44 (exploration): every tab is usable on a 1024 × 700 screen (and 1024 × 768). The
// window runs a small search (so the accuracy curves and the best-of-k chart carry their
// legends), then every result tab is visited — and every page of a tab widget inside it (the
// Privacy-of-tuning Fig. 1 panels on a narrow window) — and each shown plot's drawable area (the
// QCustomPlot axis rect, where the data go) is measured. It must be at least kMinWidth ×
// kMinHeight and lie inside the window. At 1024 px three tabs failed: "Accountants disagree"
// (charts ~30 px wide beside the settings), "OSO protocol" (the chart panel over the controls) and
// the Accuracy tab's best-of-k chart (25–45 px tall). The Run history in its dock shows its
// columns or lets them scroll into view.
#include <QDockWidget>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>

#include "support/test_registry.h"
#include "views/accuracy_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

constexpr int kMinWidth = 250;   // px of the axis rect
constexpr int kMinHeight = 150;  // px of the axis rect

// The settings columns beside the charts that cut their content: a scroll area that does not
// scroll sideways holding a widget wider than its viewport.
QStringList cutColumns(QWidget* page, const QString& tab) {
  QStringList cut;
  for (QScrollArea* scroll : page->findChildren<QScrollArea*>()) {
    if (!scroll->isVisible() || !scroll->widget() ||
        scroll->horizontalScrollBarPolicy() != Qt::ScrollBarAlwaysOff)
      continue;
    const int need = scroll->widget()->minimumSizeHint().width();
    if (need > scroll->viewport()->width())
      cut << QStringLiteral("%1: settings need %2 px in %3")
                 .arg(tab)
                 .arg(need)
                 .arg(scroll->viewport()->width());
  }
  return cut;
}

struct Area {
  QString name;
  QRect axes;  // in window coordinates
  bool inside = true;
};

// Every shown chart of every visible result tab, measured (with DPLAB_TEST_SCREENSHOTS set, a
// picture of each tab: "<tag>-<tab number>.png").
QList<Area> measureTabs(MainWindow* window, const QString& tag, QStringList* cut) {
  QList<Area> areas;
  QTabWidget* tabs = window->tabs();
  for (int t = 0; t < tabs->count(); ++t) {
    if (!tabs->isTabVisible(t)) continue;
    tabs->setCurrentIndex(t);
    QApplication::processEvents();
    QWidget* page = tabs->widget(t);
    for (ChartView* chart : page->findChildren<ChartView*>()) {
      test::showChart(window, chart);  // its page of any tabs inside the result tab, laid out
      for (int i = 0; i < 2; ++i) QApplication::processEvents();
      if (!chart->isVisible()) continue;  // hidden by design (the C_t chart without C_t)
      QCustomPlot* plot = chart->plot();
      plot->replot(QCustomPlot::rpImmediateRefresh);
      const QRect local = plot->axisRect()->rect();
      Area a;
      a.name = tabs->tabText(t) + QStringLiteral(" / ") + chart->fileStem();
      a.axes = QRect(plot->mapTo(window, local.topLeft()), local.size());
      // Inside the window and not cut by whatever holds the chart (a scroll area's viewport, a
      // splitter squeezing it to nothing): the visible part of the plot covers the axis rect.
      const QRect visible = plot->visibleRegion().boundingRect();
      a.inside = window->rect().contains(a.axes) && visible.contains(local);
      areas << a;
    }
    *cut << cutColumns(page, tabs->tabText(t));
    test::saveShot(window, QStringLiteral("%1-%2").arg(tag).arg(t, 2, 10, QLatin1Char('0')));
  }
  return areas;
}

QString describe(const Area& a) {
  return QStringLiteral("%1: %2 x %3 at %4,%5%6")
      .arg(a.name)
      .arg(a.axes.width())
      .arg(a.axes.height())
      .arg(a.axes.x())
      .arg(a.axes.y())
      .arg(a.inside ? QString() : QStringLiteral(" (cut)"));
}

}  // namespace

class TestTabPlotArea : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
    QVERIFY(test::runToEnd(window_));
  }
  void cleanupTestCase() { delete window_; }

  void everyPlotHasRoom_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1024x700") << QSize(1024, 700);
    QTest::newRow("1024x768") << QSize(1024, 768);
  }
  void everyPlotHasRoom() {
    QFETCH(QSize, size);
    window_->resize(size);
    QTRY_COMPARE(window_->size(), size);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    QStringList all, failing;
    const QList<Area> areas =
        measureTabs(window_, QString::fromLatin1(QTest::currentDataTag()), &failing);
    for (const Area& a : areas) {
      all << describe(a);
      if (a.axes.width() < kMinWidth || a.axes.height() < kMinHeight || !a.inside)
        failing << describe(a);
    }
    qInfo("%s drawable areas:\n  %s", qPrintable(QTest::currentDataTag()),
          qPrintable(all.join(QStringLiteral("\n  "))));
    // Every result tab with a chart was measured (the teaching and paper-figure tabs included).
    QVERIFY2(areas.size() >= 14, qPrintable(all.join(QStringLiteral("; "))));
    QVERIFY2(failing.isEmpty(), qPrintable(QStringLiteral("under %1 x %2 px or cut: %3")
                                               .arg(kMinWidth)
                                               .arg(kMinHeight)
                                               .arg(failing.join(QStringLiteral("; ")))));
  }

  // The run history beside the form: every column can be brought into view (it showed 3 of 12
  // and its horizontal scroll bar did not move).
  void historyColumnsReachable() {
    window_->resize(1024, 700);
    QTRY_COMPARE(window_->size(), QSize(1024, 700));
    auto* bottom = window_->findChild<QDockWidget*>(QStringLiteral("bottomDock"));
    QVERIFY(bottom);
    bottom->raise();
    QWidget* history = window_->historyPanel();
    for (QWidget* w = history->parentWidget(); w; w = w->parentWidget()) {
      auto* tabs = qobject_cast<QTabWidget*>(w);
      if (!tabs) continue;
      for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i) == history || tabs->widget(i)->isAncestorOf(history))
          tabs->setCurrentIndex(i);
    }
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    auto* table = window_->historyPanel()->findChild<QTableView*>();
    QVERIFY(table);
    QVERIFY(table->isVisible());
    QVERIFY(table->model()->rowCount() >= 1);
    QHeaderView* header = table->horizontalHeader();
    int total = 0;
    for (int c = 0; c < header->count(); ++c)
      if (!header->isSectionHidden(c)) total += header->sectionSize(c);
    const int viewport = table->viewport()->width();
    QScrollBar* bar = table->horizontalScrollBar();
    QVERIFY2(total <= viewport || (bar->isVisible() && bar->maximum() > 0),
             qPrintable(QStringLiteral("columns %1 px in a %2 px viewport, scroll bar max %3 %4")
                            .arg(total)
                            .arg(viewport)
                            .arg(bar->maximum())
                            .arg(bar->isVisible() ? "shown" : "hidden")));
    // The last column scrolls into view.
    const int last = header->logicalIndex(header->count() - 1);
    table->scrollTo(table->model()->index(0, last));
    QApplication::processEvents();
    const QRect cell = table->visualRect(table->model()->index(0, last));
    QVERIFY2(cell.isValid() && table->viewport()->rect().intersects(cell),
             qPrintable(QStringLiteral("last column at %1..%2 outside 0..%3")
                            .arg(cell.left())
                            .arg(cell.right())
                            .arg(viewport)));
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestTabPlotArea)
#include "test_tab_plot_area.moc"
