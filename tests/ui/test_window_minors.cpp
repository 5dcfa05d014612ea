// Issue #25's minor items in the real window:
// 9  the log folds only a message repeated in a row (a second run's "Run started" folded into
//    the first: "(×2)"); the progress bar says "no run yet" (not "0 / 1 jobs") before any run;
// 15 the run shown states the ε it spent ("spent ε ≤", bold on green) and the form's figures
//    say "plan (before running)", in another style;
// 7  the α–C heatmap has a tick at every grid value and says by what its framed cell won;
// 10 the run history names the release mode and keeps the newest run in view;
// 14 "Accountants disagree" says its starting values are an example and takes the experiment's
//    settings on request.
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>

#include "run/history_panel.h"
#include "run/run_data.h"
#include "shell/run_bar.h"
#include "shell/status_panel.h"
#include "support/test_registry.h"
#include "views/accountant_gap_view.h"
#include "views/heatmap_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

QStringList logLines(MainWindow* window) {
  auto* log = window->statusPanel()->findChild<QPlainTextEdit*>();
  return log ? log->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts) : QStringList();
}

QList<double> tickPositions(QCPAxis* axis) {
  auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
  return ticker ? ticker->ticks().keys() : QList<double>();
}

}  // namespace

class TestWindowMinors : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
  }
  void cleanupTestCase() { delete window_; }

  void progressSaysNoRunBeforeTheFirstRun() {
    auto* bar = window_->runBar()->findChild<QProgressBar*>();
    QVERIFY(bar);
    QCOMPARE(bar->text(), QStringLiteral("no run yet"));
  }

  void logFoldsOnlyRepeatsInARow() {
    StatusPanel* status = window_->statusPanel();
    status->clear();
    status->addMessage(QStringLiteral("alpha"), false);
    status->addMessage(QStringLiteral("alpha"), false);
    status->addMessage(QStringLiteral("beta"), false);
    status->addMessage(QStringLiteral("alpha"), false);
    const QStringList lines = logLines(window_);
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines[0].endsWith(QStringLiteral("alpha (×2)")), qPrintable(lines[0]));
    QVERIFY2(lines[2].endsWith(QStringLiteral("alpha")), qPrintable(lines[2]));

    // Two runs of the same experiment: two "Run started" lines.
    status->clear();
    QVERIFY(test::runToEnd(window_));
    QVERIFY(test::runToEnd(window_));
    int started = 0;
    for (const QString& line : logLines(window_)) {
      QVERIFY2(
          !(line.contains(QStringLiteral("Run started")) && line.contains(QStringLiteral("×"))),
          qPrintable(line));
      started += line.contains(QStringLiteral("Run started")) ? 1 : 0;
    }
    QCOMPARE(started, 2);
  }

  void spentAndPlannedEpsilonDifferAtAGlance() {
    QVERIFY(window_->runData()->hasRun());
    const QString shown = window_->shownRunText();
    QVERIFY2(shown.contains(QStringLiteral("spent ε ≤")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("background-color")), qPrintable(shown));
    const QString plan = window_->form()->tuningSummary()->text();
    QVERIFY2(plan.contains(QStringLiteral("plan (before running)")), qPrintable(plan));
    QVERIFY2(plan.contains(QStringLiteral("<i")), qPrintable(plan));
    QVERIFY(!plan.contains(QStringLiteral("spent")));
  }

  void heatmapTicksEveryGridValue() {
    HeatmapTab* heatmap = window_->heatmapTab();
    test::showChart(window_, heatmap->chart());
    QCustomPlot* plot = heatmap->chart()->plot();
    const QList<double> lr = tickPositions(plot->yAxis);
    const QList<double> clip = tickPositions(plot->xAxis);
    // tinyExperiment's DPSGD grid: α ∈ {0.1, 0.5, 2}, C = 1.
    QCOMPARE(lr, (QList<double>{0.1, 0.5, 2.0}));
    QCOMPARE(clip, (QList<double>{1.0}));
    auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QCOMPARE(ticker->ticks().value(2.0), QStringLiteral("2"));
    QCOMPARE(ticker->ticks().value(0.1), QStringLiteral("0.1"));
    // The framed cell is the Results winner, and the chart says by what it won.
    QVERIFY2(heatmap->chart()->title().contains(QStringLiteral("Results winner #")) &&
                 heatmap->chart()->title().contains(
                     QStringLiteral("(best mean final validation accuracy)")),
             qPrintable(heatmap->chart()->title()));
  }

  void historyNamesTheReleaseModeNewestInView() {
    HistoryPanel* panel = window_->historyPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->count() >= 2, 30000);
    QTableWidget* table = panel->table();
    QCOMPARE(table->horizontalHeaderItem(HistoryPanel::kRelease)->text(),
             QStringLiteral("release"));
    QCOMPARE(table->item(0, HistoryPanel::kRelease)->text(), QStringLiteral("explore"));
    QCOMPARE(table->rowAt(1), 0);  // the first (newest) row is at the top of the view
  }

  void accountantsViewSaysExampleAndTakesTheExperiment() {
    AccountantGapView* view = window_->accountantGapView();
    QVERIFY(view->sourceText().contains(QStringLiteral("Example settings")));
    QSignalSpy computed(view, &AccountantGapView::computed);
    view->useExperimentButton()->click();
    QVERIFY(view->sourceText().contains(QStringLiteral("Your experiment")));
    // tinyExperiment: T = 100 steps, so the ε-vs-T series ends at T = 100.
    QTRY_VERIFY_WITH_TIMEOUT(
        !view->busy() && !view->stepsPoints().empty() && view->stepsPoints().back().x == 100,
        60000);
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestWindowMinors)
#include "test_window_minors.moc"
