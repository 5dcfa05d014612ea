// Issue #42 finding 3: the window never shows the number of runs K of a private Liu–Talwar or
// Papernot–Steinke search (K is drawn at random and is not covered by ε; only the winner is
// released). Runs tiny private LT and PS searches on the real window and checks, against the K the
// run actually trained:
//  - the run bar, at every progress tick and at the end: an indeterminate bar (maximum <= 1) and
//    the text "training (private selection: the number of runs is not shown)", then "released";
//    no digit at all (no job or step count, no steps/s, no ETA, no elapsed time);
//  - the history row: the jobs column reads "private" and no cell or tooltip holds K;
//  - a cancelled private run: the bar says "cancelled: nothing released", the Resume hint and
//    the Delete… dialog name no job count;
//  - an explore run (and the rule's other side, MA) still shows its counts.
#include <QProgressBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "experiment/run_count_visibility.h"
#include "run/history_panel.h"
#include "run/run_controller.h"
#include "run/run_data.h"
#include "shell/main_window.h"
#include "shell/run_bar.h"
#include "support/test_registry.h"
#include "tuning/private_search.h"
#include "ui_test_support.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

constexpr int kCandidates = 5;  // test::tinyExperiment

// A standalone integer `k` in `text`: not part of a longer number, word, decimal, exponent, date
// or time of day.
bool containsNumber(const QString& text, std::int64_t k) {
  return text.contains(QRegularExpression(
      QStringLiteral("(?<![\\w.+\\-:])%1(?![\\w.:\\-])").arg(static_cast<qlonglong>(k))));
}

// A private search of the tiny experiment whose seeded draw trains K in [6, 15] runs, K != 9, 10:
// then K is told apart from every public number the views print (ids, the 5 candidates, T, the
// PS mean mu = 9).
experiment::ExperimentConfig privateSearch(experiment::PrivateSelection selection,
                                           std::int64_t steps, std::int64_t* k_out) {
  experiment::ExperimentConfig config = test::tinyExperiment();
  config.privacy.steps = steps;
  config.eval_every = steps / 10;
  config.tuning.gamma = 0.15;
  config.release.mode = experiment::ReleaseMode::kPrivate;
  config.release.selection = selection;
  config.release.ps_mu = 9;
  config.release.secure = false;  // seeded: the test knows the draw
  for (config.seed = 1;; ++config.seed) {
    const auto k = static_cast<std::int64_t>(
        tuning::draw_private_plan(config, kCandidates, config.seed).jobs.size());
    if (k >= 6 && k <= 15 && k != 9 && k != 10) {
      *k_out = k;
      return config;
    }
  }
}

}  // namespace

class TestPrivateRunCountHidden : public QObject {
  Q_OBJECT

  // What the run bar showed: its texts, and the largest maximum and value of its bar.
  struct Shown {
    QStringList texts;
    int maximum = 0;
    int value = 0;
  };

  void record(Shown* shown) {
    RunBar* bar = window_->runBar();
    auto* progress = bar->findChild<QProgressBar*>();
    shown->texts << bar->text() << bar->progressFormat() << progress->text() << progress->toolTip();
    shown->maximum = std::max(shown->maximum, progress->maximum());
    shown->value = std::max(shown->value, progress->value());
  }

  // Runs `config` through the Run action, recording the run bar at every progress tick (after
  // the bar's own update: this connection is made after the window's) and at the end.
  Shown runAndRecord(const experiment::ExperimentConfig& config, bool cancel_at_first_tick) {
    window_->form()->setConfig(config);
    Shown shown;
    QMetaObject::Connection tick =
        connect(window_->runController(), &RunController::progressChanged, this,
                [this, &shown, cancel_at_first_tick](const tuning::Progress& p) {
                  record(&shown);
                  if (cancel_at_first_tick && p.steps_done > 0) window_->runController()->cancel();
                });
    QSignalSpy finished(window_, &MainWindow::runFinished);
    if (!QTest::qWaitFor([&] { return window_->runAction()->isEnabled(); }, 30000)) {
      qWarning("Run never became enabled: %s",
               qPrintable(window_->form()->errors().join(QStringLiteral("; "))));
    }
    window_->runAction()->trigger();
    record(&shown);  // "starting"
    if (!finished.wait(180000)) qWarning("the run did not end");
    disconnect(tick);
    record(&shown);
    return shown;
  }

