// Issue #25 items 1 and 2: run control in the real window, driven by the keyboard as a person
// would (QTest::keyClick on the main window: the shortcut map decides, as for real key presses).
// - Every advertised shortcut does what it says: Ctrl+R runs, F8 pauses and resumes (it did
//   nothing: the pause button's setText reset its own shortcut), Esc and Ctrl+. cancel, Ctrl+S
//   saves, Ctrl+E / Ctrl+O open their dialogs, Ctrl+N starts a new experiment.
// - One run state machine for both doors: a fresh run (Ctrl+R) and a resumed one (Run history →
//   Resume) both enable Cancel / Esc / Pause and disable Run; Esc cancels either. A resumed run's
//   throughput counts only the steps made in this session (it counted the jobs finished before).
#include <QDialog>
#include <QFile>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>

#include "run/history_panel.h"
#include "run/run_data.h"
#include "shell/run_bar.h"
#include "store/run_history.h"
#include "support/test_registry.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

// Six DPSGD candidates, long enough on one thread that a run can be caught mid-way.
experiment::ExperimentConfig longExperiment() {
  experiment::ExperimentConfig config = experiment::parse_experiment_text(R"({
    "name": "run control",
    "seed": 11, "repeats": 1, "eval_every": 2000,
    "dataset": {"source": "synthetic-binary"},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 2.0, "lot_size": 100, "steps": 20000},
    "optimizers": [
      {"name": "dpsgd", "grid": {"learning_rate": [0.05, 0.1, 0.2, 0.5, 1.0, 2.0], "clip": [1.0]}}
    ],
    "tuning": {"strategy": "grid"}
  })",
                                                                          "run control");
  return config;
}

MainWindow* openActiveWindow(const QTemporaryDir& dir) {
  QSettings().setValue(QStringLiteral("run/threads"), 1);
  MainWindow* window = test::openWindow(dir, longExperiment());
  window->form()->setThreads(1);
  window->activateWindow();
  if (!QTest::qWaitForWindowActive(window)) qWarning("the window did not become active");
  return window;
}

// The run controls as a person sees them while a run goes on.
void checkRunningControls(MainWindow* window) {
  auto* pause = window->findChild<QPushButton*>(QStringLiteral("pauseButton"));
  QVERIFY(window->runController()->running());
  QVERIFY2(window->runBar()->cancelButton()->isEnabled(), "Cancel greyed out during a run");
  QVERIFY(window->cancelAction()->isEnabled());  // Esc, Ctrl+.
  QVERIFY(window->pauseAction()->isEnabled());   // F8
  QVERIFY(pause && pause->isEnabled());
  QVERIFY2(!window->runBar()->runButton()->isEnabled(), "Run enabled during a run");
  QVERIFY(!window->runAction()->isEnabled());
}

void checkIdleControls(MainWindow* window) {
  QVERIFY(!window->runController()->running());
  QVERIFY(!window->runBar()->cancelButton()->isEnabled());
  QVERIFY(!window->cancelAction()->isEnabled());
  QVERIFY(!window->pauseAction()->isEnabled());
  QVERIFY(window->runBar()->runButton()->isEnabled());
  QVERIFY(window->runAction()->isEnabled());
}

// Closes the next modal dialog that opens and returns its title through *title.
void closeNextDialog(QString* title) {
  auto* timer = new QTimer;
  timer->setInterval(20);
  QObject::connect(timer, &QTimer::timeout, timer, [timer, title] {
    if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) {
      *title = dialog->windowTitle();
      dialog->reject();
      timer->stop();
      timer->deleteLater();
    }
  });
  timer->start();
}

}  // namespace

class TestRunControl : public QObject {
  Q_OBJECT
 private slots:
  void runShortcutsWorkInTheWindow() {
    QTemporaryDir dir;
    MainWindow* window = openActiveWindow(dir);
    RunController* controller = window->runController();
    QSignalSpy finished(window, &MainWindow::runFinished);

    QTest::keyClick(window, Qt::Key_R, Qt::ControlModifier);
    QVERIFY2(controller->running(), "Ctrl+R did not start the run");
    checkRunningControls(window);
    QTest::keyClick(window, Qt::Key_F8);
    QVERIFY2(controller->paused(), "F8 did not pause the run");
    QTRY_VERIFY_WITH_TIMEOUT(controller->progress().paused, 30000);
    QTest::keyClick(window, Qt::Key_F8);
    QVERIFY2(!controller->paused(), "F8 did not resume the run");
    QTest::keyClick(window, Qt::Key_F8);
    QVERIFY(controller->paused());
    QTest::keyClick(window, Qt::Key_Escape);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().at(1).toBool(), true);  // cancelled by Esc
    checkIdleControls(window);

