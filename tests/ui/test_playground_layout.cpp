// The Playground window on the screens the project supports (issue #27): 1024 x 700 is the
// smallest the app must be usable at, 1280 x 720 the classroom's projector. The window's minimum
// size fits 1024 x 700, and there every main view is on screen, inside the window, unclipped and
// at a usable size; at 1280 x 720 the lesson text has room for a paragraph; the epsilon label
// reserves the lines of the largest epsilon a setting can reach (above 10^5); the projector font
// (View > Large font) fits the 1280 x 720 projector.
#include <QApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QtTest>

#include <qcustomplot.h>

#include "charts/chart_view.h"
#include "playground/lesson_panel.h"
#include "playground/plane_view.h"
#include "playground/playground_labels.h"
#include "playground/playground_window.h"
#include "playground/steady_label.h"
#include "playground/step_view.h"
#include "support/test_registry.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;
using namespace dplab::playground;

namespace {

// A window opened at `size` (resize + show), in the normal or the projector font, laid out.
void open(PlaygroundWindow& w, QSize size, bool large) {
  w.resize(size);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  w.setLargeFont(large);
  for (int i = 0; i < 5; ++i) QApplication::processEvents();
}

// `view` is shown, wholly inside the window, not clipped by an ancestor (a scroll area, a
// splitter), and at least `least` in size.
void checkOnScreen(const PlaygroundWindow& w, const QWidget* view, const QString& name, QSize least,
                   const QString& where) {
  QVERIFY2(view, qPrintable(name));
  QVERIFY2(view->isVisible(), qPrintable(QStringLiteral("%1 (%2) is hidden").arg(name, where)));
  const QRect in_window(view->mapTo(&w, QPoint(0, 0)), view->size());
  QVERIFY2(w.rect().contains(in_window),
           qPrintable(QStringLiteral("%1 (%2) at %3 is not inside the %4 x %5 window")
                          .arg(name, where, QDebug::toString(in_window))
                          .arg(w.width())
                          .arg(w.height())));
  // Clipped by no ancestor: the view's rectangle, in each ancestor's coordinates, lies inside it.
  for (const QWidget* up = view->parentWidget(); up && up != &w; up = up->parentWidget()) {
    const QRect in_up(view->mapTo(up, QPoint(0, 0)), view->size());
    QVERIFY2(up->rect().contains(in_up),
             qPrintable(QStringLiteral("%1 (%2) at %3 is clipped by %4 (%5)")
                            .arg(name, where, QDebug::toString(in_up),
                                 QString::fromLatin1(up->metaObject()->className()),
                                 QDebug::toString(up->rect()))));
  }
  QVERIFY2(view->width() >= least.width() && view->height() >= least.height(),
           qPrintable(QStringLiteral("%1 (%2) is %3 x %4, needs at least %5 x %6")
                          .arg(name, where)
                          .arg(view->width())
                          .arg(view->height())
                          .arg(least.width())
                          .arg(least.height())));
}

// Lines of the lesson text's font that its viewport shows at once.
int lessonLines(const PlaygroundWindow& w) {
  const auto* text = w.findChild<QTextBrowser*>(QStringLiteral("pgLessonText"));
  return text ? text->viewport()->height() / text->fontMetrics().lineSpacing() : 0;
}

// The window opened at `size` in the given font: its minimum fits `size`, it has that size, and
// the plane, the step view and each chart are at least 200 x 200, the epsilon, accuracy and
// ledger labels and the ledger list at least 180 px wide, and the Play / Step / Reset / Spread
// buttons at least their own minimum (their text whole), all on screen and unclipped.
void checkMainViewsFit(PlaygroundWindow& w, QSize size, bool large) {
  open(w, size, large);
  const QSize minimum = w.minimumSizeHint();  // in the font chosen
  QVERIFY2(minimum.width() <= size.width() && minimum.height() <= size.height(),
           qPrintable(
               QStringLiteral("minimum size %1 x %2").arg(minimum.width()).arg(minimum.height())));
  QCOMPARE(w.size(), size);
  const QString where = QStringLiteral("%1x%2%3")
                            .arg(size.width())
                            .arg(size.height())
                            .arg(large ? QStringLiteral(", large font") : QString());
  const QSize picture(200, 200);
  checkOnScreen(w, w.plane(), QStringLiteral("plane"), picture, where);
  checkOnScreen(w, w.stepView(), QStringLiteral("step view"), picture, where);
  checkOnScreen(w, w.lossChart(), QStringLiteral("loss chart"), picture, where);
  checkOnScreen(w, w.accuracyChart(), QStringLiteral("accuracy chart"), picture, where);
  for (const char* name : {"pgEpsilon", "pgAccuracy", "pgLedger", "pgLedgerList"})
    checkOnScreen(w, w.findChild<QWidget*>(QLatin1String(name)), QLatin1String(name), QSize(180, 1),
                  where);
  for (const char* name : {"pgPlay", "pgStep", "pgReset", "pgSpread"}) {
    const auto* button = w.findChild<QPushButton*>(QLatin1String(name));
    QVERIFY2(button, name);
    checkOnScreen(w, button, QLatin1String(name), button->minimumSizeHint(), where);
  }
}

// Each chart's plot area (the axis rectangle the curves are drawn in) is at least `least_height`
// px high, and its title is drawn whole (not elided), clear of the "log y" / "Export" buttons.
void checkChartsReadable(PlaygroundWindow& w, int least_height, const QString& where) {
  for (ChartView* chart : {w.lossChart(), w.accuracyChart()}) {
    QCustomPlot* plot = chart->plot();
    plot->replot();
    const QRect area = plot->axisRect()->rect();
    const QCPTextElement* title = chart->titleElement();
    // Where QCPTextElement draws its text: centred in its rectangle, at its font.
    const QRect text =
        QFontMetrics(title->font()).boundingRect(title->rect(), title->textFlags(), title->text());
    const QRect buttons(plot->mapFrom(chart, chart->buttonsRect().topLeft()),
                        chart->buttonsRect().size());
    qInfo(
        "%s: %s chart %d x %d, plot area %d x %d, legend %d entries, title \"%s\" at %s, "
        "buttons at %s",
        qPrintable(where), qPrintable(chart->fileStem()), chart->width(), chart->height(),
        area.width(), area.height(), plot->legend->itemCount(),
        qPrintable(title->text().replace(QLatin1Char('\n'), QLatin1Char('|'))),
        qPrintable(QDebug::toString(text)), qPrintable(QDebug::toString(buttons)));
    QVERIFY2(area.height() >= least_height,
             qPrintable(QStringLiteral("%1, %2: plot area %3 px high, needs %4")
                            .arg(where, chart->fileStem())
                            .arg(area.height())
                            .arg(least_height)));
    QVERIFY2(!title->text().contains(QChar(0x2026)), qPrintable(title->text()));  // no "…"
    QVERIFY2(plot->rect().contains(text) && !text.intersects(buttons),
             qPrintable(QStringLiteral("%1, %2: title \"%3\" at %4 is cut or under the buttons "
                                       "at %5")
                            .arg(where, chart->fileStem(), title->text(), QDebug::toString(text),
                                 QDebug::toString(buttons))));
  }
}

}  // namespace

