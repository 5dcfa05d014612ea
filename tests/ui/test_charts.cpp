// Issue #9 items 5, 6 and 8 on the real window: legends sit outside the axes; the y range holds
// every point drawn (the first point and the faint per-candidate curves too); log/linear toggle;
// regression experiments are labelled as loss on log axes with no "-1e+300"; the α–C heatmap uses
// true α and C values (CSV and log axes), a colour map not ending in the background colour, a
// readable best label, hover values and an overlay fitted to the best cells.
#include <qcustomplot.h>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/chart_view.h"
#include "form/experiment_form.h"
#include "run/run_controller.h"
#include "run/run_data.h"
#include "shell/main_window.h"
#include "support/test_registry.h"
#include "ui_test_support.h"
#include "views/accuracy_tab.h"
#include "views/heatmap_tab.h"
#include "views/results_model.h"
#include "views/results_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {
// A Figure 2-like regression grid (synthetic-linear, linear model) small enough for a test.
experiment::ExperimentConfig regressionGrid() {
  return experiment::parse_experiment_text(R"({
    "name": "ui test regression grid",
    "seed": 1, "repeats": 1, "eval_every": 10,
    "dataset": {"source": "synthetic-linear", "num_samples": 2000, "dim": 10},
    "model": {"kind": "linear"},
    "privacy": {"noise_multiplier": 4, "lot_size": 100, "steps": 60},
    "optimizers": [{"name": "dpsgd", "grid": {
      "learning_rate": [0.0001, 0.001, 0.01, 0.1, 1, 10, 50],
      "clip": [0.001, 0.01, 0.1, 1, 10, 50]}}],
    "tuning": {"strategy": "grid"}
  })",
                                           "regression grid");
}

// Every data point of every visible graph lies inside the axis ranges.
void verifyEverythingInFrame(QCustomPlot* plot) {
  for (int i = 0; i < plot->graphCount(); ++i) {
    QCPGraph* g = plot->graph(i);
    if (!g->visible()) continue;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
      if (!std::isfinite(it->value)) continue;
      if (plot->yAxis->scaleType() == QCPAxis::stLogarithmic && !(it->value > 0))
        continue;  // not drawable
      QVERIFY2(plot->yAxis->range().contains(it->value),
               qPrintable(QStringLiteral("%1: y = %2 outside [%3, %4]")
                              .arg(g->name())
                              .arg(it->value)
                              .arg(plot->yAxis->range().lower)
                              .arg(plot->yAxis->range().upper)));
      QVERIFY2(plot->xAxis->range().contains(it->key), qPrintable(g->name()));
    }
  }
}

void verifyLegendOutside(QCustomPlot* plot) {
  if (!plot->legend->visible()) return;
  QVERIFY2(!plot->legend->outerRect().intersects(plot->axisRect()->rect()),
           "legend covers the axes");
}
}  // namespace

