// Issue #9 item 2: an exported report holds the config *of the results it shows* (a history run
// or the last run, not the edited form) plus summary.json / README.md, never changes the current
// experiment file or the recent files, and the window says which run it shows and marks "form
// modified since this run". Real, non-scripted MainWindow.
#include <QAction>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "form/experiment_form.h"
#include "form/number_field.h"
#include "form/privacy_section.h"
#include "privacy/accounting/rdp_accountant.h"
#include "run/history_panel.h"
#include "run/run_controller.h"
#include "shell/main_window.h"
#include "support/test_registry.h"
#include "ui_test_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {
nlohmann::json readJson(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return nlohmann::json::parse(f.readAll().toStdString());
}
}  // namespace

class TestReportExport : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QVERIFY(dir_.isValid());
    window_ = new MainWindow;
    window_->runController()->setHistoryPath(dir_.filePath(QStringLiteral("history.sqlite")));
    window_->show();
  }
  void cleanupTestCase() { delete window_; }

  void reportHoldsTheShownRunsConfig() {
    QSignalSpy finished(window_, &MainWindow::runFinished);
    // Run A: σ = 2, T = 100, saved as the current file.
    window_->form()->setConfig(test::tinyExperiment());
    QTRY_VERIFY_WITH_TIMEOUT(window_->runAction()->isEnabled(), 30000);
    QString error;
    const QString current = dir_.filePath(QStringLiteral("current.json"));
    QVERIFY2(window_->saveExperiment(current, &error), qPrintable(error));
    const QStringList recent_before =
        QSettings().value(QStringLiteral("files/recent")).toStringList();
    window_->runAction()->trigger();
    QVERIFY(finished.wait(60000));
    QVERIFY(window_->shownRunText().contains(QStringLiteral("ui test tiny")));
    QVERIFY(!window_->formModifiedSinceShownRun());
    QVERIFY(!window_->shownRunText().contains(QStringLiteral("modified")));

    // Run B: T = 150.
    window_->form()->privacy()->stepsField()->setValue(150);
    QVERIFY(window_->formModifiedSinceShownRun());
    QVERIFY(window_->shownRunText().contains(QStringLiteral("form modified since this run")));
    QTRY_VERIFY(window_->runAction()->isEnabled());
    window_->runAction()->trigger();
    QVERIFY(finished.wait(60000));
    QVERIFY(!window_->formModifiedSinceShownRun());

    // Edit the form (σ = 8), then open run A from the history and export.
    window_->form()->privacy()->sigmaField()->setValue(8);
    QTRY_VERIFY(window_->historyPanel()->ids().size() == 2);
    const qint64 run_a = window_->historyPanel()->ids().last();  // newest first
    QVERIFY(window_->historyPanel()->openRun(run_a));
    QVERIFY2(window_->shownRunText().contains(QStringLiteral("#%1").arg(run_a)),
             qPrintable(window_->shownRunText()));
    // Opened from the history, not run from this form: the form was not "modified since" it.
    QVERIFY(window_->formModifiedSinceShownRun());
    QVERIFY2(window_->shownRunText().contains(QStringLiteral("the form holds another experiment")),
             qPrintable(window_->shownRunText()));
    QVERIFY(!window_->shownRunText().contains(QStringLiteral("form modified since this run")));
    const QString report = dir_.filePath(QStringLiteral("report"));
    QVERIFY2(test::exportReportAndWait(window_, report, &error), qPrintable(error));

    const nlohmann::json config =
        readJson(QDir(report).filePath(QStringLiteral("experiment.json")));
    QCOMPARE(config["privacy"]["noise_multiplier"].get<double>(),
             2.0);                                         // the run's, not the form's 8
    QCOMPARE(config["privacy"]["steps"].get<int>(), 100);  // run A's T, not B's 150
    const nlohmann::json summary = readJson(QDir(report).filePath(QStringLiteral("summary.json")));
    QCOMPARE(summary["mechanism"]["steps"].get<int>(), 100);
    QCOMPARE(summary["mechanism"]["noise_multiplier"].get<double>(), 2.0);
    QCOMPARE(summary["per_optimizer"].size(), std::size_t{2});
    for (const auto& opt : summary["per_optimizer"]) {
      QVERIFY(opt["best_candidate"].is_object());
      QVERIFY(opt["epsilon_ma"].get<double>() >= opt["epsilon_single_run"].get<double>());
      QVERIFY(opt["best_accuracy"].get<double>() >= 0.0);
    }
    // The report's epsilon is the explore composition of every run trained (release_cost): all
    // 5 runs of 100 queries = one run of 500 queries, at the run's delta.
    const double all_runs = summary["epsilon_release"].get<double>();
    QVERIFY(all_runs >= summary["per_optimizer"][1]["epsilon_ma"].get<double>());
    QCOMPARE(summary["runs_charged"].get<int>(), 5);
    const double independent =
        privacy::epsilon_for_delta({2.0, summary["mechanism"]["sampling_rate"].get<double>(), 500},
                                   summary["mechanism"]["delta"].get<double>())
            .epsilon;
    QVERIFY(test::closeRel(all_runs, independent, 1e-12));
    QVERIFY(summary["epsilon_release_label"].get<std::string>().find(
                "explore: all 5 runs trained") != std::string::npos);
    for (const char* name :
         {"README.md", "results.csv", "curves.csv", "alpha_clip_grid.csv", "accuracy_curves.svg"}) {
      QVERIFY2(QFileInfo(QDir(report).filePath(QLatin1String(name))).size() > 0, name);
    }
    // Exporting changed neither the current file nor the recent files.
    QCOMPARE(window_->currentPath(), current);
    QCOMPARE(QSettings().value(QStringLiteral("files/recent")).toStringList(), recent_before);
    const nlohmann::json saved = readJson(current);
    QCOMPARE(saved["privacy"]["steps"].get<int>(), 100);
    // The form itself is untouched by opening a history run.
    QCOMPARE(window_->form()->config().privacy.noise_multiplier, 8.0);
  }

  void noRunNoReport() {
    MainWindow fresh;
    QString error;
    QVERIFY(!fresh.exportReport(dir_.filePath(QStringLiteral("empty")), &error));
    QVERIFY(error.contains(QStringLiteral("nothing to report")));
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestReportExport)
#include "test_report_export.moc"