class TestPlaygroundLayout : public QObject {
  Q_OBJECT
 private slots:
  // At 1024 x 700 (normal font): the window is 1024 x 700 (its minimum fits) and shows the
  // plane, the step view and each chart at least 200 x 200, the epsilon, accuracy and ledger
  // labels and the ledger list at least 180 px wide, the lesson text at least 180 px wide and 4
  // lines high, and the Play / Step / Reset / Spread buttons at least their own minimum (their
  // text whole).
  void everyViewFitsA1024x700Screen() {
    PlaygroundWindow w;
    checkMainViewsFit(w, QSize(1024, 700), false);
    if (QTest::currentTestFailed()) return;
    const auto* lesson = w.findChild<QTextBrowser*>(QStringLiteral("pgLessonText"));
    QVERIFY(lesson);
    checkOnScreen(w, lesson, QStringLiteral("lesson text"),
                  QSize(180, 4 * lesson->fontMetrics().lineSpacing()), QStringLiteral("1024x700"));
  }

  // The projector font at 1280 x 720: the window's minimum fits (it needed 1,135 x 772: the
  // side panel's labels reserved their longest text at 220 px), and the pictures, the charts,
  // the privacy labels, the ledger and the run buttons are on screen, unclipped, usable; each
  // chart's plot is at least 120 px high and its title clear of its buttons.
  void projectorFontFitsA1280x720Screen() {
    PlaygroundWindow w;
    checkMainViewsFit(w, QSize(1280, 720), true);
    checkChartsReadable(w, 120, QStringLiteral("1280x720, large font"));
  }

