// Release mode "private: linear scaling" (Panda et al. 2024, issue #47) from the GUI, in the real
// window, on the quick-demo preset:
//  - the Release box offers the mode with its two trial fractions; no secure noise with it yet;
//    the form refuses what the engine's check_release refuses (f1 >= f2), with its message;
//  - Run trains the three phases with the engine code of `dplab-cli tune`
//    (run_linear_scaling_search): only the final run is shown, at the learning rate the engine's
//    own run of the same config extrapolates, and the ε shown is the engine's release cost of
//    the whole procedure (its label names linear scaling and the trial budgets); the fit is
//    released with the winner (the report's release carries it).
#include <QComboBox>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "experiment/experiment_config.h"
#include "form/experiment_form.h"
#include "form/number_field.h"
#include "form/release_section.h"
#include "release/linear_scaling_release.h"
#include "release/search_release.h"
#include "run/run_data.h"
#include "shell/main_window.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "tuning/linear_scaling_search.h"
#include "tuning/release_cost.h"
#include "views/released_winner_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

class TestLinearScalingGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    experiment::ExperimentConfig config =
        experiment::load_experiment_file(testing::presets_dir() + "/quick-demo.json");
    config.privacy.steps = 100;  // three phases of a small grid: keep the test short
    window_ = test::openWindow(dir_, config);
    QVERIFY(window_->form()->dataReady());
  }
  void cleanupTestCase() { delete window_; }

  void release_box_offers_the_mode_with_engine_rules() {
    ExperimentForm* form = window_->form();
    ReleaseSection* release = form->releaseSection();
    const int index = release->modeCombo()->findData(QStringLiteral("linear-scaling"));
    QVERIFY(index >= 0);
    QVERIFY(release->modeCombo()->itemText(index).contains("linear scaling"));
    QVERIFY(!release->trialLowField()->isVisibleTo(release));  // explore: hidden
    release->selectMode(QStringLiteral("linear-scaling"));
    QVERIFY(release->trialLowField()->isVisibleTo(release));
    QVERIFY(!release->secureBox()->isEnabled() && !release->secureBox()->isChecked());
    release->trialLowField()->setValue(0.5);
    release->trialHighField()->setValue(0.2);
    QVERIFY2(form->errors().join('\n').contains("release.trial_fractions"),
             qPrintable(form->errors().join('\n')));
    release->trialLowField()->setValue(0.1);
    release->trialHighField()->setValue(0.3);
    QVERIFY2(form->errors().isEmpty(), qPrintable(form->errors().join('\n')));
    const experiment::ExperimentConfig c = form->config();
    QVERIFY(c.release.linear_scaling);
    QCOMPARE(c.release.selection, experiment::PrivateSelection::kMa);
    QCOMPARE(c.release.trial_fraction_low, 0.1);
    QCOMPARE(c.release.trial_fraction_high, 0.3);
    QVERIFY(!c.release.secure);
    // The config goes back into the box unchanged.
    form->setConfig(c);
    QVERIFY(release->linearScaling());
    QCOMPARE(form->config().release, c.release);
  }

  void runs_end_to_end_and_releases_only_the_final_run() {
    ExperimentForm* form = window_->form();
    ReleaseSection* release = form->releaseSection();
    release->selectMode(QStringLiteral("linear-scaling"));
    QTRY_VERIFY_WITH_TIMEOUT(form->dataReady() && window_->runAction()->isEnabled(), 60000);
    QVERIFY2(form->errors().isEmpty(), qPrintable(form->errors().join('\n')));
    const experiment::ExperimentConfig run_config = form->config();
    auto data = form->loadedData();
    QVERIFY(data);
    tuning::RunOptions options;
    options.threads = form->threads();
    const tuning::LinearScalingRun engine =
        tuning::run_linear_scaling_search(run_config, data, options);
    QVERIFY(engine.has_final);

    QVERIFY(test::runToEnd(window_));
    const tuning::SearchResults& runs = window_->runData()->runs();
    QVERIFY(runs.config.release.linear_scaling);
    QCOMPARE(runs.jobs.size(), std::size_t{1});  // the final run only, never the 2K trials
    QCOMPARE(runs.candidates[0].optimizer.learning_rate, engine.fit.final_learning_rate);
    QCOMPARE(runs.candidates[0].label(), engine.final_results.candidates[0].label());
    const auto& released = window_->runData()->privateRelease();
    QVERIFY(released.has_value());
    QCOMPARE(released->released, 1);
    ReleasedWinnerTab* tab = window_->releasedWinnerTab();
    const tuning::ReleaseCost cost = tuning::private_release_cost(runs);
    QCOMPARE(cost.num_candidates,
             static_cast<int>(experiment::expand_candidates(run_config).size()));
    QCOMPARE(tab->epsilonText(), QString::fromStdString(tuning::epsilon_label(cost)));
    QVERIFY2(tab->epsilonText().contains("linear scaling"), qPrintable(tab->epsilonText()));
    QVERIFY(cost.epsilon > cost.epsilon_per_run);  // the trials are charged
    // The fit is released with the winner: the report's release (search_release, as history
    // export writes it) carries the engine's fit.
    QVERIFY2(nlohmann::json::parse(released->released_facts) ==
                 release::linear_scaling_released_facts(engine.fit),
             released->released_facts.c_str());
    const release::Release report = release::search_release(runs, released, false);
    QCOMPARE(report.released["linear_scaling_fit"], release::linear_scaling_fit_json(engine.fit));
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestLinearScalingGui)
#include "test_linear_scaling_gui.moc"
