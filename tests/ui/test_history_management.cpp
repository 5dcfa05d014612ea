// Run history in the real window: columns name, data set, ε and best accuracy from the engine
// (store::list_history), rename and notes stored in the history file (seen by a fresh Store),
// Delete… asks first (No keeps the run, Yes removes it), and "Use its config" restores the run's
// experiment into the form — asking before it discards edits; Compare labels each run by what
// sets it apart.
#include <qcustomplot.h>
#include <QDialog>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QTableWidget>
#include <QTimer>
#include <algorithm>
#include <cmath>

#include "privacy/accounting/epsilon_display.h"
#include "run/history_panel.h"
#include "shell/discard_guard.h"
#include "store/run_history.h"
#include "store/store.h"
#include "support/test_registry.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

// Answers the next modal dialog: presses the button whose text contains `button`, or for an
// input dialog sets `text` and accepts.
void answerNextDialog(const QString& button, const QString& text = QString()) {
  QTimer::singleShot(0, [button, text] {
    QWidget* modal = nullptr;
    if (!QTest::qWaitFor([&] { return (modal = QApplication::activeModalWidget()) != nullptr; },
                         5000))
      return;  // no dialog came: the test fails on what it checks next
    if (auto* input = qobject_cast<QInputDialog*>(modal)) {
      input->setTextValue(text);
      input->accept();
      return;
    }
    if (auto* box = qobject_cast<QMessageBox*>(modal)) {
      for (QAbstractButton* b : box->buttons()) {
        if (b->text().remove(QLatin1Char('&')).contains(button)) {
          b->click();
          return;
        }
      }
    }
    if (modal) modal->close();
  });
}

}  // namespace

