// The "accountants disagree" view: the series are computed off the GUI thread, and what is drawn
// equals the engine's RDP and PLD epsilons (accountant_comparison.h), PLD below RDP, gap shaded.
#include <qcustomplot.h>
#include <QDoubleSpinBox>
#include <QtTest>

#include "charts/chart_view.h"
#include "privacy/accounting/accountant_comparison.h"
#include "support/test_registry.h"
#include "ui_test_support.h"
#include "views/accountant_gap_view.h"

using namespace dplab;
using namespace dplab::ui;

class TestAccountantGapView : public QObject {
  Q_OBJECT
 private slots:
  void drawsEngineNumbersOffTheGuiThread() {
    AccountantGapView view;
    view.resize(1400, 900);
    view.show();
    const double sigma = 1.5, q = 0.01, delta = 1e-5;
    const int steps = 2000, kmax = 12;
    view.setSettings(sigma, q, steps, delta, kmax);
    view.recompute();
    // recompute() returned while the worker runs: the GUI thread did not wait for the PLD.
    QVERIFY(view.busy());
    QTRY_VERIFY_WITH_TIMEOUT(view.completedComputations() >= 1, 60000);

    const privacy::SubsampledGaussian run{sigma, q, steps};
    const auto vs_t = privacy::accountant_gap_vs_steps(run, delta, 1, steps, 10);
    const auto vs_k = privacy::accountant_gap_vs_candidates(run, delta, kmax, 10);
    for (const auto& [chart, expected] :
         {std::pair{view.stepsChart(), vs_t}, std::pair{view.candidatesChart(), vs_k}}) {
      QCustomPlot* plot = chart->plot();
      QCOMPARE(plot->graphCount(), 2);
      QCPGraph* pld = plot->graph(0);
      QCPGraph* rdp = plot->graph(1);
      QVERIFY(pld->name().contains("pld"));
      QVERIFY(rdp->name().contains("rdp"));
      QCOMPARE(rdp->channelFillGraph(), pld);  // the gap is shaded
      QCOMPARE(pld->dataCount(), static_cast<int>(expected.size()));
      for (int i = 0; i < pld->dataCount(); ++i) {
        const auto& e = expected[static_cast<std::size_t>(i)];
        QCOMPARE(pld->data()->at(i)->key, static_cast<double>(e.x));
        QVERIFY(test::closeRel(pld->data()->at(i)->value, e.epsilon_pld, 1e-12));
        QVERIFY(test::closeRel(rdp->data()->at(i)->value, e.epsilon_rdp, 1e-12));
        QVERIFY(pld->data()->at(i)->value <= rdp->data()->at(i)->value);
      }
    }
    QVERIFY(view.headline().contains("accountant: pld"));
    QVERIFY(view.headline().contains("estimated error ≈"));  // a Richardson estimate, not a bound
    QVERIFY(!view.headline().contains("error ≤"));
    QVERIFY(view.headline().contains("accountant: rdp"));

    // A change while computing is not lost: the latest settings win.
    view.setSettings(2.0, q, steps, delta, kmax);
    view.recompute();
    view.setSettings(3.0, q, steps, delta, kmax);
    view.recompute();
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy() && view.completedComputations() >= 2, 60000);
    QTest::qWait(300);  // let a debounced recompute start, if any
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy(), 60000);
    const auto latest = privacy::accountant_gap_vs_steps({3.0, q, steps}, delta, 1, steps, 10);
    QVERIFY(
        test::closeRel(view.stepsPoints().back().epsilon_pld, latest.back().epsilon_pld, 1e-12));
  }
};

DPLAB_TEST_MAIN(TestAccountantGapView)
#include "test_accountant_gap_view.moc"
