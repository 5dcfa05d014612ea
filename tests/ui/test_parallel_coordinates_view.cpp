// The parallel-coordinates tab on the real window after a run: one polyline per finished
// candidate at the engine's axis positions (tuning::parallel_coordinates), log axes labelled
// "(log)" for a log-spaced grid, "n/a" under an axis a candidate does not have, each optimizer's
// winner drawn thick and named in the legend, and a hover tooltip naming the candidate.
#include <qcustomplot.h>

#include "chart_series/parallel_coordinates.h"
#include "charts/chart_hover.h"
#include "run/run_data.h"
#include "support/test_registry.h"
#include "tuning/winners.h"
#include "views/parallel_coordinates_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {
experiment::ExperimentConfig logGridExperiment() {
  return experiment::parse_experiment_text(R"({
    "name": "ui parallel coordinates",
    "seed": 3, "repeats": 1, "eval_every": 20,
    "dataset": {"source": "synthetic-binary"},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 2.0, "lot_size": 100, "steps": 60},
    "optimizers": [
      {"name": "dpsgd", "grid": {"learning_rate": [0.01, 0.1, 1.0], "clip": [0.5, 1.0]}},
      {"name": "dpadam", "grid": {"learning_rate": 0.001, "clip": [0.5, 1.0], "beta1": [0.8, 0.9]}}
    ],
    "tuning": {"strategy": "grid"}
  })",
                                           "pc");
}
}  // namespace

class TestParallelCoordinatesView : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, logGridExperiment());
    QVERIFY(test::runToEnd(window_));
    // A hidden tab draws when shown (issue #25 item 13): bring it to the front.
    window_->tabs()->setCurrentWidget(window_->parallelCoordinatesTab());
    // The drawing of the final results: live ones (a running job's last evaluation) may be drawn
    // first, with all 10 candidates and other scores.
    const auto drawnFinal = [this] {
      const auto& shown = window_->parallelCoordinatesTab()->shown();
      const tuning::ParallelCoordinates final_pc =
          tuning::parallel_coordinates(window_->runData()->results());
      return shown.candidates.size() == 10 && !shown.axes.empty() &&
             shown.axes.back().values == final_pc.axes.back().values &&
             shown.winner == final_pc.winner;
    };
    QTRY_VERIFY_WITH_TIMEOUT(drawnFinal(), 30000);
  }
  void cleanupTestCase() { delete window_; }

  void linesAtTheEnginesPositions() {
    ParallelCoordinatesTab* tab = window_->parallelCoordinatesTab();
    const tuning::ParallelCoordinates expected =
        tuning::parallel_coordinates(window_->runData()->results());
    const auto& pc = tab->shown();
    QCOMPARE(pc.candidates, expected.candidates);
    QCOMPARE(pc.axes.size(), expected.axes.size());
    QCustomPlot* plot = tab->chart()->plot();
    QCOMPARE(plot->graphCount(), 10);
    const int beta1 = [&] {
      for (std::size_t a = 0; a < pc.axes.size(); ++a)
        if (pc.axes[a].name == "beta1") return static_cast<int>(a);
      return -1;
    }();
    QVERIFY(beta1 >= 0);
    for (std::size_t row = 0; row < pc.candidates.size(); ++row) {
      auto* line = qobject_cast<QCPGraph*>(tab->lineOf(static_cast<int>(row)));
      QVERIFY(line);
      QCOMPARE(line->dataCount(), static_cast<int>(pc.axes.size()));
      for (std::size_t a = 0; a < pc.axes.size(); ++a) {
        const double f = tuning::axis_fraction(expected.axes[a], expected.axes[a].values[row]);
        const double y = line->data()->at(static_cast<int>(a))->value;
        if (std::isnan(f)) {
          QCOMPARE(y, ParallelCoordinatesTab::kNotApplicable);  // DPSGD has no β1
        } else {
          QCOMPARE(y, f);
        }
      }
      QCOMPARE(line->pen().widthF() > 3, pc.winner[row]);
    }
    test::saveShot(window_, QStringLiteral("parallel_coordinates"), tab);
    // α spans 10^-3 .. 1 on a geometric grid: a log axis, labelled so.
    auto* ticker = dynamic_cast<QCPAxisTickerText*>(plot->xAxis->ticker().data());
    QVERIFY(ticker);
    QStringList labels;
    for (const QString& l : ticker->ticks()) labels << l;
    QVERIFY2(labels.contains(QStringLiteral("α (log)")), qPrintable(labels.join(',')));
    QVERIFY(labels.contains(QStringLiteral("C")));
    QVERIFY(labels.contains(QStringLiteral("accuracy")));
  }

  void winnersInLegendAndTooltip() {
    ParallelCoordinatesTab* tab = window_->parallelCoordinatesTab();
    const auto winners = tuning::winners_per_optimizer(window_->runData()->results());
    QCustomPlot* plot = tab->chart()->plot();
    QStringList legend;
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
      if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
        legend << item->plottable()->name();
    }
    QCOMPARE(legend.size(), 2);
    for (int w : winners) {
      QVERIFY(w >= 0);
      bool named = false;
      for (const QString& l : legend) named = named || l.endsWith(QStringLiteral("#%1").arg(w));
      QVERIFY2(named, qPrintable(legend.join(QStringLiteral("; "))));
    }
    const auto& pc = tab->shown();
    std::size_t row = 0;
    while (!pc.winner[row]) ++row;
    auto* line = qobject_cast<QCPGraph*>(tab->lineOf(static_cast<int>(row)));
    test::showChart(window_, tab->chart());
    QTest::mouseMove(plot, test::pixelOf(line, line->dataCount() - 1));  // the score vertex
    const QString tip = tab->chart()->hover()->lastText();
    // Winners are drawn last, so a vertex they share with another line names a winner.
    QVERIFY2(tip.contains(QStringLiteral("WINNER")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("accuracy = ")), qPrintable(tip));
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestParallelCoordinatesView)
#include "test_parallel_coordinates_view.moc"
