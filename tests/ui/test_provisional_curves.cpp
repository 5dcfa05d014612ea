// Issue #25 item 5: the live "max" curve must not drop because a fast candidate reached an
// iteration before the good ones. While a run goes on, the max and median over candidates are
// drawn solid only up to the iteration every candidate of the optimizer has reached; beyond it
// they are dotted and named "provisional", and the winner curve is "winner #i (provisional)".
// Driven through the real window's RunData as the run controller drives it (plan, then points).
#include <qcustomplot.h>

#include "charts/chart_hover.h"
#include "charts/chart_view.h"
#include "run/run_data.h"
#include "support/test_registry.h"
#include "tuning/runner.h"
#include "views/accuracy_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

QCPGraph* graphNamed(QCustomPlot* plot, const QString& name) {
  for (int i = 0; i < plot->graphCount(); ++i)
    if (plot->graph(i)->name() == name) return plot->graph(i);
  return nullptr;
}

QStringList graphNames(QCustomPlot* plot) {
  QStringList names;
  for (int i = 0; i < plot->graphCount(); ++i) names << plot->graph(i)->name();
  return names;
}

// Issue #44: every series the hover names over a point of `chart` has an entry in its legend
// ("DPSGD median (provisional)" was named by the hover and missing from the legend).
void verifyHoverNamesAreInTheLegend(ChartView* chart) {
  QCustomPlot* plot = chart->plot();
  plot->replot();
  QStringList legend;
  for (int i = 0; i < plot->legend->itemCount(); ++i) {
    if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
      legend << item->plottable()->name();
  }
  int hovered = 0;
  for (int g = 0; g < plot->graphCount(); ++g) {
    QCPGraph* graph = plot->graph(g);
    if (!graph->visible()) continue;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
      const QPoint at(qRound(plot->xAxis->coordToPixel(it->key)),
                      qRound(plot->yAxis->coordToPixel(it->value)));
      for (const QString& block : chart->hover()->textAt(at).split(QStringLiteral("\n\n"))) {
        const QString name = block.section(QLatin1Char('\n'), 0, 0);
        if (name.isEmpty() || name.startsWith(QStringLiteral("…"))) continue;
        ++hovered;
        QVERIFY2(legend.contains(name),
                 qPrintable(QStringLiteral("the hover names \"%1\"; the "
                                           "legend lists: %2")
                                .arg(name, legend.join(QStringLiteral(", ")))));
      }
    }
  }
  QVERIFY(hovered > 0);
}

tuning::PointEvent point(int candidate, std::int64_t iteration, double accuracy) {
  tuning::PointEvent e;
  e.candidate = candidate;
  e.repeat = 0;
  e.point.iteration = iteration;
  e.point.val_accuracy = accuracy;
  e.point.train_loss = 0.5;
  return e;
}

}  // namespace