  // The history's newest row, once it lists `rows` runs.
  int newestRow(int rows) {
    HistoryPanel* history = window_->historyPanel();
    if (!QTest::qWaitFor([&] { return history->count() == rows; }, 30000))
      qWarning("the history lists %d runs, not %d", history->count(), rows);
    return 0;
  }

  QString rowText(int row) {
    QTableWidget* table = window_->historyPanel()->table();
    QString text;
    for (int c = 0; c < table->columnCount(); ++c) {
      if (QTableWidgetItem* item = table->item(row, c))
        text += item->text() + " | " + item->toolTip() + "\n";
    }
    return text;
  }

  void checkHidden(const Shown& shown, std::int64_t k, const QString& tag) {
    QVERIFY2(
        shown.maximum <= 1,
        qPrintable(tag + QStringLiteral(": bar maximum %1 (K = %2)").arg(shown.maximum).arg(k)));
    QVERIFY2(shown.value <= 1, qPrintable(tag));
    const QString all = shown.texts.join(QStringLiteral("\n"));
    QVERIFY2(all.contains(RunBar::privateTrainingText()), qPrintable(tag + ":\n" + all));
    // No count, no steps, no throughput, no ETA, no time: not one digit.
    QVERIFY2(!all.contains(QRegularExpression(QStringLiteral("\\d"))),
             qPrintable(tag + QStringLiteral(" (K = %1):\n").arg(k) + all));
    for (const char* word : {"jobs", "steps", "ETA"})
      QVERIFY2(!all.contains(QLatin1String(word)), qPrintable(tag + ":\n" + all));
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
    window_->form()->setThreads(2);
  }
  void cleanupTestCase() { delete window_; }

  void the_rule_is_lt_and_ps_only() {
    experiment::ReleaseConfig r;
    QVERIFY(!experiment::hides_run_count(r));  // explore
    r.mode = experiment::ReleaseMode::kPrivate;
    QVERIFY(!experiment::hides_run_count(r));  // MA: K = the candidate count, public
    for (auto s : {experiment::PrivateSelection::kLt, experiment::PrivateSelection::kPs}) {
      r.selection = s;
      QVERIFY(experiment::hides_run_count(r));
      QVERIFY(experiment::described_release_hides_run_count(experiment::describe_release(r)));
    }
    r.subsampled = true;
    QVERIFY(experiment::hides_run_count(r));
    QVERIFY(experiment::described_release_hides_run_count(experiment::describe_release(r)));
    r = {};
    QVERIFY(!experiment::described_release_hides_run_count(experiment::describe_release(r)));
    r.mode = experiment::ReleaseMode::kPrivate;
    QVERIFY(!experiment::described_release_hides_run_count(experiment::describe_release(r)));
  }

  void private_lt_and_ps_show_no_run_count() {
    int rows = window_->historyPanel()->count();
    for (auto selection : {experiment::PrivateSelection::kLt, experiment::PrivateSelection::kPs}) {
      std::int64_t k = 0;
      const auto config = privateSearch(selection, 100, &k);
      const QString tag = QString::fromStdString(experiment::describe_release(config.release));
      const Shown shown = runAndRecord(config, false);
      // The run trained exactly the K drawn (the count the views must not show).
      QCOMPARE(static_cast<std::int64_t>(window_->runData()->runs().jobs.size()), k);
      QVERIFY(window_->runData()->privateRelease().has_value());
      QVERIFY(window_->runData()->privateRelease()->released == 1);
      checkHidden(shown, k, tag);
      if (QTest::currentTestFailed()) return;
      QCOMPARE(window_->runBar()->text(), QStringLiteral("released"));

      const int row = newestRow(++rows);
      QTableWidget* table = window_->historyPanel()->table();
      QCOMPARE(table->item(row, HistoryPanel::kJobs)->text(), QStringLiteral("private"));
      const QString row_text = rowText(row);
      QVERIFY2(!containsNumber(row_text, k),
               qPrintable(tag + QStringLiteral(" K = %1:\n").arg(k) + row_text));
      QVERIFY2(!containsNumber(row_text, k * config.privacy.steps), qPrintable(row_text));
      const qint64 id = window_->historyPanel()->ids().first();
      const QString question = window_->historyPanel()->deleteQuestion(id);
      QVERIFY2(!question.contains(QLatin1String("jobs")) && !containsNumber(question, k),
               qPrintable(question));
    }
  }