  // Issue #44: a teacher's 1024 x 768 projector in the projector font: the plane, the step
  // view, the charts, the ε box and the ledger on screen at their minimum (as above), every
  // DP-SGD knob without scrolling, and the lesson (its tab) at least 180 px wide and 4 lines high.
  void projectorFontFitsA1024x768Screen() {
    PlaygroundWindow w;
    checkMainViewsFit(w, QSize(1024, 768), true);
    const QString where = QStringLiteral("1024x768, large font");
    for (const char* name :
         {"optimizer", "sigma", "clip", "lot", "alpha", "steps", "delta", "seed"})
      checkOnScreen(w, w.knob(QLatin1String(name)), QLatin1String(name), QSize(1, 1), where);
    w.lessonPanel()->choose(0);  // shows the lesson's tab
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    test::saveShot(&w, QStringLiteral("playground-projector-1024x768"));
    const auto* lesson = w.findChild<QWidget*>(QStringLiteral("pgLessonText"));
    checkOnScreen(w, lesson, QStringLiteral("lesson text"),
                  QSize(180, 4 * lesson->fontMetrics().lineSpacing()), where);
    // The charts (~210 px wide each) keep a plot of at least 120 px under their legends (four
    // rows of one column left ~70 px), and "Accuracy" is not cut by the buttons.
    checkChartsReadable(w, 120, where);
  }

  // Issue #44: in the projector font every DP-SGD knob (T, δ and the seed included) is on screen
  // without scrolling at 1280 x 720 (the knob column scrolled them out of sight: the knob groups
  // are tabs there now, DP-SGD in front), and the charts' titles are not smaller than their tick
  // labels (10.5 pt titles under 13 pt ticks).
  void projectorFontShowsEveryKnobAndReadableTitles() {
    PlaygroundWindow w;
    const QSize size(1280, 720);
    open(w, size, true);
    test::saveShot(&w, QStringLiteral("playground-projector-1280x720"));
    QCOMPARE(w.size(), size);
    const QString where = QStringLiteral("1280x720, large font");
    for (const char* name :
         {"optimizer", "sigma", "clip", "lot", "alpha", "steps", "delta", "seed"})
      checkOnScreen(w, w.knob(QLatin1String(name)), QLatin1String(name), QSize(1, 1), where);
    for (ChartView* chart : {w.lossChart(), w.accuracyChart()}) {
      const double title = chart->titleElement()->font().pointSizeF();
      const double ticks = chart->plot()->xAxis->tickLabelFont().pointSizeF();
      QVERIFY2(title >= ticks, qPrintable(QStringLiteral("%1: title %2 pt, ticks %3 pt")
                                              .arg(chart->fileStem())
                                              .arg(title)
                                              .arg(ticks)));
    }
    // Back in the normal font the knob groups are stacked again, titled.
    w.setLargeFont(false);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    checkOnScreen(w, w.knob(QStringLiteral("points")), QStringLiteral("points"), QSize(1, 1),
                  QStringLiteral("1280x720"));
    checkOnScreen(w, w.knob(QStringLiteral("sigma")), QStringLiteral("sigma"), QSize(1, 1),
                  QStringLiteral("1280x720"));
  }

