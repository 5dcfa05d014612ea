// Release mode "private on a subsample" (Koskela & Kulkarni 2023, issue #32) from the GUI, in the
// real window, on the quick-demo preset:
//  - the Release box offers the mode with its settings (q, final data, the learning-rate
//    transfer labelled a heuristic); the form refuses what the engine's check_release /
//    check_release_repeats refuse (q outside (0, 1], repeats 2), with the engine's message;
//  - Run trains both phases with the engine code of `dplab-cli tune` (run_subsampled_search): the
//    released final run equals the engine's own run of the same config (same code path, bit for
//    bit), and only it is shown;
//  - the ε shown is the engine's two-phase release cost and equals `dplab-cli account` for the
//    same settings (the command the CLI prints as `recompute`); its label says both phases;
//  - the curator-only facts (K, |X1|, the tuning winner and its score on X1) appear nowhere in
//    the window's text nor in a chart's CSV export nor in the exported report.
//  - DPLAB_TEST_SCREENSHOTS: the release view and the "Tuning on a subsample" tab at 1280x720.
#include <QComboBox>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/chart_view.h"
#include "core/csv_table.h"
#include "experiment/experiment_config.h"
#include "form/experiment_form.h"
#include "form/number_field.h"
#include "form/release_section.h"
#include "privacy/accounting/epsilon_display.h"
#include "run/run_data.h"
#include "shell/main_window.h"
#include "support/cli_runner.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "tuning/release_cost.h"
#include "tuning/runner.h"
#include "tuning/subsampled_search.h"
#include "views/released_winner_tab.h"
#include "views/subsampled_tuning_view.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

// Every text a user can read in `root`: labels, line edits, combo items, tab titles.
QString visibleText(QWidget* root) {
  QStringList parts;
  for (auto* label : root->findChildren<QLabel*>()) parts << label->text();
  for (auto* edit : root->findChildren<QLineEdit*>()) parts << edit->text();
  for (auto* combo : root->findChildren<QComboBox*>()) parts << combo->currentText();
  for (auto* tabs : root->findChildren<QTabWidget*>()) {
    for (int i = 0; i < tabs->count(); ++i) parts << tabs->tabText(i);
  }
  return parts.join(QLatin1Char('\n'));
}

QString readAll(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

// The number as a standalone token (not a digit of another number).
QRegularExpression standalone(const QString& number) {
  return QRegularExpression(
      QStringLiteral("(?<![\\d.])%1(?![\\d])").arg(QRegularExpression::escape(number)));
}

}  // namespace

class TestSubsampledReleaseGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    config_ = experiment::load_experiment_file(testing::presets_dir() + "/quick-demo.json");
    window_ = test::openWindow(dir_, config_);
    QVERIFY(window_->form()->dataReady());
  }
  void cleanupTestCase() { delete window_; }

  void release_box_offers_the_mode_with_engine_rules() {
    ExperimentForm* form = window_->form();
    ReleaseSection* release = form->releaseSection();
    const int index = release->modeCombo()->findData(QStringLiteral("ps-subsampled"));
    QVERIFY(index >= 0);
    QVERIFY(release->modeCombo()->itemText(index).contains("subsample"));
    QVERIFY(!release->tuningFractionField()->isVisibleTo(release));  // explore: hidden
    release->selectMode(QStringLiteral("ps-subsampled"));
    QVERIFY(release->tuningFractionField()->isVisibleTo(release));
    QVERIFY(!release->secureBox()->isEnabled());  // not available with this mode yet
    // ... and shown unticked: the run is not secure, the box says so (#42).
    QVERIFY(!release->secureBox()->isChecked());
    QVERIFY(!form->config().release.secure);
    release->selectMode(QStringLiteral("ps"));  // a secure-capable private mode: ticked again
    QVERIFY(release->secureBox()->isEnabled() && release->secureBox()->isChecked());
    release->selectMode(QStringLiteral("ps-subsampled"));
    QVERIFY(!release->secureBox()->isChecked());
    QVERIFY(release->muField()->isEnabled());
    for (int i = 0; i < release->lrTransferCombo()->count(); ++i)
      QVERIFY(release->lrTransferCombo()->itemText(i).contains("heuristic"));
    QVERIFY(!release->lrFactorField()->isEnabled());
    release->lrTransferCombo()->setCurrentIndex(
        release->lrTransferCombo()->findData(QStringLiteral("factor")));
    QVERIFY(release->lrFactorField()->isEnabled());
    release->lrTransferCombo()->setCurrentIndex(0);

    // q = 0: the engine's message (check_release), the one `tune --tuning-fraction 0` prints.
    release->tuningFractionField()->setValue(0.0);
    QVERIFY2(form->errors().join('\n').contains("release.tuning_fraction: must be in (0, 1]"),
             qPrintable(form->errors().join('\n')));
    release->tuningFractionField()->setValue(0.25);
    // repeats 2: refused by the engine's rule (check_release_repeats).
    experiment::ExperimentConfig two = form->config();
    two.repeats = 2;
    form->setConfig(two);
    QVERIFY(release->subsampled());
    QVERIFY2(form->errors().join('\n').contains("repeats must be 1"),
             qPrintable(form->errors().join('\n')));
    two.repeats = 1;
    form->setConfig(two);
    QVERIFY2(form->errors().isEmpty(), qPrintable(form->errors().join('\n')));
    const experiment::ExperimentConfig c = form->config();
    QVERIFY(c.release.subsampled);
    QCOMPARE(c.release.mode, experiment::ReleaseMode::kPrivate);
    QCOMPARE(c.release.selection, experiment::PrivateSelection::kPs);
    QCOMPARE(c.release.tuning_fraction, 0.25);
    QVERIFY(!c.release.secure);
    // Screenshot of the Release box with its settings (the form scrolled to it), 1280x720.
    window_->resize(1280, 720);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    for (auto* area : window_->findChildren<QScrollArea*>()) {
      if (area->isAncestorOf(release)) area->ensureWidgetVisible(release->parentWidget(), 0, 40);
    }
    test::saveShot(window_, QStringLiteral("subsampled-release-box"));
    window_->resize(1400, 900);
  }

  void runs_end_to_end_and_releases_only_the_final_run() {
    ExperimentForm* form = window_->form();
    ReleaseSection* release = form->releaseSection();
    release->selectMode(QStringLiteral("ps-subsampled"));
    release->tuningFractionField()->setValue(0.25);
    release->muField()->setValue(3);
    // A seed whose search draws K >= 2 runs (so that "only the final run" means something).
    experiment::ExperimentConfig run_config;
    std::int64_t k = 0, subset_size = 0;
    QSpinBox* seed = form->seedBox();
    for (int s = 1; s < 200; ++s) {
      seed->setValue(s);
      run_config = form->config();
      const auto probe = tuning::load_experiment_data(run_config);  // the split follows the seed
      const auto splits = tuning::split_for_subsampled_tuning(run_config, *probe);
      const auto tuning_config = tuning::tuning_phase_config(run_config, splits.full_training_size);
      k = static_cast<std::int64_t>(
          tuning::draw_private_plan(
              tuning_config, static_cast<int>(experiment::expand_candidates(tuning_config).size()),
              tuning_config.seed)
              .jobs.size());
      subset_size = splits.tuning->train.size();
      if (k >= 2 && k != 3) break;  // 3 = mu: a K of 3 could not be told from the mu shown
    }
    QVERIFY(k >= 2);
    QTRY_VERIFY_WITH_TIMEOUT(form->dataReady() && window_->runAction()->isEnabled(), 60000);
    QVERIFY2(form->errors().isEmpty(), qPrintable(form->errors().join('\n')));
    auto data = form->loadedData();
    QVERIFY(data);

    // The engine's own run of the same config (the CLI's code path): the reference.
    tuning::RunOptions options;
    options.threads = form->threads();
    const tuning::SubsampledRun engine = tuning::run_subsampled_search(run_config, data, options);
    QVERIFY(engine.has_final);
    QCOMPARE(engine.runs_trained, k);
    QCOMPARE(engine.subset_size, subset_size);

    QTRY_VERIFY_WITH_TIMEOUT(window_->runAction()->isEnabled(), 30000);
    QVERIFY(test::runToEnd(window_));
    const tuning::SearchResults& runs = window_->runData()->runs();
    QVERIFY(runs.config.release.subsampled);
    QCOMPARE(runs.jobs.size(), std::size_t{1});  // the final run only, never the K tuning runs
    QCOMPARE(runs.training_size, static_cast<std::int64_t>(data->train.size()));  // n
    // Same code path as the engine run above: bit for bit.
    QCOMPARE(runs.candidates[0].label(), engine.final_results.candidates[0].label());
    QCOMPARE(runs.jobs[0].final_val_accuracy, engine.final_results.jobs[0].final_val_accuracy);
    const auto& released = window_->runData()->privateRelease();
    QVERIFY(released.has_value());
    QCOMPARE(released->released, 1);

    ReleasedWinnerTab* tab = window_->releasedWinnerTab();
    QCOMPARE(window_->tabs()->currentWidget(), static_cast<QWidget*>(tab));
    QCOMPARE(tab->curveCount(), 1);
    QVERIFY2(tab->winnerText().contains(QString::number(runs.jobs[0].final_val_accuracy, 'f', 4)),
             qPrintable(tab->winnerText()));

    // The ε shown: the engine's two-phase cost, its label says both phases ...
    const tuning::ReleaseCost cost = tuning::private_release_cost(runs);
    QCOMPARE(tab->epsilonText(), QString::fromStdString(tuning::epsilon_label(cost)));
    QVERIFY2(tab->epsilonText().contains("both phases"), qPrintable(tab->epsilonText()));
    QVERIFY(tab->epsilonText().contains("only the final run's results released"));
    QVERIFY(cost.epsilon > cost.epsilon_per_run);  // it pays for the search too
    // ... and `dplab-cli account` for the same settings (the CLI's recompute command).
    const auto& m = runs.mechanism;
    const testing::CliRun account = testing::run_cli({"account",
                                                      "--noise-multiplier",
                                                      QString::number(m.noise_multiplier, 'g', 17),
                                                      "--sampling-rate",
                                                      QString::number(m.sampling_rate, 'g', 17),
                                                      "--steps",
                                                      QString::number(m.steps),
                                                      "--delta",
                                                      QString::number(cost.delta, 'g', 17),
                                                      "--selection",
                                                      "ps",
                                                      "--ps-distribution",
                                                      "poisson",
                                                      "--ps-mu",
                                                      "3",
                                                      "--tuning-fraction",
                                                      "0.25",
                                                      "--final-data",
                                                      "full",
                                                      "--subset-batching",
                                                      "same_sampling_rate"});
    QVERIFY2(account.exit_code == 0, qPrintable(account.err));
    const double cli_epsilon =
        QJsonDocument::fromJson(account.out.toUtf8()).object().value("epsilon").toDouble();
    QVERIFY(test::closeRel(cost.epsilon, cli_epsilon, 1e-12));
    QVERIFY2(tab->epsilonText().startsWith(
                 "eps <= " + QString::fromStdString(privacy::format_epsilon_up(cli_epsilon))),
             qPrintable(tab->epsilonText()));

    // Curator-only: K, |X1|, the tuning winner and its score on X1 appear nowhere.
    QString shown = visibleText(window_);
    for (const char* word : {"|X1|", "subset size", "subset_size", "runs drawn", "runs trained",
                             "tuning winner", "winner_score", "winner_label"}) {
      QVERIFY2(!shown.contains(QLatin1String(word)), word);
    }
    const QString tab_text =
        tab->winnerText() + "\n" + tab->detailsText() + "\n" + tab->epsilonText();
    QVERIFY2(!tab_text.contains(standalone(QString::number(k))), qPrintable(tab_text));
    QVERIFY2(!shown.contains(standalone(QString::number(subset_size))), qPrintable(shown));
    const QString winner_score = QString::number(engine.winner_score, 'f', 4);
    if (winner_score != QString::number(runs.jobs[0].final_val_accuracy, 'f', 4))
      QVERIFY2(!shown.contains(winner_score), qPrintable(shown));

    // Exports: the chart's CSV (with the ε label) and the report carry none of it either.
    const QString csv = dir_.filePath("released.csv");
    QString error;
    QVERIFY2(tab->chart()->exportCsv(csv, &error), qPrintable(error));
    const QString csv_text = readAll(csv);
    QVERIFY(csv_text.section('\n', 0, 0).endsWith(",epsilon_label"));
    QVERIFY(
        csv_text.contains(QString::fromStdString(csv::csv_field(tuning::epsilon_csv_label(cost)))));
    const QString report = dir_.filePath("report");
    QVERIFY2(test::exportReportAndWait(window_, report, &error), qPrintable(error));
    QStringList exported{csv_text};
    QDirIterator it(report, QDir::Files, QDirIterator::Subdirectories);
    int files = 0;
    while (it.hasNext()) {
      const QString path = it.next();
      ++files;
      if (!path.endsWith(".png") && !path.endsWith(".pdf")) exported << readAll(path);
    }
    QVERIFY(files > 0);
    const QString all = exported.join('\n');
    for (const char* word :
         {"subset_size", "runs_trained", "winner_label", "winner_score", "tuning_phase", "|X1|"})
      QVERIFY2(!all.contains(QLatin1String(word)), word);
    QVERIFY2(!all.contains(standalone(QString::number(subset_size))), "|X1| in an export");

    // Screenshots at 1280x720: the release view and the chart tab at the experiment's q.
    window_->resize(1280, 720);
    test::saveShot(window_, QStringLiteral("subsampled-release"), tab);
    auto* chart_tab = window_->findChild<SubsampledTuningView*>();
    QVERIFY(chart_tab);
    QTRY_VERIFY_WITH_TIMEOUT(!chart_tab->busy() && chart_tab->completedComputations() >= 1, 60000);
    QVERIFY(chart_tab->epsilonChart()->plot()->graph(4)->name().contains("your q = 0.25"));
    test::saveShot(window_, QStringLiteral("subsampled-chart"), chart_tab);
  }

 private:
  QTemporaryDir dir_;
  experiment::ExperimentConfig config_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestSubsampledReleaseGui)
#include "test_subsampled_release_gui.moc"
