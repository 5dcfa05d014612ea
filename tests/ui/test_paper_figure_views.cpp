// The paper-figure views on the real main window (tabs "Objective perturbation vs DP-SGD",
// "Sparse DP loss", "Canary audit"): each runs its engine experiment off the GUI thread (the
// Run click returns at once, the GUI thread's longest stall stays small), shows progress, draws
// exactly the engine's numbers (recomputed here with the same settings: every experiment is
// seeded), exports PNG/SVG/CSV through the chart export, and Cancel ends a long run within
// seconds without touching the shown result.
#include <qcustomplot.h>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/chart_view.h"
#include "data/dataset.h"
#include "figure_view_support.h"
#include "form/experiment_form.h"
#include "objective_perturbation/comparison_preset.h"
#include "reproduction/sparse_reproduction.h"
#include "shell/main_window.h"
#include "shell/stall_meter.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "ui_test_support.h"
#include "views/canary_audit_view.h"
#include "views/objpert_figure2_view.h"
#include "views/sparse_loss_view.h"
#include "views/sparse_preset_fields.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

constexpr double kMaxStallMs = 200;  // offscreen, 2 shared cores, work on a worker thread

// A seconds-long objective perturbation comparison on Synthetic-L.
ObjpertFigure2View::Settings tinyObjpert() {
  ObjpertFigure2View::Settings s;
  s.dataset = "synthetic-l";
  s.config.epsilons = {0.5, 4.0};
  s.config.trials = 3;
  s.config.epochs = 0.5;
  s.config.grid_size = 2;
  return s;
}

experiment::SparsePreset tinySparse() {
  auto p = experiment::sparse_paper_preset(testing::test_data_dir() + "/small_corpus.txt");
  p.vocabulary_size = 40;
  p.embedding_dim = 8;
  p.train_tokens = 400;
  p.test_tokens = 200;
  p.epochs = 1;
  p.eval_points = 4;
  p.eval_examples = 500;
  return p;
}

bool exports(ChartView* chart, const QString& dir, int expected_csv_rows) {
  QString error;
  ImageExportOptions options;
  options.dpi = 96;
  for (const char* suffix : {"png", "svg"}) {
    const QString path = dir + "/" + chart->fileStem() + "." + suffix;
    if (!exportPlotBySuffix(chart->plot(), path, options, &error) || QFile(path).size() < 500) {
      qWarning("export %s failed: %s", qPrintable(path), qPrintable(error));
      return false;
    }
  }
  const QString csv = dir + "/" + chart->fileStem() + ".csv";
  if (!chart->exportCsv(csv, &error)) return false;
  QFile file(csv);
  if (!file.open(QIODevice::ReadOnly)) return false;
  const int lines = QString::fromUtf8(file.readAll()).trimmed().split('\n').size();
  if (lines != expected_csv_rows + 1) {
    qWarning("%s: %d lines, expected %d rows + header", qPrintable(csv), lines, expected_csv_rows);
    return false;
  }
  return true;
}

}  // namespace