class TestProvisionalCurves : public QObject {
  Q_OBJECT
 private slots:
  void maxBeyondTheSlowestCandidateIsProvisional() {
    QTemporaryDir dir;
    const experiment::ExperimentConfig config = test::tinyExperiment();
    MainWindow* window = test::openWindow(dir, config);
    RunData* data = window->runData();
    const tuning::SearchResults plan =
        tuning::Runner(config, tuning::load_experiment_data(config)).plan();
    // Candidates 0–2 are DPSGD. The good one (0) is slow; candidate 1 is fast and worse.
    QCOMPARE(plan.candidates.at(0).optimizer_index, 0);
    QCOMPARE(plan.candidates.at(2).optimizer_index, 0);
    data->beginLive(plan);
    tuning::MonitorUpdate update;
    update.new_points = {point(0, 10, 0.80), point(0, 20, 0.82), point(1, 10, 0.50),
                         point(1, 20, 0.60), point(1, 30, 0.68), point(2, 10, 0.30),
                         point(2, 20, 0.40), point(2, 30, 0.45)};
    data->apply(update);
    QCOMPARE(data->settledIteration(0), std::int64_t{20});

    QCustomPlot* plot = window->accuracyTab()->curvesChart()->plot();
    QCPGraph* max = graphNamed(plot, QStringLiteral("DPSGD max"));
    QVERIFY2(max, qPrintable(graphNames(plot).join(QStringLiteral(", "))));
    // Solid: only where every DPSGD candidate has been; it never shows the drop 0.82 → 0.68.
    QCOMPARE(max->data()->size(), 2);
    QCOMPARE((max->data()->end() - 1)->key, 20.0);
    QCOMPARE((max->data()->end() - 1)->value, 0.82);
    QCPGraph* provisional = graphNamed(plot, QStringLiteral("DPSGD max (provisional)"));
    QVERIFY2(provisional, qPrintable(graphNames(plot).join(QStringLiteral(", "))));
    QCOMPARE(provisional->pen().style(), Qt::DotLine);
    QCOMPARE((provisional->data()->end() - 1)->key, 30.0);
    QCOMPARE((provisional->data()->end() - 1)->value, 0.68);
    QCOMPARE(provisional->data()->begin()->key, 20.0);  // joined to the last solid point
    QVERIFY(plot->legend->hasItemWithPlottable(provisional));
    QCPGraph* median_provisional = graphNamed(plot, QStringLiteral("DPSGD median (provisional)"));
    QVERIFY(median_provisional);
    QVERIFY(plot->legend->hasItemWithPlottable(median_provisional));
    verifyHoverNamesAreInTheLegend(window->accuracyTab()->curvesChart());
    if (QTest::currentTestFailed()) {
      delete window;
      return;
    }
    QVERIFY(window->accuracyTab()->curvesChart()->title().contains(QStringLiteral("provisional")));
    // The mid-run winner is provisional.
    bool provisional_winner = false;
    for (const QString& name : graphNames(plot))
      provisional_winner = provisional_winner || (name.startsWith(QStringLiteral("DPSGD winner")) &&
                                                  name.endsWith(QStringLiteral("(provisional)")));
    QVERIFY2(provisional_winner, qPrintable(graphNames(plot).join(QStringLiteral(", "))));
    // DPAdam's candidates have not started: all of its curve (none yet) would be provisional.
    QCOMPARE(data->settledIteration(1), std::int64_t{-1});
    // Item 11: a CSV taken mid-run says its ε covers the runs "so far", and counts the three
    // running jobs up to their last point shown (iterations 20, 30, 30: 80 queries).
    const CsvTable csv = window->accuracyTab()->curvesChart()->csvData();
    QCOMPARE(csv.constantColumns.size(), qsizetype{1});
    QCOMPARE(csv.constantColumns.front().name, QStringLiteral("epsilon_label"));
    QVERIFY2(csv.constantColumns.front().value.contains(QStringLiteral("so far")),
             qPrintable(csv.constantColumns.front().value));
    QCOMPARE(data->releaseCost().total_queries, std::int64_t{80});

    // Once the slow candidate catches up, the solid max covers iteration 30 with the true max.
    update = {};
    update.new_points = {point(0, 30, 0.84)};
    data->apply(update);
    max = graphNamed(plot, QStringLiteral("DPSGD max"));
    QVERIFY(max);
    QCOMPARE((max->data()->end() - 1)->key, 30.0);
    QCOMPARE((max->data()->end() - 1)->value, 0.84);
    QVERIFY(!graphNamed(plot, QStringLiteral("DPSGD max (provisional)")));

    // The finished run: nothing provisional.
    const tuning::SearchResults done =
        tuning::Runner(config, tuning::load_experiment_data(config)).run();
    data->setResults(done);
    for (const QString& name : graphNames(plot))
      QVERIFY2(!name.contains(QStringLiteral("provisional")), qPrintable(name));
    QVERIFY(!window->accuracyTab()->curvesChart()->csvData().constantColumns.front().value.contains(
        QStringLiteral("so far")));
    QVERIFY(!window->accuracyTab()->curvesChart()->title().contains(QStringLiteral("provisional")));
    delete window;
  }
};

DPLAB_TEST_MAIN(TestProvisionalCurves)
#include "test_provisional_curves.moc"