class TestHistoryManagement : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
    QVERIFY(test::runToEnd(window_));
    QVERIFY(test::runToEnd(window_));
    panel_ = window_->historyPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel_->count() == 2, 30000);
  }
  void cleanupTestCase() { delete window_; }

  void columnsFromTheEngine() {
    store::Store db(dir_.filePath(QStringLiteral("history.sqlite")).toStdString());
    const auto expected = store::list_history(db);
    QCOMPARE(expected.size(), std::size_t{2});
    QTableWidget* table = panel_->table();
    for (int row = 0; row < 2; ++row) {
      const auto& e = expected[static_cast<std::size_t>(row)];
      QCOMPARE(table->item(row, HistoryPanel::kId)->text().toLongLong(), e.record.id);
      QCOMPARE(table->item(row, HistoryPanel::kName)->text(), QStringLiteral("ui test tiny"));
      QCOMPARE(table->item(row, HistoryPanel::kDataset)->text(),
               QStringLiteral("synthetic-binary"));
      QCOMPARE(table->item(row, HistoryPanel::kStatus)->text(), QStringLiteral("finished"));
      QVERIFY(std::isfinite(e.epsilon) && e.epsilon > 0);
      QCOMPARE(
          table->item(row, HistoryPanel::kEpsilon)->text(),
          QStringLiteral("≤ ") + QString::fromStdString(privacy::format_epsilon_up(e.epsilon)));
      QVERIFY(
          table->item(row, HistoryPanel::kEpsilon)->toolTip().contains(QStringLiteral("explore")));
      QCOMPARE(table->item(row, HistoryPanel::kBest)->text(),
               QString::number(e.best_metric, 'g', 4));
      QVERIFY(e.best_metric > 0.5);
      QVERIFY(!e.best_is_released_score);
      // σ and T of the run's configuration (the tiny experiment's).
      QCOMPARE(table->item(row, HistoryPanel::kSigma)->text(),
               QString::number(e.noise_multiplier, 'g', 4));
      QCOMPARE(table->item(row, HistoryPanel::kSteps)->text(), QString::number(e.steps));
      const auto config = test::tinyExperiment();
      QCOMPARE(e.noise_multiplier, config.privacy.noise_multiplier);
      QCOMPARE(e.steps, config.privacy.steps);
    }
  }

  void renameAndNotesAreStored() {
    const qint64 id = panel_->ids().first();
    QVERIFY(panel_->selectRun(id));
    answerNextDialog(QString(), QStringLiteral("σ = 2 baseline"));
    for (QPushButton* b : panel_->findChildren<QPushButton*>())
      if (b->text() == QStringLiteral("Rename…")) b->click();
    QTRY_COMPARE(panel_->table()->item(0, HistoryPanel::kName)->text(),
                 QStringLiteral("σ = 2 baseline"));
    QVERIFY(panel_->setNotes(id, QStringLiteral("first line\nsecond line")));
    QTRY_COMPARE(panel_->table()->item(0, HistoryPanel::kNotes)->text(),
                 QStringLiteral("first line"));
    QCOMPARE(panel_->table()->item(0, HistoryPanel::kNotes)->toolTip(),
             QStringLiteral("first line\nsecond line"));
    // In the file, seen by another Store.
    store::Store db(dir_.filePath(QStringLiteral("history.sqlite")).toStdString());
    QCOMPARE(db.list_experiments().front().name, std::string("σ = 2 baseline"));
    QCOMPARE(store::run_notes(db, id), std::string("first line\nsecond line"));
    test::saveShot(window_, QStringLiteral("history_renamed"), panel_);
    // An empty name is refused with a message, the name stays.
    QVERIFY(!panel_->renameRun(id, QStringLiteral("  ")));
  }

  void useConfigAsksBeforeDiscardingEdits() {
    const qint64 id = panel_->ids().last();
    // Edit the form: σ = 7.
    window_->form()->privacy()->sigmaField()->setValue(7);
    QVERIFY(window_->discardGuard()->isModified());
    QVERIFY(panel_->selectRun(id));
    answerNextDialog(QStringLiteral("Cancel"));
    panel_->useConfigButton()->click();
    QCOMPARE(window_->form()->config().privacy.noise_multiplier, 7.0);  // kept
    answerNextDialog(QStringLiteral("Discard"));
    panel_->useConfigButton()->click();
    QCOMPARE(window_->form()->config().privacy.noise_multiplier, 2.0);  // the run's
    QCOMPARE(window_->form()->config().privacy.steps, std::int64_t{100});
    QVERIFY(!window_->discardGuard()->isModified());
    // Unmodified form: no question at all.
    const int asked = window_->discardGuard()->questionsAsked();
    panel_->useConfigButton()->click();
    QCOMPARE(window_->discardGuard()->questionsAsked(), asked);
  }

  // Compare overlays the selected runs' curves, each legend entry naming its run by what sets it
  // apart (experiment::difference_labels: here σ and so ε; the two equal runs alike), and no
  // entry without a line.
  void compareNamesEachRunByWhatDiffers() {
    experiment::ExperimentConfig louder = test::tinyExperiment();
    louder.privacy.noise_multiplier = 4.0;
    QVERIFY(test::runConfigToEnd(window_, louder));
    QTRY_VERIFY_WITH_TIMEOUT(panel_->count() == 3, 30000);
    panel_->table()->selectAll();
    const QWidgetList before = QApplication::topLevelWidgets();
    panel_->compareButton()->click();
    QDialog* dialog = nullptr;
    for (QWidget* w : QApplication::topLevelWidgets()) {
      if (!before.contains(w) && (dialog = qobject_cast<QDialog*>(w))) break;
    }
    QVERIFY(dialog);
    auto* plot = dialog->findChild<QCustomPlot*>();
    QVERIFY(plot);
    QCOMPARE(plot->graphCount(), 3 * 2);  // 3 runs × (dpsgd, dpadam)
    store::Store db(dir_.filePath(QStringLiteral("history.sqlite")).toStdString());
    const auto history = store::list_history(db);
    QSet<QString> suffixes;
    for (int i = 0; i < plot->graphCount(); ++i) {
      QCPGraph* g = plot->graph(i);
      QVERIFY2(g->dataCount() > 0, qPrintable(g->name()));
      const qint64 id = g->name().section(QLatin1Char(' '), 0, 0).mid(1).toLongLong();
      const auto e = std::find_if(history.begin(), history.end(),
                                  [&](const auto& h) { return h.record.id == id; });
      QVERIFY2(e != history.end(), qPrintable(g->name()));
      const QString sigma = e->noise_multiplier == 4.0 ? QStringLiteral("4") : QStringLiteral("2");
      const QString expected =
          QStringLiteral(" · σ %1 · ε ≤ %2")
              .arg(sigma, QString::fromStdString(privacy::format_epsilon_up(e->epsilon)));
      QVERIFY2(g->name().endsWith(expected), qPrintable(g->name() + " vs " + expected));
      suffixes.insert(expected);
    }
    QCOMPARE(suffixes.size(), 2);  // the two equal runs read alike, the louder one apart
    dialog->close();
  }

  void deleteAsksFirst() {
    const int n = panel_->count();
    const qint64 id = panel_->ids().last();
    QVERIFY(panel_->selectRun(id));
    answerNextDialog(QStringLiteral("No"));
    panel_->deleteButton()->click();
    QTest::qWait(200);
    QCOMPARE(panel_->count(), n);  // kept
    answerNextDialog(QStringLiteral("Yes"));
    panel_->deleteButton()->click();
    QTRY_COMPARE(panel_->count(), n - 1);
    QVERIFY(!panel_->ids().contains(id));
    store::Store db(dir_.filePath(QStringLiteral("history.sqlite")).toStdString());
    QCOMPARE(db.list_experiments().size(), static_cast<std::size_t>(n - 1));
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
  HistoryPanel* panel_ = nullptr;
};

DPLAB_TEST_MAIN(TestHistoryManagement)
#include "test_history_management.moc"
