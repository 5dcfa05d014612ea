// Helpers for UI tests that drive the real main window: start the window on a temporary history
// file, run an experiment to the end through the Run action, and place the mouse on a chart's
// data point (the plot's own pixel mapping, after a real replot in its shown tab).
#pragma once

#include <qcustomplot.h>
#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/chart_view.h"
#include "form/experiment_form.h"
#include "form/number_field.h"
#include "form/privacy_section.h"
#include "run/history_panel.h"
#include "run/run_controller.h"
#include "shell/main_window.h"
#include "ui_test_support.h"

namespace dplab::ui::test {

// A main window on `dir`/history.sqlite, shown at a laptop size, form = `config`, data ready.
inline MainWindow* openWindow(const QTemporaryDir& dir,
                              const experiment::ExperimentConfig& config) {
  QStandardPaths::setTestModeEnabled(true);
  QSettings().setValue(QStringLiteral("welcome/dismissed"), true);
  auto* window = new MainWindow;
  window->runController()->setHistoryPath(dir.filePath(QStringLiteral("history.sqlite")));
  window->historyPanel()->reload();
  window->resize(1400, 900);
  window->show();
  window->form()->setConfig(config);
  if (!QTest::qWaitFor(
          [&] { return window->runAction()->isEnabled() && window->form()->dataReady(); }, 60000)) {
    qWarning("the form never became ready: %s",
             qPrintable(window->form()->errors().join(QStringLiteral("; "))));
  }
  return window;
}

// Triggers Run and waits for the end; true when the run finished (not failed, not cancelled).
inline bool runToEnd(MainWindow* window, int timeout_ms = 120000) {
  QSignalSpy finished(window, &MainWindow::runFinished);
  window->runAction()->trigger();
  if (!finished.wait(timeout_ms)) return false;
  return finished.first().at(0).toBool() && !finished.first().at(1).toBool();
}

// Sets the form to `config`, waits until it can run, and runs it to the end; true when the run
// finished (not failed, not cancelled).
inline bool runConfigToEnd(MainWindow* window, const experiment::ExperimentConfig& config,
                           int timeout_ms = 120000) {
  window->form()->setConfig(config);
  if (!QTest::qWaitFor(
          [&] { return window->form()->dataReady() && window->runAction()->isEnabled(); }, 30000)) {
    return false;
  }
  return runToEnd(window, timeout_ms);
}

// Makes the tab holding `chart` current (in every tab widget around it: the Privacy-of-tuning
// Fig. 1 panels are tabs of their own on a narrow window) and lays the plot out for real.
inline void showChart(MainWindow* window, ChartView* chart) {
  QTabWidget* tabs = window->tabs();
  for (int i = 0; i < tabs->count(); ++i) {
    if (tabs->widget(i)->isAncestorOf(chart)) tabs->setCurrentIndex(i);
  }
  for (QWidget* w = chart->parentWidget(); w; w = w->parentWidget()) {
    auto* inner = qobject_cast<QTabWidget*>(w);
    if (!inner || inner == tabs) continue;
    for (int i = 0; i < inner->count(); ++i) {
      if (inner->widget(i) == chart || inner->widget(i)->isAncestorOf(chart))
        inner->setCurrentIndex(i);
    }
  }
  QApplication::processEvents();
  chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
}

// With DPLAB_TEST_SCREENSHOTS=<dir> set, saves a PNG of the whole window (for looking at the
// views as a user would); otherwise does nothing. `page` (if given) is brought to the front in
// whatever tab widget holds it first.
inline void saveShot(QWidget* window, const QString& name, QWidget* page = nullptr) {
  const QString dir = qEnvironmentVariable("DPLAB_TEST_SCREENSHOTS");
  if (dir.isEmpty()) return;
  if (page) {
    for (QWidget* w = page->parentWidget(); w; w = w->parentWidget()) {
      if (auto* tabs = qobject_cast<QTabWidget*>(w)) {
        tabs->setCurrentWidget(tabs->indexOf(page) >= 0 ? page : tabs->currentWidget());
        break;
      }
    }
  }
  for (int i = 0; i < 5; ++i) QApplication::processEvents();
  window->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

// Pixel position of data point `index` of a graph.
inline QPoint pixelOf(QCPGraph* graph, int index) {
  auto it = graph->data()->at(index);
  return QPoint(qRound(graph->keyAxis()->coordToPixel(it->key)),
                qRound(graph->valueAxis()->coordToPixel(it->value)));
}

}  // namespace dplab::ui::test
