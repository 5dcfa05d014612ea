// Issue #9 items 9 and 10 on the real window. Small screens: the window fits 1280 × 720 (its
// minimum size is smaller) and the stall meter lives in a Diagnostics tab, not the status bar.
// Freezes: the heavy work behind the σ slider (with the paper accountant on), typing T in the
// form and exporting a report runs off the GUI thread — the slot returns before the result
// exists, the result then appears, and it was computed on another thread. The GUI thread's
// longest stall (StallMeter, 10 ms heartbeat) is measured for each and printed (qInfo) for the
// issue's closing note; it is reported, not asserted (a loaded machine would make it flaky).
#include <qcustomplot.h>
#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <thread>

#include "charts/chart_view.h"
#include "charts/export_dialog.h"
#include "form/experiment_form.h"
#include "form/number_field.h"
#include "form/privacy_section.h"
#include "run/run_controller.h"
#include "shell/main_window.h"
#include "shell/report_exporter.h"
#include "shell/stall_meter.h"
#include "support/test_registry.h"
#include "ui_test_support.h"
#include "views/privacy_tab.h"

using namespace dplab;
using namespace dplab::ui;

class TestResponsiveness : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    window_ = new MainWindow;
    window_->runController()->setHistoryPath(dir_.filePath(QStringLiteral("h.sqlite")));
    window_->form()->setConfig(test::tinyExperiment());
    window_->show();
    QTRY_VERIFY_WITH_TIMEOUT(window_->runAction()->isEnabled(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(window_->privacyTab()->upToDate(), 30000);
  }
  void cleanupTestCase() { delete window_; }

  void fitsASmallScreen() {
    const QSize minimum = window_->minimumSizeHint().expandedTo(window_->minimumSize());
    qInfo("window minimum size: %d x %d", minimum.width(), minimum.height());
    window_->tabs()->setCurrentWidget(window_->privacyTab());
    window_->resize(1280, 720);
    QCoreApplication::processEvents();
    QVERIFY2(window_->width() <= 1280 && window_->height() <= 720,
             qPrintable(QStringLiteral("%1 x %2").arg(window_->width()).arg(window_->height())));
    // The stall meter is a diagnostics number, not in the status bar.
    auto* stall = window_->findChild<QLabel*>(QStringLiteral("stallText"));
    QVERIFY(stall);
    QVERIFY(!window_->statusBar()->isAncestorOf(stall));
  }

  void sliderDragComputesOffTheGuiThread() {
    PrivacyTab* privacy = window_->privacyTab();
    window_->tabs()->setCurrentWidget(privacy);
    auto* paper = privacy->findChild<QCheckBox*>();
    QVERIFY(paper);
    StallMeter* meter = window_->stallMeter();
    QTest::qWait(50);
    meter->reset();
    paper->setChecked(true);        // the slow accountant (continuous orders, classic conversion)
    QVERIFY(!privacy->upToDate());  // toggled: the slot returned, the numbers are on their way
    QTRY_VERIFY_WITH_TIMEOUT(privacy->upToDate(), 30000);
    QTest::qWait(50);
    checkbox_ms_ = meter->longestGapMs();
    meter->reset();
    const int redraws = privacy->redrawCount();
    const int computations = privacy->computations();
    int values = 0;
    for (int v = 30; v <= 60; v += 3, ++values) {
      privacy->sigmaSlider()->setValue(v);
      QTest::qWait(20);  // a drag: the pointer moves every 20 ms
    }
    // The slot returned and events flowed while the numbers for σ = 6 were still being computed.
    QVERIFY(!privacy->upToDate());
    QTRY_VERIFY_WITH_TIMEOUT(privacy->upToDate(), 60000);
    QTest::qWait(50);
    drag_ms_ = meter->longestGapMs();
    QVERIFY(privacy->computeThread() != std::this_thread::get_id());
    QVERIFY(privacy->redrawCount() > redraws);
    // Latest value wins: positions passed while a computation ran were never computed.
    QVERIFY2(privacy->computations() - computations < values,
             qPrintable(QStringLiteral("%1 computations for %2 slider positions")
                            .arg(privacy->computations() - computations)
                            .arg(values)));
    // What is drawn is the engine's answer for the slider's final position (paper lines too).
    const privacy::TuningCostOverview expected = privacy::tuning_cost_overview(privacy->query());
    QCOMPARE(privacy->query().noise_multiplier, 6.0);
    QCOMPARE(privacy->crossoverK(), expected.crossover);
    QCOMPARE(privacy->figure6Chart()->plot()->graphCount(), 4);
    QCPGraph* lt_paper = privacy->figure6Chart()->plot()->graph(2);
    QCOMPARE(lt_paper->dataCount(), static_cast<int>(expected.figure6_paper.size()));
    QVERIFY(test::closeRel(lt_paper->data()->at(0)->value,
                           expected.figure6_paper.front().epsilon_lt, 1e-12));
    paper->setChecked(false);
    QTRY_VERIFY_WITH_TIMEOUT(privacy->upToDate(), 30000);
  }

  void typingStepsComputesOffTheGuiThread() {
    PrivacyTab* privacy = window_->privacyTab();
    NumberField* steps = window_->form()->privacy()->stepsField();
    steps->clear();
    QTest::qWait(50);
    StallMeter* meter = window_->stallMeter();
    meter->reset();
    QTest::keyClicks(steps, QStringLiteral("2500"), Qt::NoModifier, 30);
    // The form's T reaches the privacy tab's controls at once; its charts follow from the worker.
    QCOMPARE(privacy->steps(), 2500);
    QTRY_VERIFY_WITH_TIMEOUT(privacy->upToDate(), 30000);
    QTest::qWait(50);
    typing_ms_ = meter->longestGapMs();
    const privacy::TuningCostOverview expected = privacy::tuning_cost_overview(privacy->query());
    QCOMPARE(expected.query.steps, std::int64_t{2500});
    QCOMPARE(privacy->crossoverK(), expected.crossover);
    QCOMPARE(privacy->maCandidatesAtLtCost(), expected.ma_candidates_at_lt_cost);
  }

  void reportIsWrittenOffTheGuiThread() {
    window_->form()->setConfig(test::tinyExperiment());
    QTRY_VERIFY_WITH_TIMEOUT(window_->runAction()->isEnabled(), 30000);
    QSignalSpy finished(window_, &MainWindow::runFinished);
    window_->runAction()->trigger();
    QVERIFY(finished.wait(60000));
    QTest::qWait(50);
    StallMeter* meter = window_->stallMeter();
    meter->reset();
    const QDir report(dir_.filePath(QStringLiteral("report")));
    QSignalSpy exported(window_, &MainWindow::reportExported);
    QString error;
    QVERIFY2(window_->exportReport(report.path(), &error), qPrintable(error));
    // exportReport returned before any chart was written …
    QVERIFY(!QFileInfo::exists(report.filePath(QStringLiteral("accuracy_curves.png"))));
    QVERIFY(window_->reportExporter()->busy());
    // … and a second export is refused while the first one runs.
    QVERIFY(!window_->exportReport(dir_.filePath(QStringLiteral("other")), &error));
    QVERIFY(exported.wait(60000));
    QVERIFY2(exported.first().at(0).toBool(), qPrintable(exported.first().at(2).toString()));
    QTest::qWait(50);
    export_ms_ = meter->longestGapMs();
    QVERIFY(window_->reportExporter()->writerThread() != std::this_thread::get_id());
    for (const char* name : {"experiment.json", "summary.json", "curves.csv", "results.csv",
                             "accuracy_curves.png", "accuracy_curves.pdf", "accuracy_curves.svg",
                             "alpha_clip_heatmap.csv", "privacy_fig6_eps_vs_candidates.svg"}) {
      QVERIFY2(QFileInfo(report.filePath(QLatin1String(name))).size() > 0, name);
    }
    // The PNG has the physical size of the saved export options (inches × dpi).
    const QImage png(report.filePath(QStringLiteral("accuracy_curves.png")));
    const ImageExportOptions o = ExportImageDialog::savedOptions();
    QCOMPARE(png.width(), static_cast<int>(std::lround(o.width_in * o.dpi)));
    QCOMPARE(png.height(), static_cast<int>(std::lround(o.height_in * o.dpi)));
  }

  void printStallMaxima() {
    qInfo(
        "GUI stall maxima: paper-accountant checkbox %.0f ms, slider drag with paper accountant "
        "%.0f ms, typing T %.0f ms, report export %.0f ms",
        checkbox_ms_, drag_ms_, typing_ms_, export_ms_);
    QVERIFY(checkbox_ms_ > 0 && drag_ms_ > 0 && typing_ms_ > 0 && export_ms_ > 0);
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
  double checkbox_ms_ = 0, drag_ms_ = 0, typing_ms_ = 0, export_ms_ = 0;
};

DPLAB_TEST_MAIN(TestResponsiveness)
#include "test_responsiveness.moc"
