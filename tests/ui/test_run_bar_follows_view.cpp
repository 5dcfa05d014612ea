// Issue #44 (exploration): the run bar shows the run being viewed. After opening a run from the
// run history it still said how the last local run ended ("done in 0.4 s", its job count), under
// charts of another run. It now names the viewed run and its jobs finished of all; Run starts a
// local run again and the bar follows that one.
#include "run/run_data.h"
#include "shell/run_bar.h"
#include "support/test_registry.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

experiment::ExperimentConfig smallerExperiment() {
  experiment::ExperimentConfig c = test::tinyExperiment();
  c.name = "ui test three";
  c.optimizers.pop_back();  // DPSGD's 3 candidates only
  return c;
}

}  // namespace

class TestRunBarFollowsView : public QObject {
  Q_OBJECT
 private slots:
  void runBarShowsTheOpenedHistoryRun() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow* window = test::openWindow(dir, test::tinyExperiment());
    QVERIFY(test::runToEnd(window));                             // run #1: 5 jobs
    QVERIFY(test::runConfigToEnd(window, smallerExperiment()));  // run #2: 3 jobs
    RunBar* bar = window->runBar();
    QVERIFY2(bar->text().startsWith(QStringLiteral("done")), qPrintable(bar->text()));
    QTRY_VERIFY(window->historyPanel()->count() == 2);
    // Open the first run (5 jobs) from the history.
    const qint64 first = [&] {
      qint64 id = -1;
      for (qint64 candidate = 1; candidate <= 2 && id < 0; ++candidate)
        if (window->historyPanel()->selectRun(candidate)) id = candidate;
      return id;
    }();
    QVERIFY(first >= 0);
    QVERIFY(window->historyPanel()->openRun(first));
    QApplication::processEvents();
    QVERIFY2(window->runData()->title().contains(QStringLiteral("#%1").arg(first)),
             qPrintable(window->runData()->title()));
    const int jobs = static_cast<int>(window->runData()->runs().jobs.size());
    QVERIFY2(bar->text().contains(QStringLiteral("#%1").arg(first)), qPrintable(bar->text()));
    QVERIFY2(!bar->text().startsWith(QStringLiteral("done")), qPrintable(bar->text()));
    QVERIFY2(bar->progressText() == QStringLiteral("%1 / %1 jobs").arg(jobs),
             qPrintable(bar->progressText()));
    // A new local run: the bar follows it again.
    QVERIFY(test::runToEnd(window));
    QVERIFY2(bar->text().startsWith(QStringLiteral("done")), qPrintable(bar->text()));
    delete window;
  }
};

DPLAB_TEST_MAIN(TestRunBarFollowsView)
#include "test_run_bar_follows_view.moc"
