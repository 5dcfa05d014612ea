// Issue #15 on the real window: a run with OSO-DPSGD and FixedQuantile shows, beside the accuracy
// curves, the live clipping threshold C_t of every adaptive candidate (and OSO-DPSGD's rho_t on a
// right log axis), drawn from the engine's numbers (tuning::adaptive_clip_curves over the run's
// recorded curve points); a run without an adaptive optimizer hides the chart.
#include <qcustomplot.h>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "chart_series/clip_curves.h"
#include "charts/chart_view.h"
#include "form/experiment_form.h"
#include "run/run_controller.h"
#include "run/run_data.h"
#include "shell/main_window.h"
#include "support/test_registry.h"
#include "ui_test_support.h"
#include "views/accuracy_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

experiment::ExperimentConfig adaptiveExperiment() {
  return experiment::parse_experiment_text(R"({
    "name": "ui test adaptive clipping",
    "seed": 3, "repeats": 2, "eval_every": 10,
    "dataset": {"source": "synthetic-binary"},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1.0, "lot_size": 100, "steps": 100},
    "optimizers": [
      {"name": "oso-dpsgd", "grid": {"learning_rate": [0.1, 1.0], "clip": 0.1}},
      {"name": "fixed-quantile", "grid": {"learning_rate": 0.5, "clip": 5,
                                          "target_quantile": [0.3, 0.7]}},
      {"name": "dpsgd", "grid": {"learning_rate": 0.5, "clip": 1}}
    ],
    "tuning": {"strategy": "grid"}
  })",
                                           "adaptive");
}

}  // namespace

class TestClipChart : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
  }
  void cleanupTestCase() { delete window_; }

  void drawsTheEnginesLiveThreshold() {
    run(adaptiveExperiment());
    window_->tabs()->setCurrentWidget(window_->accuracyTab());
    ChartView* chart = window_->accuracyTab()->clipChart();
    QVERIFY(chart->isVisible());
    QCustomPlot* plot = chart->plot();
    plot->replot();
    const tuning::SearchResults& results = window_->runData()->results();
    const auto curves = tuning::adaptive_clip_curves(results);
    QCOMPARE(curves.size(), std::size_t{4});  // 2 OSO-DPSGD + 2 FixedQuantile candidates
    // 4 C_t graphs on the left axis, 2 rho_t graphs (OSO-DPSGD) on the right one.
    int clip_graphs = 0, rate_graphs = 0;
    for (int i = 0; i < plot->graphCount(); ++i) {
      (plot->graph(i)->valueAxis() == plot->yAxis ? clip_graphs : rate_graphs) += 1;
    }
    QCOMPARE(clip_graphs, 4);
    QCOMPARE(rate_graphs, 2);
    QVERIFY(plot->yAxis2->visible());
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(plot->yAxis2->scaleType(), QCPAxis::stLogarithmic);
    // Graph i's points are curve i's numbers, and each is the geometric mean of the two
    // repeats' recorded C_t at that iteration.
    int g = 0;
    for (const auto& curve : curves) {
      QCPGraph* graph = plot->graph(g);
      QCOMPARE(graph->valueAxis(), plot->yAxis);
      QCOMPARE(graph->data()->size(), static_cast<int>(curve.clip.size()));
      QCOMPARE(curve.clip.size(), std::size_t{10});
      auto it = graph->data()->constBegin();
      for (std::size_t k = 0; k < curve.clip.size(); ++k, ++it) {
        QCOMPARE(it->key, static_cast<double>(curve.iterations[k]));
        QCOMPARE(it->value, curve.clip[k]);
        const double a = results.job(curve.candidate, 0).curve[k].clip;
        const double b = results.job(curve.candidate, 1).curve[k].clip;
        QVERIFY(test::closeRel(curve.clip[k], std::sqrt(a * b), 1e-12));
      }
      // The threshold adapts: the last C_t differs from C_0.
      const double c0 = results.candidates[static_cast<std::size_t>(curve.candidate)].clip;
      QVERIFY2(curve.clip.back() != c0, qPrintable(QString::number(curve.clip.back())));
      g += curve.kind == optim::OptimizerKind::kOsoDpSgd ? 2 : 1;
      // Every point drawn is inside the frame of its axis.
      for (auto p = graph->data()->constBegin(); p != graph->data()->constEnd(); ++p) {
        QVERIFY(plot->yAxis->range().contains(p->value));
        QVERIFY(plot->xAxis->range().contains(p->key));
      }
    }
    // FixedQuantile with gamma = 0.3 ends below the gamma = 0.7 run: a lower target quantile
    // clips more examples, so C_t shrinks more (Andrew et al. 2021, the geometric update).
    QVERIFY2(curves[2].clip.back() < curves[3].clip.back(),
             qPrintable(
                 QStringLiteral("%1 vs %2").arg(curves[2].clip.back()).arg(curves[3].clip.back())));
    // Legend outside the axes, one entry per optimizer and series.
    QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->rect()));
    QStringList entries;
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
      if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
        entries << item->plottable()->name();
    }
    QVERIFY2(entries.size() == 3, qPrintable(entries.join(QStringLiteral(" | "))));
  }

  // A custom network loaded into the form survives the round trip through the form unchanged.
  void formKeepsACustomNetwork() {
    const auto config = experiment::parse_experiment_text(R"({
      "name": "custom in the form", "seed": 1,
      "dataset": {"source": "synthetic-binary", "num_samples": 400, "dim": 16},
      "model": {"kind": "custom", "input": [4, 4, 1],
                "layers": [{"type": "conv", "channels": 2, "kernel": 3}, {"type": "relu"},
                           {"type": "dense", "units": 2}]},
      "privacy": {"noise_multiplier": 1.0, "lot_size": 40, "steps": 20},
      "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": 0.5, "clip": 1}}]
    })",
                                                          "custom");
    window_->form()->setConfig(config);
    const auto back = window_->form()->config();
    QVERIFY(back.model.kind == models::ModelKind::kCustom);
    QCOMPARE(back.model.network, config.model.network);
  }

  void hiddenWithoutAdaptiveOptimizer() {
    run(test::tinyExperiment());
    QVERIFY(window_->accuracyTab()->clipChart()->isHidden());
  }

 private:
  void run(const experiment::ExperimentConfig& config) {
    QVERIFY(test::runConfigToEnd(window_, config));
    QCoreApplication::processEvents();
  }

  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestClipChart)
#include "test_clip_chart.moc"
