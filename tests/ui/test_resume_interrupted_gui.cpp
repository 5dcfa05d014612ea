// Issue #11 item 8 in the GUI: a `dplab-cli tune` run killed with SIGKILL mid-search is shown
// as "interrupted" in the window's run history; selecting it offers Resume (the hint and the
// button), and Resume runs only the missing jobs through the engine path of `tune --resume`. The
// finished run equals an uninterrupted one, bit for bit, and is stored as finished.
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <bit>

#include "run/history_panel.h"
#include "run/run_data.h"
#include "store/run_history.h"
#include "store/store.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "tuning/runner.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

const char* kExperiment = R"({
  "name": "killed search",
  "seed": 11, "repeats": 1, "eval_every": 500,
  "dataset": {"source": "synthetic-binary"},
  "model": {"kind": "logistic"},
  "privacy": {"noise_multiplier": 2.0, "lot_size": 100, "steps": 4000},
  "optimizers": [
    {"name": "dpsgd", "grid": {"learning_rate": [0.05, 0.1, 0.2, 0.5, 1.0, 2.0], "clip": [1.0]}}
  ],
  "tuning": {"strategy": "grid"}
})";

bool sameBits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

}  // namespace

class TestResumeInterruptedGui : public QObject {
  Q_OBJECT
 private slots:
  void killedRunResumesFromTheHistory() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db_path = dir.filePath(QStringLiteral("history.sqlite"));
    const QString config_path = dir.filePath(QStringLiteral("killed.json"));
    {
      QFile f(config_path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(kExperiment);
    }
    // A CLI search on one thread, killed once it has stored at least one job.
    QProcess cli;
    cli.start(QString::fromStdString(testing::cli_path()),
              {QStringLiteral("tune"), QStringLiteral("--config"), config_path,
               QStringLiteral("--db"), db_path, QStringLiteral("--threads"), QStringLiteral("1"),
               QStringLiteral("--out"), dir.filePath(QStringLiteral("out"))});
    QVERIFY(cli.waitForStarted(10000));
    std::int64_t stored = 0;
    QVERIFY(QTest::qWaitFor(
        [&] {
          if (!QFile::exists(db_path)) return false;
          try {
            store::Store db(db_path.toStdString());
            const auto runs = db.list_experiments();
            stored = runs.empty() ? 0 : db.stored_jobs(runs.front().id);
          } catch (const std::exception&) {
            return false;
          }
          return stored >= 1;
        },
        60000));
    cli.kill();  // SIGKILL
    QVERIFY(cli.waitForFinished(10000));
    QCOMPARE(cli.exitStatus(), QProcess::CrashExit);

    MainWindow* window = test::openWindow(dir, test::tinyExperiment());
    HistoryPanel* panel = window->historyPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->count() == 1, 30000);
    const store::HistoryEntry& entry = panel->entries().front();
    QCOMPARE(entry.record.status, std::string("interrupted"));
    QVERIFY(entry.record.jobs_finished < 6);
    QVERIFY(entry.resumable);
    const qint64 id = entry.record.id;
    // Opening it shows what was stored and offers Resume.
    QVERIFY(panel->openRun(id));
    QVERIFY(panel->resumeButton()->isEnabled());
    QVERIFY2(panel->resumeHint().contains(QStringLiteral("interrupted")),
             qPrintable(panel->resumeHint()));
    test::saveShot(window, QStringLiteral("history_interrupted"), panel);

    QSignalSpy finished(window, &MainWindow::runFinished);
    panel->resumeButton()->click();
    QVERIFY(window->runController()->running());
    QVERIFY(!panel->resumeButton()->isEnabled());
    QVERIFY(finished.wait(120000));
    QCOMPARE(finished.first().at(0).toBool(), true);
    QCOMPARE(finished.first().at(1).toBool(), false);

    // Equal to an uninterrupted run of the same experiment.
    const auto config = experiment::parse_experiment_text(kExperiment, "killed");
    const tuning::SearchResults plain =
        tuning::Runner(config, tuning::load_experiment_data(config)).run();
    const tuning::SearchResults& resumed = window->runData()->results();
    QCOMPARE(resumed.jobs.size(), plain.jobs.size());
    for (std::size_t i = 0; i < plain.jobs.size(); ++i) {
      QCOMPARE(resumed.jobs[i].status, tuning::JobStatus::kFinished);
      QVERIFY(sameBits(resumed.jobs[i].final_val_accuracy, plain.jobs[i].final_val_accuracy));
      QVERIFY(sameBits(resumed.jobs[i].final_train_loss, plain.jobs[i].final_train_loss));
    }
    // Stored complete, in the same history row.
    QTRY_VERIFY_WITH_TIMEOUT(
        !panel->entries().empty() && panel->entries().front().record.status == "finished", 30000);
    QCOMPARE(panel->count(), 1);
    QCOMPARE(panel->entries().front().record.jobs_finished, std::int64_t{6});
    store::Store db(db_path.toStdString());
    const tuning::SearchResults stored_run = db.load_results(id);
    for (std::size_t i = 0; i < plain.jobs.size(); ++i)
      QVERIFY(sameBits(stored_run.jobs[i].final_val_accuracy, plain.jobs[i].final_val_accuracy));
    // Issue #42 finding 2: the history row and the header ("spent eps <=") state what BOTH
    // attempts spent (the killed one: its stored jobs and every other job it set out to train,
    // at T), above the cost of the six stored jobs alone, never the last attempt's share.
    const double row = panel->entries().front().epsilon;
    const double stored_jobs_cost = tuning::release_cost(stored_run).epsilon;
    QVERIFY2(row > stored_jobs_cost,
             qPrintable(QStringLiteral("%1 vs %2").arg(row).arg(stored_jobs_cost)));
    QCOMPARE(window->runData()->releaseCost().epsilon, row);
    delete window;
  }
};

DPLAB_TEST_MAIN(TestResumeInterruptedGui)
#include "test_resume_interrupted_gui.moc"