class TestPaperFigureViews : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    window_ = new MainWindow;
    window_->resize(1400, 900);
    window_->show();
    // The window's own experiment loads its data set first; stalls are measured after that.
    QTRY_VERIFY_WITH_TIMEOUT(window_->form()->dataReady(), 60000);
    QTest::qWait(200);
    objpert_ = window_->findChild<ObjpertFigure2View*>("objpertFigure2View");
    sparse_ = window_->findChild<SparseLossView*>("sparseLossView");
    canary_ = window_->findChild<CanaryAuditView*>("canaryAuditView");
    QVERIFY(objpert_ && sparse_ && canary_);
    QVERIFY(window_->tabs()->indexOf(objpert_) >= 0);
    QVERIFY(window_->tabs()->indexOf(sparse_) >= 0);
    QVERIFY(window_->tabs()->indexOf(canary_) >= 0);
  }
  void cleanupTestCase() { delete window_; }

  void objpertFigure2DrawsTheEngineComparison() {
    window_->tabs()->setCurrentWidget(objpert_);
    const auto settings = tinyObjpert();
    objpert_->setSettings(settings);
    // The click returns while the comparison runs; the GUI thread never stalls.
    QVERIFY(test::clickRunToEnd(window_, objpert_, kMaxStallMs));
    QCOMPARE(objpert_->progressBar()->value(), 1000);
    QVERIFY(objpert_->result().has_value());

    // The same comparison straight from the engine: the chart shows exactly its numbers.
    const auto data = objpert::load_comparison_dataset("synthetic-l", "", 0);
    const auto expected = objpert::run_comparison(data, settings.config);
    QCustomPlot* plot = objpert_->chart()->plot();
    QCOMPARE(plot->graphCount(), 3);
    QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
    for (int m = 0; m < 3; ++m) {
      QCPGraph* graph = plot->graph(m);
      QCOMPARE(graph->dataCount(), 2);
      QCPErrorBars* bars = nullptr;
      for (int p = 0; p < plot->plottableCount(); ++p) {
        auto* candidate = qobject_cast<QCPErrorBars*>(plot->plottable(p));
        if (candidate && candidate->dataPlottable() == graph) bars = candidate;
      }
      QVERIFY(bars);
      for (int i = 0; i < 2; ++i) {
        const auto& row = expected.rows[static_cast<std::size_t>(i)];
        const auto& s = m == 0 ? row.dishonest : m == 1 ? row.algorithm1 : row.honest;
        QCOMPARE(graph->data()->at(i)->key, row.epsilon);
        QVERIFY(test::closeRel(graph->data()->at(i)->value, 100 * s.mean, 1e-12));
        QVERIFY(test::closeRel(bars->data()->at(i).errorPlus, 100 * s.half_width, 1e-12));
        QVERIFY(s.half_width > 0);  // 3 trials: a real 1.96 SE bar
        QVERIFY(s.epsilon <= row.epsilon);
      }
    }
    QVERIFY(graphNamesContain(plot, "honest"));
    QVERIFY(graphNamesContain(plot, "dishonest"));
    QVERIFY(graphNamesContain(plot, "Algorithm 1"));
    QVERIFY(exports(objpert_->chart(), dir_.path(), 2 * 3));
  }

  void objpertCancelStopsALongRun() {
    auto settings = tinyObjpert();
    settings.config.epochs = 30;
    settings.config.trials = 20;
    objpert_->setSettings(settings);
    const auto before = objpert_->result()->rows.front().algorithm1.mean;
    QVERIFY(test::runThenCancel(objpert_, 300));
    QCOMPARE(objpert_->result()->rows.front().algorithm1.mean, before);  // result untouched
  }

  void objpertInvalidFieldIsNamed() {
    QSignalSpy messages(objpert_, &ObjpertFigure2View::message);
    auto settings = tinyObjpert();
    settings.config.delta = 1e-5;
    objpert_->setSettings(settings);
    auto* epsilons = objpert_->findChild<QLineEdit*>(QStringLiteral("epsilons"));
    QVERIFY(epsilons);
    QCOMPARE(epsilons->text(), QString("0.5, 4"));
    epsilons->setText("0.5, abc");
    QVERIFY(!objpert_->run());
    QCOMPARE(messages.count(), 1);
    QVERIFY(messages.at(0).at(0).toString().contains("ε values"));
    QVERIFY(messages.at(0).at(0).toString().contains("abc"));
  }

  void sparseLossCurvesAreTheEngineRuns() {
    window_->tabs()->setCurrentWidget(sparse_);
    const auto preset = tinySparse();
    sparse_->fields()->setPreset(preset);
    QVERIFY2(test::clickRunToEnd(window_, sparse_, kMaxStallMs),
             qPrintable(sparse_->calibrationText()));

    const auto data = experiment::prepare_text(preset);
    const auto calibration = experiment::calibrate(preset, data.train.size());
    const std::vector<training::WideMethod> methods = {
        training::WideMethod::kNonPrivate, training::WideMethod::kDpSgd,
        training::WideMethod::kSparseExponential, training::WideMethod::kSparseVector,
        training::WideMethod::kSparseRandom};
    const auto curves = experiment::run_figure1(preset, data, calibration, methods);
    int points = 0;
    for (const bool train : {true, false}) {
      QCustomPlot* plot = (train ? sparse_->trainChart() : sparse_->testChart())->plot();
      QCOMPARE(plot->graphCount(), 5);
      for (int m = 0; m < 5; ++m) {
        const auto& curve = curves[static_cast<std::size_t>(m)].run.curve;
        QCPGraph* graph = plot->graph(m);
        QCOMPARE(graph->name(), wideMethodLabel(methods[static_cast<std::size_t>(m)]));
        QCOMPARE(graph->dataCount(), static_cast<int>(curve.size()));
        for (int i = 0; i < graph->dataCount(); ++i) {
          const auto& p = curve[static_cast<std::size_t>(i)];
          QVERIFY(test::closeRel(
              graph->data()->at(i)->key,
              experiment::epoch_of_step(p.step, preset.lot_size, calibration.train_examples),
              1e-12));
          QVERIFY(test::closeRel(graph->data()->at(i)->value, train ? p.train_loss : p.test_loss,
                                 1e-12));
        }
        if (train) points += graph->dataCount();
      }
    }
    // The calibration shown is the engine's: Theorem 3's assumption and both epsilons named.
    const QString text = sparse_->calibrationText();
    QVERIFY(text.contains("Theorem 3"));
    // The guarantee is the Poisson-amplified one; the paper's q eps only as "paper's formula".
    QVERIFY(text.contains("Theorem 3 route ε ≤"));
    QVERIFY(text.contains("paper's formula"));
    QVERIFY(text.contains("RDP"));
    QVERIFY(text.contains(QString::number(calibration.steps)));
    QVERIFY(exports(sparse_->trainChart(), dir_.path(), points));
  }

  void canaryAuditShowsTheEngineHistograms() {
    window_->tabs()->setCurrentWidget(canary_);
    auto preset = tinySparse();
    preset.train_tokens = 1500;
    preset.epochs = 2;
    canary_->fields()->setPreset(preset);
    canary_->setCanaries(20, {1, 8});
    QVERIFY(test::clickRunToEnd(window_, canary_, kMaxStallMs, 180000));

    preset.canaries = 20;
    preset.canary_repeats = {1, 8};
    const auto expected = experiment::run_table2(preset);
    QCOMPARE(expected.size(), std::size_t(2 * 3 + 1));  // + never-inserted on the n_c = 8 model
    QCOMPARE(canary_->table()->rowCount(), 7);
    for (int r = 0; r < 7; ++r) {
      const auto& row = expected[static_cast<std::size_t>(r)];
      QCOMPARE(canary_->table()->item(r, 0)->text(), QString::number(row.repeats));
      QCOMPARE(canary_->table()->item(r, 2)->text(),
               formatReadable(row.histogram.test.distance, 3));
      QCOMPARE(canary_->table()->item(r, 3)->text(), formatReadable(row.histogram.test.p_value, 3));
      // Carlini et al.'s exposure beside rank and chi-square.
      QCOMPARE(canary_->table()->item(r, 4)->text(),
               formatReadable(row.exposure.mean, 3) + " / " + formatReadable(row.exposure.max, 3));
    }
    // The chart shows n_c = 8 (the largest): 4 bar series of 10 bins each + the uniform line.
    QCOMPARE(canary_->shownRepeats()->currentData().toInt(), 8);
    QCustomPlot* plot = canary_->chart()->plot();
    int bars_seen = 0;
    for (int p = 0; p < plot->plottableCount(); ++p) {
      auto* bars = qobject_cast<QCPBars*>(plot->plottable(p));
      if (!bars) continue;
      const auto& row = expected[static_cast<std::size_t>(3 + bars_seen)];
      QCOMPARE(bars->data()->size(), 10);
      for (int b = 0; b < 10; ++b)
        QCOMPARE(bars->data()->at(b)->value, row.histogram.counts[static_cast<std::size_t>(b)]);
      ++bars_seen;
    }
    QCOMPARE(bars_seen, 4);
    QCOMPARE(plot->graphCount(), 1);
    QCOMPARE(plot->graph(0)->data()->at(0)->value, 20.0 / 10.0);
    // Switching to n_c = 1 redraws from the same rows (3 series: no never-inserted there).
    canary_->shownRepeats()->setCurrentIndex(0);
    int series = 0;
    for (int p = 0; p < plot->plottableCount(); ++p)
      if (qobject_cast<QCPBars*>(plot->plottable(p))) ++series;
    QCOMPARE(series, 3);
    QVERIFY(exports(canary_->chart(), dir_.path(), 7 * 10));
  }

 private:
  static bool graphNamesContain(QCustomPlot* plot, const QString& text) {
    for (int i = 0; i < plot->graphCount(); ++i)
      if (plot->graph(i)->name().contains(text)) return true;
    return false;
  }

  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
  ObjpertFigure2View* objpert_ = nullptr;
  SparseLossView* sparse_ = nullptr;
  CanaryAuditView* canary_ = nullptr;
};

DPLAB_TEST_MAIN(TestPaperFigureViews)
#include "test_paper_figure_views.moc"
