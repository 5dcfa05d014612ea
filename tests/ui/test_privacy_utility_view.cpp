// The privacy–utility tab on the real window after a run: every marker sits at the engine's
// numbers (tuning::privacy_utility on the same results, computed here independently), what the
// search did is filled and every plan is hollow and says PLAN in its tooltip, the whole search's
// ε equals the results tab's release label's, and the CSV carries the plans labelled as such.
#include <qcustomplot.h>

#include "chart_series/privacy_utility.h"
#include "charts/chart_hover.h"
#include "run/run_data.h"
#include "support/test_registry.h"
#include "tuning/release_cost.h"
#include "views/privacy_utility_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

class TestPrivacyUtilityView : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
    QVERIFY(test::runToEnd(window_));
    // A hidden tab draws when shown (issue #25 item 13): bring it to the front.
    window_->tabs()->setCurrentWidget(window_->privacyUtilityTab());
    // The drawing of the final results (live ones may be drawn before): the whole search's ε.
    QTRY_VERIFY_WITH_TIMEOUT(window_->privacyUtilityTab()->shown().points.size() == 9 &&
                                 window_->privacyUtilityTab()->shown().points.back().epsilon ==
                                     tuning::release_cost(window_->runData()->results()).epsilon,
                             30000);
  }
  void cleanupTestCase() { delete window_; }

  void markersAtTheEnginesNumbers() {
    const tuning::PrivacyUtility expected = tuning::privacy_utility(window_->runData()->results());
    PrivacyUtilityTab* tab = window_->privacyUtilityTab();
    ChartView* chart = tab->chart();
    test::showChart(window_, chart);
    QCustomPlot* plot = chart->plot();
    int markers = 0, plans = 0;
    for (int g = 0; g < plot->graphCount(); ++g) {
      QCPGraph* graph = plot->graph(g);
      if (graph->property("dplabMode").isNull() || graph->dataCount() != 1) continue;
      ++markers;
      const double x = graph->data()->at(0)->key, y = graph->data()->at(0)->value;
      // Group "opt:o", mode "mode:i": the engine's point 4 o + i (explore, MA, LT, PS).
      const int o = graph->property("dplabGroup").toString().mid(4).toInt();
      const int mode = graph->property("dplabMode").toString().mid(5).toInt();
      const tuning::PrivacyUtilityPoint* match =
          &expected.points[static_cast<std::size_t>(4 * o + mode)];
      QCOMPARE(match->optimizer_index, o);
      QCOMPARE(x, match->epsilon);
      QCOMPARE(y, match->metric);
      const bool hollow = graph->scatterStyle().brush().color() == QColor(Qt::white);
      QCOMPARE(hollow, match->plan);
      test::showChart(window_, chart);
      QTest::mouseMove(plot, test::pixelOf(graph, 0));
      const QString tip = chart->hover()->lastText();
      QVERIFY2(tip.contains(QStringLiteral("ε ≤ ")), qPrintable(tip));
      // Its own text is listed (with any point drawn at the same place: with one repeat,
      // exploring K candidates costs what the MA plan of K runs costs).
      QVERIFY2(tip.contains(QString::fromStdString(match->label)), qPrintable(tip));
      if (match->plan) QVERIFY(tip.contains(QStringLiteral("PLAN")));
      plans += match->plan;
    }
    test::saveShot(window_, QStringLiteral("privacy_utility"), tab);
    QCOMPARE(markers, 2 * 4);  // 2 optimizers x (explore, MA, LT, PS)
    QCOMPARE(plans, 2 * 3);
    // The dashed LT sweep per optimizer: 8 plans each, increasing in ε.
    int sweeps = 0;
    for (int g = 0; g < plot->graphCount(); ++g) {
      QCPGraph* graph = plot->graph(g);
      if (graph->pen().style() != Qt::DashLine) continue;
      ++sweeps;
      QCOMPARE(graph->dataCount(), 8);
    }
    QCOMPARE(sweeps, 2);
  }

  void wholeSearchIsTheReleasedEpsilon() {
    const auto& points = window_->privacyUtilityTab()->shown().points;
    const auto& all = points.back();
    QCOMPARE(all.optimizer_index, -1);
    QVERIFY(!all.plan);
    const tuning::ReleaseCost cost = tuning::release_cost(window_->runData()->results());
    QCOMPARE(all.epsilon, cost.epsilon);
    QCOMPARE(all.label, tuning::epsilon_label(cost));
  }

  void csvLabelsPlans() {
    const CsvTable table = window_->privacyUtilityTab()->chart()->csvData();
    QVERIFY(table.header.contains(QStringLiteral("plan")));
    int plan_rows = 0, ran_rows = 0;
    const int plan_col = static_cast<int>(table.header.indexOf(QStringLiteral("plan")));
    for (const QStringList& row : table.rows) {
      plan_rows += row[plan_col] == QStringLiteral("plan");
      ran_rows += row[plan_col] == QStringLiteral("ran");
    }
    QCOMPARE(ran_rows, 3);               // explore per optimizer + the whole search
    QCOMPARE(plan_rows, 2 * 3 + 2 * 8);  // MA, LT, PS + the sweeps
  }

  // Issue #25 item 8: the legend's entries are whole at any width, on screen and in a 3.5 in
  // export (336 logical px): columns as wide as the widest entry ("plan: MA, best of K runs"
  // used to be cut to "…best of K r" in 165 px columns).
  void legendEntriesAreWholeAtAnyWidth() {
    ChartView* chart = window_->privacyUtilityTab()->chart();
    QCustomPlot* plot = chart->plot();
    QVERIFY(plot->legend->itemCount() >= 7);
    for (int width : {336, 672, 1000}) {
      chart->layoutLegend(width);
      plot->setGeometry(0, 0, width, 500);
      plot->replot(QCustomPlot::rpImmediateRefresh);
      QVERIFY2(plot->legend->outerRect().right() <= width,
               qPrintable(QStringLiteral("legend %1 px wide on a %2 px chart")
                              .arg(plot->legend->outerRect().width())
                              .arg(width)));
      for (int i = 0; i < plot->legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = plot->legend->item(i);
        if (!item) continue;  // an empty cell of the last row
        QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
                 qPrintable(QStringLiteral("%1 px: entry %2 is %3 px of the %4 it needs")
                                .arg(width)
                                .arg(i)
                                .arg(item->outerRect().width())
                                .arg(item->minimumOuterSizeHint().width())));
      }
    }
    chart->layoutLegend(chart->width());
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestPrivacyUtilityView)
#include "test_privacy_utility_view.moc"
