// View → Theme in the real window (ui/charts/theme.h): the dark palette reaches the whole
// application, every chart restyles on screen (background, axes, ticks, legend), toned labels get
// a colour that reads on it, and an exported figure is still drawn as on paper (white); Light
// brings the light colours back; `--theme` takes only the three names.
#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QImage>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

#include "charts/chart_export.h"
#include "charts/chart_view.h"
#include "charts/theme.h"
#include "shell/launcher.h"
#include "shell/main_window.h"
#include "support/test_registry.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

int lightness(const QColor& c) {
  return c.lightness();
}

// The chart's background as drawn: a corner pixel of the plot rendered off screen.
int backgroundLightness(QCustomPlot* plot) {
  return QColor(plot->toPixmap(200, 150).toImage().pixel(1, 1)).lightness();
}

QAction* themeAction(MainWindow* window, Theme theme) {
  return window->findChild<QAction*>(QStringLiteral("theme-") + themeName(theme));
}

}  // namespace

class TestTheme : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
    QVERIFY(test::runToEnd(window_));
    QVERIFY(!window_->charts().isEmpty());
  }
  void cleanupTestCase() {
    applyTheme(Theme::kSystem);
    saveTheme(Theme::kSystem);
    delete window_;
  }

  void darkReachesChartsAndLabels() {
    QAction* dark = themeAction(window_, Theme::kDark);
    QVERIFY(dark);
    dark->trigger();
    QCOMPARE(currentTheme(), Theme::kDark);
    QCOMPARE(savedTheme(), Theme::kDark);
    QVERIFY(isDark(QApplication::palette()));
    QTRY_VERIFY(isDark(window_->palette()));  // the palette change reaches widgets as events
    QLabel toned(QStringLiteral("warning"));
    setTone(&toned, Tone::kWarning);
    QCOMPARE(toned.palette().color(QPalette::WindowText), toneColor(Tone::kWarning, darkPalette()));
    QVERIFY(lightness(toned.palette().color(QPalette::WindowText)) > 140);  // reads on dark
    for (ChartView* chart : window_->charts()) {
      QCustomPlot* plot = chart->plot();
      QVERIFY2(backgroundLightness(plot) < 60, qPrintable(chart->fileStem()));
      QVERIFY2(lightness(plot->xAxis->tickLabelColor()) > 180, qPrintable(chart->fileStem()));
      QVERIFY2(lightness(plot->yAxis->basePen().color()) > 180, qPrintable(chart->fileStem()));
      QVERIFY2(lightness(plot->legend->brush().color()) < 60, qPrintable(chart->fileStem()));
      QCOMPARE(chartInk(plot), darkPalette().color(QPalette::Text));
    }
    // A toned label made before the switch follows it as well.
    QLabel before(QStringLiteral("note"));
    applyTheme(Theme::kLight);
    setTone(&before, Tone::kNote);
    const QColor on_light = before.palette().color(QPalette::WindowText);
    applyTheme(Theme::kDark);
    QVERIFY(before.palette().color(QPalette::WindowText) != on_light);
    QVERIFY(lightness(before.palette().color(QPalette::WindowText)) > 120);
  }

  void exportIsDrawnAsOnPaper() {
    applyTheme(Theme::kDark);
    ChartView* chart = window_->charts().first();
    test::showChart(window_, chart);
    const QString png = dir_.filePath(QStringLiteral("dark.png"));
    ImageExportOptions options;
    QString error;
    QVERIFY2(chart->exportImage(png, options, &error), qPrintable(error));
    QImage image(png);
    QVERIFY(!image.isNull());
    // The page's corner and the middle of the top margin: white, not the screen's dark grey.
    QCOMPARE(QColor(image.pixel(2, 2)).lightness(), 255);
    QCOMPARE(QColor(image.pixel(image.width() / 2, 1)).lightness(), 255);
    // Back on screen the chart is dark again.
    QVERIFY(backgroundLightness(chart->plot()) < 60);
    QVERIFY(lightness(chart->plot()->xAxis->tickLabelColor()) > 180);
  }

  void lightBringsTheLightColoursBack() {
    QAction* light = themeAction(window_, Theme::kLight);
    QVERIFY(light);
    light->trigger();
    QVERIFY(!isDark(QApplication::palette()));
    QTRY_VERIFY(!isDark(window_->palette()));
    for (ChartView* chart : window_->charts()) {
      QCustomPlot* plot = chart->plot();
      QTRY_VERIFY2(backgroundLightness(plot) > 200, qPrintable(chart->fileStem()));
      QVERIFY2(lightness(plot->xAxis->tickLabelColor()) < 80, qPrintable(chart->fileStem()));
    }
  }

  void themeFlagTakesOnlyItsNames() {
    QString error;
    const auto ok = parseScriptOptions(
        {QStringLiteral("dplab"), QStringLiteral("--theme"), QStringLiteral("dark")}, &error);
    QVERIFY2(ok, qPrintable(error));
    QCOMPARE(ok->theme, QStringLiteral("dark"));
    QVERIFY(!ok->scripted());  // a colour choice alone is a plain launch
    QVERIFY(!parseScriptOptions(
        {QStringLiteral("dplab"), QStringLiteral("--theme"), QStringLiteral("purple")}, &error));
    QVERIFY(error.contains(QStringLiteral("--theme")));
    QVERIFY(error.contains(QStringLiteral("purple")));
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestTheme)
#include "test_theme.moc"
