// The winner per optimizer is highlighted in the results table (bold on gold, through the
// table's own proxy chain) and in the accuracy chart (a "winner #i" curve at the winner's mean
// curve), and these are exactly the engine's winners (tuning::winners_per_optimizer = honest
// selection's choice).
#include <qcustomplot.h>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "run/run_data.h"
#include "support/test_registry.h"
#include "tuning/aggregates.h"
#include "tuning/winners.h"
#include "views/accuracy_tab.h"
#include "views/results_model.h"
#include "views/results_tab.h"
#include "views/winner_highlight.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

class TestWinnerHighlight : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
    QVERIFY(test::runToEnd(window_));
  }
  void cleanupTestCase() { delete window_; }

  void tableRowsOfTheWinners() {
    const auto winners = tuning::winners_per_optimizer(window_->runData()->results());
    QCOMPARE(winners.size(), std::size_t{2});
    QAbstractItemModel* shown = window_->resultsTab()->view()->model();  // what the view paints
    auto verify = [&] {
      int highlighted = 0;
      for (int row = 0; row < shown->rowCount(); ++row) {
        const int candidate =
            shown->data(shown->index(row, ResultsModel::kIndex), Qt::UserRole).toInt();
        const bool winner = std::find(winners.begin(), winners.end(), candidate) != winners.end();
        const QVariant background =
            shown->data(shown->index(row, ResultsModel::kFinalAccuracy), Qt::BackgroundRole);
        const QVariant font =
            shown->data(shown->index(row, ResultsModel::kOptimizer), Qt::FontRole);
        if ((background.isValid() &&
             background.value<QBrush>().color() == WinnerHighlightProxy::kBackground) != winner)
          return -1;
        if ((font.isValid() && font.value<QFont>().bold()) != winner) return -1;
        highlighted += winner;
      }
      return highlighted;
    };
    QCOMPARE(verify(), 2);
    // Sorting moves rows; the highlight stays on the same candidates.
    window_->resultsTab()->view()->sortByColumn(ResultsModel::kFinalAccuracy, Qt::DescendingOrder);
    QCOMPARE(verify(), 2);
  }

  void winnerCurvesInTheAccuracyChart() {
    const auto& results = window_->runData()->results();
    const auto aggregates = tuning::aggregate_all(results);
    QCustomPlot* plot = window_->accuracyTab()->curvesChart()->plot();
    for (const auto& agg : aggregates) {
      QCPGraph* curve = nullptr;
      for (int g = 0; g < plot->graphCount(); ++g)
        if (plot->graph(g)->name().endsWith(QStringLiteral("winner #%1").arg(agg.winner)))
          curve = plot->graph(g);
      QVERIFY2(curve, qPrintable(QStringLiteral("no curve for winner #%1").arg(agg.winner)));
      QCOMPARE(curve->dataCount(), static_cast<int>(agg.curves.iterations.size()));
      // Its points are the winner's own (mean over repeats; repeats = 1 here: its job's curve).
      const auto& job = results.job(agg.winner, 0);
      for (int i = 0; i < curve->dataCount(); ++i) {
        QCOMPARE(curve->data()->at(i)->key,
                 static_cast<double>(job.curve[static_cast<std::size_t>(i)].iteration));
        QCOMPARE(curve->data()->at(i)->value, job.curve[static_cast<std::size_t>(i)].val_accuracy);
      }
    }
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestWinnerHighlight)
#include "test_winner_highlight.moc"