  // With a minority cluster the accuracy chart's legend lists six lines; each chart's plot area
  // (the axis rectangle the curves are drawn in) keeps at least 100 px of height in the normal
  // font at 1024 x 700 and 80 px in the projector font at 1280 x 720 (its 11 pt legend and ticks
  // take the rest). Before, the legend's long names flowed into one column of six rows: 74 px at
  // 1024 x 700 and ~40 px in the projector font.
  void minorityLegendLeavesRoomForTheCurves() {
    for (const auto& [size, large] :
         {std::pair{QSize(1024, 700), false}, {QSize(1280, 720), true}}) {
      PlaygroundWindow w;
      open(w, size, large);
      auto* minority = w.findChild<QDoubleSpinBox*>(QStringLiteral("pgMinority"));
      QVERIFY(minority);
      minority->setValue(0.1);
      QCustomPlot* accuracy = w.accuracyChart()->plot();
      QTRY_COMPARE(accuracy->legend->itemCount(), 6);
      w.play();  // curves in the charts (and in the screenshot below)
      QTest::qWait(1500);
      w.pause();
      for (int i = 0; i < 5; ++i) QApplication::processEvents();
      test::saveShot(&w, QStringLiteral("playground-minority-%1x%2%3")
                             .arg(size.width())
                             .arg(size.height())
                             .arg(large ? QStringLiteral("-large-font") : QString()));
      for (ChartView* chart : {w.lossChart(), w.accuracyChart()}) {
        QCustomPlot* plot = chart->plot();
        plot->replot();
        const int height = plot->axisRect()->height();
        qInfo("%dx%d%s: %s plot area %d x %d px, legend %d items", size.width(), size.height(),
              large ? " large font" : "", chart == w.lossChart() ? "loss" : "accuracy",
              plot->axisRect()->width(), height, plot->legend->itemCount());
        QVERIFY2(height >= (large ? 80 : 100),
                 qPrintable(QStringLiteral("%1 px high at %2 x %3%4")
                                .arg(height)
                                .arg(size.width())
                                .arg(size.height())
                                .arg(large ? QStringLiteral(", large font") : QString())));
      }
    }
  }

  // At 1280 x 720 the lesson text shows at least 6 lines (it was down to ~3: the ledger's and
  // the epsilon's reserved lines and the lesson list took the panel's height).
  void lessonTextHasRoomAt1280x720() {
    PlaygroundWindow w;
    open(w, QSize(1280, 720), false);
    QCOMPARE(w.size(), QSize(1280, 720));
    QVERIFY2(lessonLines(w) >= 6, qPrintable(QStringLiteral("%1 lines").arg(lessonLines(w))));
  }

  // The epsilon label and the step label reserve the lines of the largest epsilon a setting can
  // reach: sigma = 0.1, q = 1, T = 100,000 at delta = 1e-10 is 5.5e6 by RDP (`dplab-cli account`);
  // a label that needs more than it reserved would be clipped at its foot.
  void epsilonLabelReservesLargeEpsilons() {
    TrainingOptions t;
    t.is_private = true;
    t.noise_multiplier = 0.1;
    t.lot_size = 1600;
    t.steps = 100000;
    t.delta = 1e-10;
    const double huge = 5500226.91;
    const QString epsilon = epsilon_label_text(huge, huge, t, 1600);
    const QString step = step_label_text(100000, 100000, huge);
    for (const QSize size : {QSize(1024, 700), QSize(1280, 720)}) {
      PlaygroundWindow w;
      open(w, size, false);
      for (const auto& [name, text] : {std::pair{QStringLiteral("pgEpsilon"), epsilon},
                                       {QStringLiteral("pgStepLabel"), step}}) {
        const auto* label = w.findChild<SteadyLabel*>(name);
        QVERIFY2(label, qPrintable(name));
        QVERIFY2(label->heightFor(text) <= label->height(),
                 qPrintable(QStringLiteral("%1 at %2 x %3: \"%4\" needs %5 px, has %6")
                                .arg(name)
                                .arg(size.width())
                                .arg(size.height())
                                .arg(text)
                                .arg(label->heightFor(text))
                                .arg(label->height())));
      }
    }
  }
};

DPLAB_TEST_MAIN(TestPlaygroundLayout)
#include "test_playground_layout.moc"
