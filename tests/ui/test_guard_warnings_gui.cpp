// The training guards' warnings in the GUI (issue #45: what Opacus users lose days to is a run
// that silently learns nothing). A search whose learning rates are far below float resolution
// (every run's parameters never move) says so in the message log when it ends, by the rule of
// `dplab-cli tune` (tuning/search_warnings.h): explore names each job; a private search, the
// phased private-subsampled mode included, shows one line without a count (K is curator-only).
#include <QtTest>

#include "support/test_registry.h"
#include "tuning/private_search.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

experiment::ExperimentConfig frozenSearch() {
  // dpsgd over 3 learning rates, all far below float resolution: no parameter ever moves.
  return experiment::parse_experiment_text(R"({
    "name": "frozen", "seed": 5, "repeats": 1, "eval_every": 10,
    "dataset": {"source": "synthetic-binary", "num_samples": 600, "dim": 5},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1, "lot_size": 60, "steps": 30},
    "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [1e-25, 2e-25, 3e-25], "clip": [1]}}],
    "tuning": {"strategy": "grid"}
  })",
                                           "frozen");
}

}  // namespace

class TestGuardWarningsGui : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;

  // Runs `config` to the end and returns the messages that carry a warning.
  QStringList warningsOf(const experiment::ExperimentConfig& config) {
    QSignalSpy messages(window_->runController(), &RunController::message);
    if (!test::runConfigToEnd(window_, config)) {
      qWarning("the run did not finish");
      return {};
    }
    QStringList out;
    for (const auto& m : messages) {
      const QString text = m.at(0).toString();
      if (text.contains(QLatin1String("warning"))) out << text;
    }
    return out;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, frozenSearch());
    window_->form()->setThreads(2);
  }
  void cleanupTestCase() { delete window_; }

  void exploreNamesEachFrozenJob() {
    const QStringList warnings = warningsOf(frozenSearch());
    QCOMPARE(warnings.size(), 3);
    for (int c = 0; c < 3; ++c) {
      QVERIFY2(
          warnings.filter(QStringLiteral("warning: candidate %1, repeat 0:").arg(c)).size() == 1,
          qPrintable(warnings.join('\n')));
    }
    QVERIFY2(warnings.first().contains(QLatin1String("no parameter moved")),
             qPrintable(warnings.first()));
  }

  void privateSearchSaysOnceWithoutACount() {
    experiment::ExperimentConfig config = frozenSearch();
    config.release.mode = experiment::ReleaseMode::kPrivate;
    config.release.selection = experiment::PrivateSelection::kPs;
    config.release.ps_mu = 6;
    config.release.secure = false;
    std::int64_t k = 0;
    for (config.seed = 1;; ++config.seed) {  // a draw of several runs, every one of them frozen
      k = static_cast<std::int64_t>(tuning::draw_private_plan(config, 3, config.seed).jobs.size());
      if (k >= 4) break;
    }
    const QStringList warnings = warningsOf(config);
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.first().contains(QLatin1String("curator only")) &&
                 warnings.first().contains(QLatin1String("at least one run of the search warned")),
             qPrintable(warnings.first()));
    QVERIFY2(!warnings.first().contains(QString::number(k)), qPrintable(warnings.first()));
  }

  void subsampledModeWarnsForItsHiddenPhase() {
    experiment::ExperimentConfig config = frozenSearch();
    config.release.mode = experiment::ReleaseMode::kPrivate;
    config.release.selection = experiment::PrivateSelection::kPs;
    config.release.subsampled = true;
    config.release.ps_mu = 4;
    config.release.secure = false;
    const QStringList warnings = warningsOf(config);
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.first().contains(QLatin1String("at least one run of the search warned")),
             qPrintable(warnings.first()));
  }
};

DPLAB_TEST_MAIN(TestGuardWarningsGui)
#include "test_guard_warnings_gui.moc"
