// Issue #12: T counts noisy-gradient queries; ADADP makes 2 per update. The accuracy tab's
// "x: T in optimizer steps (updates)" option redraws every curve against its optimizer's update
// count (engine optim::updates_for_queries): on the real window, after a real run of DPSGD and
// ADADP at T = 100 queries, both curves end at x = 100 in queries; in updates DPSGD's still ends
// at 100 and ADADP's at 50.
#include <qcustomplot.h>
#include <QComboBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/chart_view.h"
#include "form/experiment_form.h"
#include "run/run_controller.h"
#include "shell/main_window.h"
#include "support/test_registry.h"
#include "views/accuracy_tab.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

// The largest x of the graph named `name` (NaN if there is no such graph).
double lastKey(QCustomPlot* plot, const QString& name) {
  for (int i = 0; i < plot->graphCount(); ++i) {
    QCPGraph* g = plot->graph(i);
    if (g->name() != name || g->data()->isEmpty()) continue;
    return (g->data()->constEnd() - 1)->key;
  }
  return std::nan("");
}

}  // namespace

class TestAccuracyUpdateAxis : public QObject {
  Q_OBJECT
 private slots:
  void adadpCurveEndsAtHalfTInUpdates() {
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir dir;
    MainWindow window;
    window.runController()->setHistoryPath(dir.filePath(QStringLiteral("h.sqlite")));
    window.resize(1400, 900);
    window.show();
    window.form()->setConfig(experiment::parse_experiment_text(R"({
      "name": "updates axis", "seed": 3, "repeats": 1, "eval_every": 10,
      "dataset": {"source": "synthetic-binary"}, "model": {"kind": "logistic"},
      "privacy": {"noise_multiplier": 2.0, "lot_size": 100, "steps": 100},
      "optimizers": [
        {"name": "dpsgd", "grid": {"learning_rate": 0.1, "clip": 1.0}},
        {"name": "adadp", "grid": {"learning_rate": 0.001, "clip": 1.0}}],
      "tuning": {"strategy": "grid"}})",
                                                               "updates axis"));
    QTRY_VERIFY_WITH_TIMEOUT(window.form()->dataReady() && window.runAction()->isEnabled(), 30000);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runAction()->trigger();
    QVERIFY(finished.wait(120000));
    QVERIFY(finished.first().at(0).toBool());
    QCoreApplication::processEvents();

    AccuracyTab* tab = window.accuracyTab();
    QCustomPlot* plot = tab->curvesChart()->plot();
    QComboBox* unit = tab->xUnitBox();
    QCOMPARE(unit->currentIndex(), 0);
    QCOMPARE(lastKey(plot, QStringLiteral("DPSGD max")), 100.0);
    QCOMPARE(lastKey(plot, QStringLiteral("ADADP max")), 100.0);
    QVERIFY(plot->xAxis->label().contains(QStringLiteral("queries")));

    unit->setCurrentIndex(1);
    QCOMPARE(lastKey(plot, QStringLiteral("DPSGD max")), 100.0);
    QCOMPARE(lastKey(plot, QStringLiteral("ADADP max")), 50.0);
    QVERIFY(plot->xAxis->label().contains(QStringLiteral("updates")));
  }
};

DPLAB_TEST_MAIN(TestAccuracyUpdateAxis)
#include "test_accuracy_update_axis.moc"