  void cancelled_private_run_names_no_count() {
    std::int64_t k = 0;
    // Long runs on one thread, so that Cancel catches the search mid-way.
    window_->form()->setThreads(1);
    const auto config = privateSearch(experiment::PrivateSelection::kPs, 20000, &k);
    const int rows = window_->historyPanel()->count();
    const Shown shown = runAndRecord(config, true);
    window_->form()->setThreads(2);
    checkHidden(shown, k, QStringLiteral("cancelled ps"));
    if (QTest::currentTestFailed()) return;
    QCOMPARE(window_->runBar()->text(), QStringLiteral("cancelled: nothing released"));

    HistoryPanel* history = window_->historyPanel();
    const int row = newestRow(rows + 1);
    QTRY_VERIFY_WITH_TIMEOUT(history->entries().front().resumable, 30000);
    const qint64 id = history->ids().first();
    QVERIFY(history->selectRun(id));
    const QString hint = history->resumeHint();
    QVERIFY2(!hint.isEmpty(), "no Resume hint for the cancelled run");
    QVERIFY2(!hint.contains(QLatin1String("jobs")) && !containsNumber(hint, k) &&
                 !hint.contains(QRegularExpression(QStringLiteral("\\d+ of \\d+"))),
             qPrintable(hint));
    QVERIFY2(hint.contains(QStringLiteral("dplab-cli tune --resume %1").arg(id)), qPrintable(hint));
    QCOMPARE(history->table()->item(row, HistoryPanel::kJobs)->text(), QStringLiteral("private"));
    // Opening it says how to resume, without a count.
    QSignalSpy messages(history, &HistoryPanel::message);
    QVERIFY(history->openRun(id));
    for (const QList<QVariant>& m : messages) {
      const QString text = m.at(0).toString();
      QVERIFY2(!text.contains(QLatin1String("missing jobs")) && !containsNumber(text, k),
               qPrintable(text));
    }
    // The Delete… dialog itself (answered No).
    QString seen;
    test::answerNextBox(QStringLiteral("No"), &seen);
    QVERIFY(history->selectRun(id));
    history->deleteButton()->click();
    QTRY_VERIFY(!seen.isEmpty());
    QVERIFY2(seen.contains(QStringLiteral("Delete run #%1").arg(id)), qPrintable(seen));
    QVERIFY2(!seen.contains(QLatin1String("jobs")) && !containsNumber(seen, k), qPrintable(seen));
    QCOMPARE(history->count(), rows + 1);  // not deleted
  }

  void explore_and_ma_keep_their_counts() {
    const int rows = window_->historyPanel()->count();
    const Shown shown = runAndRecord(test::tinyExperiment(), false);
    QCOMPARE(shown.maximum, kCandidates);
    QCOMPARE(window_->runBar()->progressFormat(), QStringLiteral("%v / %m jobs"));
    QVERIFY2(window_->runBar()->text().contains(QLatin1String("steps/s")),
             qPrintable(window_->runBar()->text()));
    int row = newestRow(rows + 1);
    QCOMPARE(window_->historyPanel()->table()->item(row, HistoryPanel::kJobs)->text(),
             QStringLiteral("%1/%1").arg(kCandidates));
    const qint64 id = window_->historyPanel()->ids().first();
    QVERIFY2(window_->historyPanel()->deleteQuestion(id).contains(
                 QStringLiteral("(%1 jobs)").arg(kCandidates)),
             qPrintable(window_->historyPanel()->deleteQuestion(id)));

    // MA trains each candidate once: K = 5 is public, and shown.
    auto ma = test::tinyExperiment();
    ma.release.mode = experiment::ReleaseMode::kPrivate;
    ma.release.selection = experiment::PrivateSelection::kMa;
    const Shown ma_shown = runAndRecord(ma, false);
    QCOMPARE(ma_shown.maximum, kCandidates);
    row = newestRow(rows + 2);
    QCOMPARE(window_->historyPanel()->table()->item(row, HistoryPanel::kJobs)->text(),
             QStringLiteral("%1/%1").arg(kCandidates));
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestPrivateRunCountHidden)
#include "test_private_run_count_hidden.moc"
