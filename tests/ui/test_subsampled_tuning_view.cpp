// The "Tuning on a subsample" view: the series is computed off the GUI thread, what is drawn
// equals the engine's epsilon_vs_tuning_fraction (KK23 both variants, PS and LT on the full
// data, compute), the user's q is marked and moves without a recomputation, and the CSV export
// holds the drawn numbers with the epsilon label.
#include <qcustomplot.h>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/chart_view.h"
#include "privacy/selection/tuning_cost_series.h"
#include "support/test_registry.h"
#include "ui_test_support.h"
#include "views/subsampled_tuning_view.h"

using namespace dplab;
using namespace dplab::ui;

class TestSubsampledTuningView : public QObject {
  Q_OBJECT
 private slots:
  void drawsEngineSeriesAndMarksQ() {
    SubsampledTuningView view;
    // Until the experiment fills them, the fields say they hold an example.
    QVERIFY(view.sourceText().contains(QStringLiteral("Example settings")));
    view.resize(1280, 720);
    view.show();
    const double sigma = 1.2, rate = 0.004, delta = 1e-5, mu = 8.0;
    const int steps = 1500;
    view.setSettings(sigma, rate, steps, delta, mu, 0.2);
    QVERIFY(view.sourceText().contains(QStringLiteral("Your experiment's settings")));
    view.recompute();
    QVERIFY(view.busy());  // returned while the worker runs
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy() && view.completedComputations() >= 1, 60000);

    privacy::CandidateCountLaw law;
    law.mu = mu;
    const auto expected = privacy::epsilon_vs_tuning_fraction(
        {sigma, rate, steps}, law, privacy::SubsetBatching::kSameSamplingRate, delta);
    QCustomPlot* plot = view.epsilonChart()->plot();
    QCOMPARE(plot->graphCount(), 5);  // 4 curves + the q marker
    QVERIFY(plot->graph(0)->name().contains("KK23"));
    QVERIFY(plot->graph(4)->name().contains("your q = 0.2"));
    QCOMPARE(plot->graph(0)->dataCount(), static_cast<int>(expected.size()));
    for (int i = 0; i < plot->graph(0)->dataCount(); ++i) {
      const auto& e = expected[static_cast<std::size_t>(i)];
      QCOMPARE(plot->graph(0)->data()->at(i)->key, e.tuning_fraction);
      QVERIFY(test::closeRel(plot->graph(0)->data()->at(i)->value, e.epsilon_kk23, 1e-12));
      QVERIFY(
          test::closeRel(plot->graph(1)->data()->at(i)->value, e.epsilon_kk23_complement, 1e-12));
      QVERIFY(test::closeRel(plot->graph(2)->data()->at(i)->value, e.epsilon_ps_full, 1e-12));
      QVERIFY(test::closeRel(plot->graph(3)->data()->at(i)->value, e.epsilon_lt_full, 1e-12));
    }
    QCOMPARE(plot->graph(4)->data()->at(0)->key, 0.2);
    QCPGraph* compute = view.computeChart()->plot()->graph(0);
    QVERIFY(test::closeRel(compute->data()->at(0)->value, expected.front().compute_kk23, 1e-12));
    QVERIFY(view.headline().contains("both phases"));

    // Moving q redraws the marker only: no new computation.
    const int computations = view.completedComputations();
    view.setSettings(sigma, rate, steps, delta, mu, 0.5);
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy(), 60000);
    QTest::qWait(300);  // the debounced recompute of setSettings, if any
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy(), 60000);
    QVERIFY(view.completedComputations() >= computations);
    QCOMPARE(view.epsilonChart()->plot()->graph(4)->data()->at(0)->key, 0.5);

    // CSV export: the label, the header and one row per q.
    QTemporaryDir dir;
    const QString path = dir.path() + "/kk23.csv";
    QString error;
    QVERIFY2(view.epsilonChart()->exportCsv(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split('\n');
    QVERIFY(lines[0].startsWith("tuning_fraction,eps_kk23") && lines[0].endsWith(",epsilon_label"));
    QVERIFY(lines[1].contains("eps of the whole procedure"));
    QCOMPARE(lines.size(), 1 + static_cast<int>(expected.size()));
    // The PNG export renders (looked at by the report's author at 1280x720).
    QVERIFY2(view.epsilonChart()->exportImage(dir.path() + "/kk23.png", {}, &error),
             qPrintable(error));
  }
};

DPLAB_TEST_MAIN(TestSubsampledTuningView)
#include "test_subsampled_tuning_view.moc"
