// A tiny experiment through the real engine Runner from the main window: the charts receive data,
// the results table has one row per candidate, every export writes a valid file, and the GUI
// thread's longest stall during the run is recorded (and small).
#include <qcustomplot.h>
#include <QAction>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "charts/chart_view.h"
#include "core/csv_table.h"
#include "experiment/config_compare.h"
#include "form/experiment_form.h"
#include "form/presets.h"
#include "run/run_controller.h"
#include "run/run_data.h"
#include "shell/main_window.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "tuning/release_cost.h"
#include "ui_test_support.h"
#include "views/accuracy_tab.h"
#include "views/heatmap_tab.h"
#include "views/results_model.h"
#include "views/results_tab.h"
#include "views/step_size_tab.h"

using namespace dplab;
using namespace dplab::ui;

namespace {
constexpr double kMaxStallMs = 200;  // offscreen, 2 cores, training on worker threads

int totalDataPoints(QCustomPlot* plot) {
  int n = 0;
  for (int i = 0; i < plot->graphCount(); ++i) n += plot->graph(i)->dataCount();
  return n;
}
}  // namespace

class TestRunEndToEnd : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    window_ = new MainWindow;
    window_->runController()->setHistoryPath(dir_.filePath("history.sqlite"));
    window_->resize(1400, 900);
    window_->show();
    window_->form()->setConfig(test::tinyExperiment());
    QTRY_VERIFY_WITH_TIMEOUT(window_->runAction()->isEnabled() && window_->form()->dataReady(),
                             30000);
  }
  void cleanupTestCase() { delete window_; }

  void runFillsChartsAndTable() {
    QSignalSpy finished(window_, &MainWindow::runFinished);
    window_->runAction()->trigger();
    QVERIFY(window_->runController()->running());
    QVERIFY(window_->cancelAction()->isEnabled());
    QVERIFY(finished.wait(120000));
    QCOMPARE(finished.first().at(0).toBool(), true);   // ok
    QCOMPARE(finished.first().at(1).toBool(), false);  // not cancelled
    const double stall = window_->longestStallMs();
    qInfo("longest GUI stall during the run: %.1f ms (GUI ticks: %d)", stall,
          window_->runController()->ticks());
    QVERIFY(stall > 0);
    QVERIFY2(stall < kMaxStallMs, qPrintable(QString::number(stall)));

    const auto& results = window_->runData()->results();
    QCOMPARE(static_cast<int>(results.candidates.size()), 5);
    QVERIFY(totalDataPoints(window_->accuracyTab()->curvesChart()->plot()) > 0);
    QVERIFY(totalDataPoints(window_->accuracyTab()->protocolChart()->plot()) > 0);
    // Hidden tabs draw when shown (issue #25 item 13).
    window_->tabs()->setCurrentWidget(window_->stepSizeTab());
    QVERIFY(totalDataPoints(window_->stepSizeTab()->chart()->plot()) > 0);
    window_->tabs()->setCurrentWidget(window_->heatmapTab());
    QVERIFY(window_->heatmapTab()->cellCount() > 0);
    // One row per candidate, all finished.
    ResultsModel* model = window_->resultsTab()->model();
    QCOMPARE(model->rowCount(), 5);
    for (int r = 0; r < model->rowCount(); ++r) {
      QCOMPARE(model->data(model->index(r, ResultsModel::kStatus), Qt::DisplayRole).toString(),
               QStringLiteral("finished"));
      const double acc =
          model->data(model->index(r, ResultsModel::kFinalAccuracy), Qt::UserRole).toDouble();
      QVERIFY(acc >= 0 && acc <= 1);
    }
    // Sorting by final accuracy (descending) puts the best row first.
    window_->resultsTab()->proxy()->sort(ResultsModel::kFinalAccuracy, Qt::DescendingOrder);
    QSortFilterProxyModel* proxy = window_->resultsTab()->proxy();
    for (int r = 1; r < proxy->rowCount(); ++r) {
      QVERIFY(
          proxy->data(proxy->index(r - 1, ResultsModel::kFinalAccuracy), Qt::UserRole).toDouble() >=
          proxy->data(proxy->index(r, ResultsModel::kFinalAccuracy), Qt::UserRole).toDouble());
    }
  }

  void exportsWriteValidFiles() {
    ChartView* chart = window_->accuracyTab()->curvesChart();
    const ImageExportOptions options{800 / 96.0, 500 / 96.0, 120};
    QString error;
    const QString png = dir_.filePath("a.png"), pdf = dir_.filePath("a.pdf"),
                  svg = dir_.filePath("a.svg"), csv = dir_.filePath("a.csv");
    QVERIFY2(chart->exportImage(png, options, &error), qPrintable(error));
    QVERIFY2(chart->exportImage(pdf, options, &error), qPrintable(error));
    QVERIFY2(chart->exportImage(svg, options, &error), qPrintable(error));
    QVERIFY2(chart->exportCsv(csv, &error), qPrintable(error));
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), static_cast<int>(800 * 120 / 96.0));
    QFile pdf_file(pdf);
    QVERIFY(pdf_file.open(QIODevice::ReadOnly));
    QVERIFY(pdf_file.read(5).startsWith("%PDF"));
    QFile svg_file(svg);
    QVERIFY(svg_file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&svg_file);
    QString root;
    while (!xml.atEnd()) {
      xml.readNext();
      if (xml.isStartElement() && root.isEmpty()) root = xml.name().toString();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(root, QStringLiteral("svg"));
    QFile csv_file(csv);
    QVERIFY(csv_file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv_file.readAll()).split('\n', Qt::SkipEmptyParts);
    // Line 1: the header; every row carries the search's epsilon label (issue #8) as its last
    // column, so pandas.read_csv(path) reads the file with no arguments.
    const QString label = QString::fromStdString(
        tuning::epsilon_csv_label(tuning::release_cost(window_->runData()->runs())));
    QVERIFY(label.startsWith("eps <= "));
    // No "value" column for curves: it is a colour map's cell value (issue #44: it was always
    // empty here).
    QCOMPARE(lines.first(), QStringLiteral("series,x,y,epsilon_label"));
    QVERIFY(lines.size() > 1);
    QVERIFY2(lines.at(1).endsWith(QString::fromStdString(csv::csv_field(label.toStdString()))),
             qPrintable(lines.at(1)));
    // The results table and the whole report.
    QVERIFY2(window_->resultsTab()->exportCsv(dir_.filePath("results.csv"), &error),
             qPrintable(error));
    const QString report = dir_.filePath("report");
    QVERIFY2(test::exportReportAndWait(window_, report, &error), qPrintable(error));
    for (const char* name :
         {"experiment.json", "results.csv", "accuracy_curves.png", "accuracy_curves.svg",
          "accuracy_curves.pdf", "privacy_fig6_eps_vs_candidates.csv", "alpha_clip_heatmap.png",
          "dpadam_step_size.png"}) {
      QVERIFY2(QFileInfo(QDir(report).filePath(name)).size() > 0, name);
    }
    QFile results(QDir(report).filePath("results.csv"));
    QVERIFY(results.open(QIODevice::ReadOnly));
    const QStringList result_lines =
        QString::fromUtf8(results.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(result_lines.size(), 1 + 5);  // header, 5 candidates
    QVERIFY(result_lines.first().endsWith(",epsilon_label"));
    QVERIFY(
        result_lines.at(1).endsWith(QString::fromStdString(csv::csv_field(label.toStdString()))));
  }

  void saveAndReopenExperiment() {
    QString error;
    const QString path = dir_.filePath("saved.json");
    QVERIFY2(window_->saveExperiment(path, &error), qPrintable(error));
    QVERIFY2(window_->openExperiment(path, &error), qPrintable(error));
    QCOMPARE(QString::fromStdString(experiment::to_json(window_->form()->config()).dump()),
             QString::fromStdString(
                 experiment::to_json(experiment::load_experiment_file(path.toStdString())).dump()));
  }

  // A file the user opens that does not parse gets a box of its own naming the field (not only a
  // line in the message log), and the form keeps what it had.
  void badExperimentFileGetsABoxNamingTheField() {
    const QString path = dir_.filePath("bad.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    nlohmann::json bad = experiment::to_json(window_->form()->config());
    bad["privacy"]["steps"] = -5;  // a whole experiment, wrong in one field
    f.write(QByteArray::fromStdString(bad.dump()));
    f.close();
    const std::string before = experiment::to_json(window_->form()->config()).dump();
    QVERIFY(!window_->openExperiment(path, nullptr));
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = window_->findChild<QMessageBox*>(QStringLiteral("openErrorBox"))) !=
                nullptr);
    QVERIFY2(box->informativeText().contains(QStringLiteral("privacy.steps")),
             qPrintable(box->informativeText()));
    QVERIFY(box->text().contains(QStringLiteral("bad.json")));
    QCOMPARE(experiment::to_json(window_->form()->config()).dump(), before);
    box->close();
  }

  void startsFromTheDefaultPresetFile() {
    // The starting experiment is a preset file (not code): the one for the installed data.
    MainWindow fresh;
    const QString name = QFileInfo(defaultPresetPath()).fileName();
    const bool fashion = QFileInfo::exists(QStringLiteral(
                             "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz")) ||
                         qEnvironmentVariableIsSet("DPLAB_FASHION_MNIST_DIR");
    QCOMPARE(name, fashion ? QStringLiteral("default-fashion-mnist.json")
                           : QStringLiteral("default-synthetic.json"));
    const experiment::ExperimentConfig on_disk = experiment::load_experiment_file(
        QString::fromStdString(testing::presets_dir() + "/%1").arg(name).toStdString());
    QCOMPARE(fresh.form()->config().name, on_disk.name);
    QVERIFY(experiment::same_run_settings(fresh.form()->config(), on_disk));
    QCOMPARE(fresh.currentPath(), QString());  // a preset is not the file Ctrl+S writes
    // File → New goes back to it after edits (it asks first: discard them).
    fresh.form()->setConfig(test::tinyExperiment());
    QVERIFY(!experiment::same_run_settings(fresh.form()->config(), on_disk));
    test::answerNextBox(QStringLiteral("Discard"), nullptr);
    for (QAction* action : fresh.findChildren<QAction*>()) {
      if (action->text().contains(QStringLiteral("&New"))) action->trigger();
    }
    QVERIFY(experiment::same_run_settings(fresh.form()->config(), on_disk));
  }

  void presetMenuLoadsQuickDemo() {
    QMenu* menu = window_->presetMenu();
    QVERIFY(menu);
    QStringList names;
    QAction* quick = nullptr;
    for (QAction* action : menu->actions()) {
      names << action->text();
      if (action->text() == QStringLiteral("quick-demo.json")) quick = action;
    }
    // The built-in presets, sorted by name; each is an experiment the form can open.
    QStringList sorted = names;
    sorted.sort();
    QCOMPARE(names, sorted);
    for (const char* name :
         {"default-fashion-mnist.json", "default-synthetic.json", "quick-demo.json"}) {
      QVERIFY2(names.contains(QLatin1String(name)), name);
    }
    for (const QString& path : presetPaths()) {
      try {
        loadExperimentFile(path);
      } catch (const std::exception& e) {
        QFAIL(qPrintable(path + QStringLiteral(": ") + QString::fromUtf8(e.what())));
      }
    }
    QVERIFY(quick);
    window_->form()->setConfig(test::tinyExperiment());
    quick->trigger();
    QCOMPARE(QString::fromStdString(window_->form()->config().name), QStringLiteral("quick-demo"));
    QTRY_VERIFY_WITH_TIMEOUT(window_->form()->isValid() && window_->runAction()->isEnabled(),
                             30000);
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestRunEndToEnd)
#include "test_run_end_to_end.moc"
