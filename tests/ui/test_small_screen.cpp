// Issue #25 item 4: the window is usable on a 1024 × 700 screen (a classroom projector): it can
// be that narrow (it could not be narrower than 1264 px), the chart gets at least half the
// height (it got ~130 px: the welcome panel and the bottom dock took the rest), the bottom panel
// moves into a tab beside the form on a short window, and the welcome panel hides after the
// first run and comes back from Help → Show welcome.
#include <QDockWidget>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>

#include "shell/welcome_panel.h"
#include "support/test_registry.h"
#include "views/accuracy_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

QString sizesOf(MainWindow* window) {
  QStringList parts;
  parts << QStringLiteral("window min %1x%2")
               .arg(window->minimumSizeHint().width())
               .arg(window->minimumSizeHint().height());
  for (QDockWidget* dock : window->findChildren<QDockWidget*>()) {
    parts << QStringLiteral("%1 min %2x%3 at %4x%5")
                 .arg(dock->objectName())
                 .arg(dock->minimumSizeHint().width())
                 .arg(dock->minimumSizeHint().height())
                 .arg(dock->width())
                 .arg(dock->height());
  }
  parts << QStringLiteral("centre min %1x%2")
               .arg(window->centralWidget()->minimumSizeHint().width())
               .arg(window->centralWidget()->minimumSizeHint().height());
  for (int i = 0; i < window->tabs()->count(); ++i) {
    QWidget* page = window->tabs()->widget(i);
    parts << QStringLiteral("tab %1 min %2x%3")
                 .arg(window->tabs()->tabText(i))
                 .arg(page->minimumSizeHint().width())
                 .arg(page->minimumSizeHint().height());
  }
  return parts.join(QStringLiteral("; "));
}

}  // namespace

class TestSmallScreen : public QObject {
  Q_OBJECT
 private slots:
  void usableAt1024x700() {
    QTemporaryDir dir;
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();  // a first start: the welcome panel shows
    MainWindow* window = new MainWindow;
    window->runController()->setHistoryPath(dir.filePath(QStringLiteral("history.sqlite")));
    window->resize(1024, 700);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    QApplication::processEvents();
    QVERIFY(window->welcomePanel()->isVisible());
    QVERIFY2(window->minimumSizeHint().width() <= 1024, qPrintable(sizesOf(window)));
    QVERIFY2(window->minimumSizeHint().height() <= 700, qPrintable(sizesOf(window)));
    QCOMPARE(window->width(), 1024);
    QCOMPARE(window->height(), 700);
    // The messages and history share the left side with the form on a short window.
    auto* bottom = window->findChild<QDockWidget*>(QStringLiteral("bottomDock"));
    QVERIFY(bottom);
    QCOMPARE(window->dockWidgetArea(bottom), Qt::LeftDockWidgetArea);

    // Item 12: the form fits its dock's width, so Tab through it never scrolls it sideways.
    QScrollArea* form_scroll = nullptr;
    for (QWidget* w = window->form()->parentWidget(); w && !form_scroll; w = w->parentWidget())
      form_scroll = qobject_cast<QScrollArea*>(w);
    QVERIFY(form_scroll);
    QVERIFY2(form_scroll->horizontalScrollBar()->maximum() == 0,
             qPrintable(QStringLiteral("form min width %1 in a viewport of %2")
                            .arg(window->form()->minimumSizeHint().width())
                            .arg(form_scroll->viewport()->width())));

    QVERIFY(test::runConfigToEnd(window, test::tinyExperiment()));
    QApplication::processEvents();
    QVERIFY2(!window->welcomePanel()->isVisible(), "the welcome panel stays after a run");
    ChartView* chart = window->accuracyTab()->curvesChart();
    QVERIFY(chart->isVisible());
    QVERIFY2(chart->height() >= 350,
             qPrintable(
                 QStringLiteral("chart %1 px high; %2").arg(chart->height()).arg(sizesOf(window))));
    test::saveShot(window, QStringLiteral("window-1024x700"));

    // Help → Show welcome brings it back.
    QAction* show_welcome = nullptr;
    for (QAction* menu : window->menuBar()->actions())
      if (menu->menu())
        for (QAction* a : menu->menu()->actions())
          if (a->text().contains(QStringLiteral("welcome"))) show_welcome = a;
    QVERIFY(show_welcome);
    show_welcome->trigger();
    QVERIFY(window->welcomePanel()->isVisible());

    // A tall window puts the bottom panel back below the charts.
    window->resize(1400, 950);
    QTRY_COMPARE(window->dockWidgetArea(bottom), Qt::BottomDockWidgetArea);
    delete window;
  }
};

DPLAB_TEST_MAIN(TestSmallScreen)
#include "test_small_screen.moc"