    finished.clear();
    QTest::keyClick(window, Qt::Key_R, Qt::ControlModifier);
    QVERIFY(controller->running());
    QTest::keyClick(window, Qt::Key_F8);  // hold it so that it cannot end by itself
    QTest::keyClick(window, Qt::Key_Period, Qt::ControlModifier);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().at(1).toBool(), true);  // cancelled by Ctrl+.
    checkIdleControls(window);
    delete window;
  }

  void fileShortcutsWorkInTheWindow() {
    QTemporaryDir dir;
    MainWindow* window = openActiveWindow(dir);
    const QString path = dir.filePath(QStringLiteral("saved.json"));
    QString error;
    QVERIFY2(window->saveExperiment(path, &error), qPrintable(error));
    window->form()->seedBox()->setValue(4242);
    QTest::keyClick(window, Qt::Key_S, Qt::ControlModifier);  // saves to the current file
    QFile saved(path);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY2(saved.readAll().contains("4242"), "Ctrl+S did not save the edited form");

    QString title;
    closeNextDialog(&title);
    QTest::keyClick(window, Qt::Key_O, Qt::ControlModifier);
    QVERIFY2(title.contains(QStringLiteral("Open experiment")), qPrintable(title));
    title.clear();
    closeNextDialog(&title);
    window->activateWindow();  // back from the dialog
    QVERIFY(QTest::qWaitForWindowActive(window));
    QTest::keyClick(window, Qt::Key_E, Qt::ControlModifier);
    QVERIFY2(title.contains(QStringLiteral("Export report")), qPrintable(title));

    // Ctrl+N: the saved form is clean, so the default experiment comes without a question.
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window));
    QTest::keyClick(window, Qt::Key_N, Qt::ControlModifier);
    QVERIFY(window->form()->seedBox()->value() != 4242);
    QVERIFY(window->currentPath().isEmpty());
    delete window;
  }

  // Item 12: Ctrl+Tab steps through the result tabs every time, wherever the focus is (it worked
  // once, then the focus left with the hidden page).
  void ctrlTabStepsThroughTheTabsEveryTime() {
    QTemporaryDir dir;
    MainWindow* window = openActiveWindow(dir);
    QTabWidget* tabs = window->tabs();
    auto nextVisible = [tabs](int from) {
      for (int i = from + 1;; ++i)
        if (tabs->isTabVisible(i % tabs->count())) return i % tabs->count();
    };
    tabs->setCurrentIndex(0);
    tabs->currentWidget()->setFocus();
    for (int press = 0; press < 4; ++press) {
      const int expected = nextVisible(tabs->currentIndex());
      QTest::keyClick(window, Qt::Key_Tab, Qt::ControlModifier);
      QCOMPARE(tabs->currentIndex(), expected);
    }
    window->form()->seedBox()->setFocus();  // from the form too
    const int before = tabs->currentIndex();
    QTest::keyClick(window, Qt::Key_Tab, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), nextVisible(before));
    QTest::keyClick(window, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(tabs->currentIndex(), before);
    delete window;
  }

  // A run cancelled mid-way, then resumed from the run history: the same controls as a fresh run,
  // Esc cancels it, and its throughput counts only this session's steps.
  void resumedRunIsControlledLikeAFreshOne() {
    QTemporaryDir dir;
    MainWindow* window = openActiveWindow(dir);
    RunController* controller = window->runController();
    QSignalSpy finished(window, &MainWindow::runFinished);

    // Door 1: a fresh run, cancelled with the Cancel button once two jobs are done.
    window->runBar()->runButton()->click();
    checkRunningControls(window);
    QVERIFY(QTest::qWaitFor([&] { return controller->progress().jobs_done >= 2; }, 120000));
    QTest::mouseClick(window->runBar()->cancelButton(), Qt::LeftButton);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().at(1).toBool(), true);
    checkIdleControls(window);

    HistoryPanel* panel = window->historyPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->count() == 1 && panel->entries().front().resumable, 30000);
    const store::HistoryEntry entry = panel->entries().front();
    QVERIFY(entry.record.jobs_finished >= 2);
    QVERIFY(entry.record.jobs_finished < 6);
    QVERIFY(panel->selectRun(entry.record.id));

    // Door 2: Run history → Resume.
    finished.clear();
    QVERIFY(panel->resumeButton()->isEnabled());
    QTest::mouseClick(panel->resumeButton(), Qt::LeftButton);
    checkRunningControls(window);
    // The steps of the jobs finished before this session: T = 20000 queries each.
    const std::int64_t kept_steps = entry.record.jobs_finished * 20000;
    QVERIFY(QTest::qWaitFor(
        [&] {
          const tuning::Progress p = controller->progress();
          return (p.steps_done > kept_steps && p.elapsed_seconds > 0.05) || !finished.isEmpty();
        },
        120000));
    QVERIFY2(finished.isEmpty(), "the resumed run ended before it could be measured");
    const tuning::Progress p = controller->progress();
    // steps/s × elapsed = the steps made in this session (same snapshot: tolerance for rounding).
    QVERIFY2(std::abs(p.steps_per_second * p.elapsed_seconds -
                      static_cast<double>(p.steps_done - kept_steps)) <= 1e-6 * p.steps_done,
             qPrintable(QStringLiteral("%1 steps/s × %2 s vs %3 steps this session (%4 in all)")
                            .arg(p.steps_per_second)
                            .arg(p.elapsed_seconds)
                            .arg(p.steps_done - kept_steps)
                            .arg(p.steps_done)));
    QVERIFY(std::isfinite(p.eta_seconds));
    QVERIFY(test::closeRel(p.eta_seconds,
                           static_cast<double>(p.steps_total - p.steps_done) / p.steps_per_second,
                           1e-9));

    // F8 and Esc work on the resumed run as on a fresh one.
    QTest::keyClick(window, Qt::Key_F8);
    QVERIFY2(controller->paused(), "F8 did not pause the resumed run");
    QTest::keyClick(window, Qt::Key_Escape);
    QVERIFY2(finished.wait(30000), "Esc did not cancel the resumed run");
    QCOMPARE(finished.first().at(0).toBool(), true);
    QCOMPARE(finished.first().at(1).toBool(), true);
    QCOMPARE(controller->resumingRun(), qint64{-1});
    checkIdleControls(window);
    delete window;
  }
};

DPLAB_TEST_MAIN(TestRunControl)
#include "test_run_control.moc"