class TestCharts : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
  }
  void cleanupTestCase() { delete window_; }

  void classificationChartsShowEverything() {
    run(test::tinyExperiment());
    auto* box = window_->accuracyTab()->findChild<QCheckBox*>();
    QVERIFY(box);
    box->setChecked(true);  // faint per-candidate curves
    for (ChartView* chart : window_->accuracyTab()->charts()) {
      // The C_t chart is for adaptive clipping only: hidden here (no such optimizer).
      if (chart == window_->accuracyTab()->clipChart()) {
        QVERIFY(chart->isHidden());
        continue;
      }
      chart->plot()->replot();
      verifyEverythingInFrame(chart->plot());
      verifyLegendOutside(chart->plot());
      QVERIFY(chart->title().contains(QStringLiteral("ccuracy")) ||
              chart->title().contains(QStringLiteral("Best of k")));
    }
    // The log/linear toggle.
    ChartView* curves = window_->accuracyTab()->curvesChart();
    QVERIFY(!curves->logY());
    curves->setLogY(true);
    curves->fitValueRange();
    QCOMPARE(curves->plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    verifyEverythingInFrame(curves->plot());
    curves->setLogY(false);
    box->setChecked(false);
  }

  void regressionIsLabelledAsValidationMse() {
    run(regressionGrid());
    ChartView* curves = window_->accuracyTab()->curvesChart();
    ChartView* protocol = window_->accuracyTab()->protocolChart();
    for (ChartView* chart : {curves, protocol}) {
      chart->plot()->replot();
      // Scored and drawn by the validation MSE, never the training loss (issue #42 finding 5).
      QVERIFY2(chart->title().contains(QStringLiteral("MSE")), qPrintable(chart->title()));
      QVERIFY2(!chart->title().contains(QStringLiteral("accuracy")), qPrintable(chart->title()));
      QVERIFY2(!chart->title().contains(QStringLiteral("loss")), qPrintable(chart->title()));
      QVERIFY(chart->plot()->yAxis->label().contains(QStringLiteral("MSE")));
      QVERIFY(chart->logY());
      verifyEverythingInFrame(chart->plot());
      verifyLegendOutside(chart->plot());
      QVERIFY(chart->plot()->yAxis->range().lower > 0);
    }
    // No "-1e+300" in the table: regression has no accuracy, so best acc. is empty.
    ResultsModel* model = window_->resultsTab()->model();
    for (int r = 0; r < model->rowCount(); ++r) {
      const QString best =
          model->data(model->index(r, ResultsModel::kBestAccuracy), Qt::DisplayRole).toString();
      QCOMPARE(best, QStringLiteral("–"));
      QVERIFY(model->data(model->index(r, ResultsModel::kFinalTrainLoss), Qt::UserRole).toDouble() >
              0);
    }
  }

  void heatmapUsesTrueValues() {
    // (runs after the regression grid: 7 α × 6 C)
    HeatmapTab* heat = window_->heatmapTab();
    window_->tabs()->setCurrentWidget(heat);
    QCOMPARE(heat->cellCount(), 42);
    QCustomPlot* plot = heat->chart()->plot();
    plot->replot();
    QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(plot->xAxis->range().contains(0.001) && plot->xAxis->range().contains(50));
    QVERIFY(plot->yAxis->range().contains(0.0001) && plot->yAxis->range().contains(50));
    // CSV: the true α and C values of the grid, not cell indices.
    const CsvTable csv = heat->chart()->csvData();
    const int lr = csv.header.indexOf(QStringLiteral("learning_rate")),
              clip = csv.header.indexOf(QStringLiteral("clip"));
    QVERIFY(lr >= 0 && clip >= 0);
    QCOMPARE(csv.rows.size(), 42);
    QSet<double> alphas, clips;
    for (const QStringList& row : csv.rows) {
      alphas.insert(row.at(lr).toDouble());
      clips.insert(row.at(clip).toDouble());
    }
    QCOMPARE(alphas, (QSet<double>{0.0001, 0.001, 0.01, 0.1, 1, 10, 50}));
    QCOMPARE(clips, (QSet<double>{0.001, 0.01, 0.1, 1, 10, 50}));
    // Hover: the cell under (C = 0.1, α = 1) names its values.
    const QString hover = heat->hoverText(0.1, 1.0);
    QVERIFY2(hover.contains(QStringLiteral("α = 1,")) && hover.contains(QStringLiteral("C = 0.1")),
             qPrintable(hover));
    QVERIFY(hover.contains(QStringLiteral("final training loss")));
    QVERIFY(heat->hoverText(1e-9, 1.0).isEmpty());
    // Colour map: neither end is the (white) background.
    QCPColorScale* scale = nullptr;
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {  // beside the axes
      if (auto* s = qobject_cast<QCPColorScale*>(e)) scale = s;
    }
    QVERIFY(scale);
    for (double pos : {0.0, 1.0}) {
      const QColor end = QColor::fromRgb(scale->gradient().color(pos, QCPRange(0, 1)));
      QVERIFY2(end.lightness() < 235, qPrintable(end.name()));
    }
    // The framed cell is the Results winner, named in the title (dark text on the white chart;
    // a label over the cells was cut at the plot's edge, issue #25 item 7).
    QVERIFY(heat->winnerFrame());
    QVERIFY2(heat->chart()->title().contains(QStringLiteral("Results winner #")),
             qPrintable(heat->chart()->title()));
    QVERIFY(heat->chart()->titleElement()->textColor().lightness() < 80);
    // The overlay is the engine's fit to the best cells.
    QVERIFY(heat->overlayProduct() > 0);
    QVERIFY(plot->legend->visible());
    verifyLegendOutside(plot);
  }

  void logTicksAreDistinctPowersOfTen() {
    QCOMPARE(formatPowerOfTen(1000), QStringLiteral("10³"));
    QCOMPARE(formatPowerOfTen(1.6), QStringLiteral("1.6·10⁰"));
    QCOMPARE(formatPowerOfTen(0.3), QStringLiteral("3·10⁻¹"));
    QCOMPARE(formatPowerOfTen(0.25), QStringLiteral("2.5·10⁻¹"));
    QCOMPARE(formatPowerOfTen(9.96), QStringLiteral("10¹"));
    // A log axis over less than a decade (a colour scale of losses 0.7–2.2) used to read
    // "2·10⁰ 2·10⁰ 2·10⁰": every label is now distinct and never "e+".
    ChartView view(QStringLiteral("t"), QStringLiteral("t"));
    view.resize(600, 900);
    setLogAxis(view.plot()->yAxis);
    view.plot()->yAxis->setRange(0.7, 2.2);
    view.plot()->replot();
    const QVector<QString> labels = view.plot()->yAxis->tickVectorLabels();
    QVERIFY(labels.size() >= 2);
    QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
    for (const QString& l : labels) {
      QVERIFY2(!l.contains(QStringLiteral("e+")), qPrintable(l));
      QVERIFY2(!l.contains(QStringLiteral("·10")), qPrintable(l));  // 0.7..2.2: plain decimals
    }
  }

  // Issue #44: every chart's ticks (linear and log axes alike, one formatTick) are plain decimals
  // while the power of ten is within ±4 — "1.3", "0.75", "0.001", not "1.3·10⁰", "7.5·10⁻¹" —
  // each the tick itself (a log axis over less than a decade wrote its 1.25 tick "1.2"), and
  // powers of ten beyond (QCustomPlot's "gb" wrote 300000 in full).
  void tickLabelsArePlainDecimalsWhereTheyFit() {
    QCOMPARE(formatTick(1.3), QStringLiteral("1.3"));
    QCOMPARE(formatTick(0.75), QStringLiteral("0.75"));
    QCOMPARE(formatTick(0.001), QStringLiteral("0.001"));
    QCOMPARE(formatTick(0.0001), QStringLiteral("0.0001"));
    QCOMPARE(formatTick(1.25), QStringLiteral("1.25"));
    QCOMPARE(formatTick(0.1 + 0.2), QStringLiteral("0.3"));
    QCOMPARE(formatTick(0), QStringLiteral("0"));
    QCOMPARE(formatTick(-0.5), QStringLiteral("-0.5"));
    QCOMPARE(formatTick(300), QStringLiteral("300"));
    QCOMPARE(formatTick(25000), QStringLiteral("25000"));
    QCOMPARE(formatTick(1e-5), QStringLiteral("10⁻⁵"));
    QCOMPARE(formatTick(2.5e5), QStringLiteral("2.5·10⁵"));
    QCOMPARE(formatTick(1e6), QStringLiteral("10⁶"));
    ChartView view(QStringLiteral("t"), QStringLiteral("t"));
    view.resize(600, 900);
    view.show();
    struct Range {
      bool log;
      double lower, upper;
    };
    auto labelsOf = [&](const Range& r) {
      view.setLogY(r.log);
      view.plot()->yAxis->setRange(r.lower, r.upper);
      view.plot()->replot();
      return std::pair{view.plot()->yAxis->tickVector(), view.plot()->yAxis->tickVectorLabels()};
    };
    for (const Range& r : {Range{false, 0.1, 2}, Range{false, 0, 0.0012}, Range{false, -1, 1},
                           Range{false, 0, 12000}, Range{true, 0.01, 100}, Range{true, 0.7, 2.2},
                           Range{true, 0.55, 1.9}, Range{true, 3, 9}}) {
      const auto [ticks, labels] = labelsOf(r);
      QVERIFY(labels.size() >= 2);
      for (int i = 0; i < labels.size(); ++i) {
        const QString where = QStringLiteral("%1 axis %2..%3: tick %4 labelled \"%5\"")
                                  .arg(r.log ? QStringLiteral("log") : QStringLiteral("linear"))
                                  .arg(r.lower)
                                  .arg(r.upper)
                                  .arg(ticks[i], 0, 'g', 17)
                                  .arg(labels[i]);
        bool plain = false;
        const double read = labels[i].toDouble(&plain);
        QVERIFY2(plain && !labels[i].contains(QLatin1Char('e')), qPrintable(where));
        QVERIFY2(std::abs(read - ticks[i]) <= 1e-9 * std::max(1.0, std::abs(ticks[i])),
                 qPrintable(where));
      }
    }
    // Beyond ±4 powers of ten: a power of ten, never "e+".
    for (const Range& r : {Range{false, 2e5, 6e5}, Range{true, 1e-7, 1e-5}}) {
      const auto [ticks, labels] = labelsOf(r);
      QVERIFY(labels.size() >= 2);
      for (const QString& label : labels) {
        QVERIFY2(label.contains(QStringLiteral("10⁵")) || label.contains(QStringLiteral("10⁻")),
                 qPrintable(label));
        QVERIFY2(!label.contains(QLatin1Char('e')), qPrintable(label));
      }
    }
  }

  void adamGridHasNoEmptyLegend() {
    run(test::tinyExperiment());
    HeatmapTab* heat = window_->heatmapTab();
    auto* optimizer = heat->findChildren<QComboBox*>().value(0);
    QVERIFY(optimizer);
    optimizer->setCurrentIndex(optimizer->findText(QStringLiteral("DPAdam")));
    QCOMPARE(heat->overlayProduct(), 0.0);  // one α: no line
    QVERIFY(!heat->chart()->plot()->legend->visible());
  }

 private:
  void run(const experiment::ExperimentConfig& config) {
    QVERIFY(test::runConfigToEnd(window_, config));
    QCoreApplication::processEvents();
  }

  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestCharts)
#include "test_charts.moc"
