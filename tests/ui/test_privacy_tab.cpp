// The privacy-of-tuning tab: moving the σ slider redraws Figure 6 with the engine's numbers, and
// the crossover it reports equals the engine's functions.
#include <qcustomplot.h>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QSpinBox>
#include <QtTest>

#include "charts/chart_view.h"
#include "privacy/accounting/default_delta.h"
#include "privacy/selection/private_selection.h"
#include "privacy/selection/tuning_cost_series.h"
#include "support/test_registry.h"
#include "ui_test_support.h"
#include "views/privacy_tab.h"

using namespace dplab;
using namespace dplab::ui;

class TestPrivacyTab : public QObject {
  Q_OBJECT
 private slots:
  void sliderRedrawsWithEngineNumbers_data() {
    QTest::addColumn<int>("slider");  // σ × 10
    QTest::addColumn<int>("n");
    QTest::newRow("paper n=5k sigma 4") << 40 << 5000;
    QTest::newRow("paper n=60k sigma 4") << 40 << 60000;
    QTest::newRow("sigma 2 n=60k") << 20 << 60000;
    QTest::newRow("sigma 8 n=20k") << 80 << 20000;
  }
  void sliderRedrawsWithEngineNumbers() {
    QFETCH(int, slider);
    QFETCH(int, n);
    PrivacyTab tab;
    tab.resize(1200, 800);
    tab.datasetSizeSpin()->setValue(n);
    tab.sigmaSpin()->setValue(1.0);  // start elsewhere so that the slider move is a change
    QCoreApplication::processEvents();
    const int before = tab.redrawCount();
    tab.sigmaSlider()->setValue(slider);
    // Computed off the GUI thread (latest value wins), then drawn.
    QTRY_VERIFY(tab.upToDate() && tab.redrawCount() > before);
    QCOMPARE(tab.sigma(), slider / 10.0);

    const double q = tab.lotSize() / static_cast<double>(n);
    const privacy::SubsampledGaussian run{slider / 10.0, q, tab.steps()};
    const double delta = privacy::default_delta(n);
    QCOMPARE(tab.delta(), delta);
    const auto expected = privacy::epsilon_vs_candidates(run, delta, 1, tab.maxCandidates());

    QCustomPlot* plot = tab.figure6Chart()->plot();
    QVERIFY(plot->graphCount() >= 2);
    QCPGraph* lt = plot->graph(0);
    QCPGraph* ma = plot->graph(1);
    QCOMPARE(lt->dataCount(), static_cast<int>(expected.size()));
    QCOMPARE(ma->dataCount(), static_cast<int>(expected.size()));
    for (int i = 0; i < lt->dataCount(); ++i) {
      QCOMPARE(lt->data()->at(i)->key,
               static_cast<double>(expected[static_cast<std::size_t>(i)].candidates));
      QVERIFY(test::closeRel(lt->data()->at(i)->value,
                             expected[static_cast<std::size_t>(i)].epsilon_lt, 1e-12));
      QVERIFY(test::closeRel(ma->data()->at(i)->value,
                             expected[static_cast<std::size_t>(i)].epsilon_ma, 1e-12));
    }
    QCOMPARE(tab.crossoverK(), privacy::ma_lt_crossover(expected));
    QCOMPARE(tab.maCandidatesAtLtCost(), privacy::ma_candidates_at_lt_cost(run, delta));
  }

  void paperCrossoversAreShown() {
    // Paper appendix F: MA composes up to 14 (n = 5k) and 26 (n = 60k) candidates at LT's cost.
    PrivacyTab tab;
    tab.setSettings(4.0, 250, 10000, 5000, 0.0);
    tab.redrawNow();
    const int k5 = tab.crossoverK();
    tab.setSettings(4.0, 250, 10000, 60000, 0.0);
    tab.redrawNow();
    const int k60 = tab.crossoverK();
    qInfo("Figure 6 crossover: n = 5k -> K = %d, n = 60k -> K = %d (paper: 14, 26)", k5, k60);
    QVERIFY(k5 > 0);
    QVERIFY(k60 > k5);
  }
};

DPLAB_TEST_MAIN(TestPrivacyTab)
#include "test_privacy_tab.moc"
