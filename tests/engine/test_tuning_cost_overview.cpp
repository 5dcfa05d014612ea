// tuning_cost_overview (privacy/selection/tuning_cost_overview.h) gives the GUI's "Privacy of
// tuning" view every number it draws, so the view can compute off the GUI thread. Each field must
// be what the series functions give for the same setting — Figure 6 (MA vs LT at γ = 1/K or a fixed
// γ), its crossover, the tight-vs-paper table, Figure 1 over the paper's sizes plus n — and the
// paper's Figure 6 crossovers must order as in appendix F (more candidates fit at n = 60k than at
// 5k).
#include <QTest>

#include <algorithm>

#include "core/error.h"
#include "privacy/accounting/default_delta.h"
#include "privacy/selection/tuning_cost_overview.h"
#include "support/test_registry.h"

using namespace dplab::privacy;

namespace {
TuningCostQuery paper_query(std::int64_t n) {
  TuningCostQuery q;
  q.noise_multiplier = 4.0;
  q.lot_size = 250;
  q.steps = 10000;
  q.dataset_size = n;
  q.delta = default_delta(n);
  q.max_candidates = 40;
  return q;
}
}  // namespace

class TestTuningCostOverview : public QObject {
  Q_OBJECT
 private slots:
  void figure6AndTableAreTheSeriesFunctions() {
    const TuningCostQuery q = paper_query(60000);
    const TuningCostOverview o = tuning_cost_overview(q);
    const SubsampledGaussian run{4.0, 250.0 / 60000.0, 10000};
    QCOMPARE(o.sampling_rate, 250.0 / 60000.0);
    const auto expected = epsilon_vs_candidates(run, q.delta, 1, 40);
    QCOMPARE(o.figure6.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      QCOMPARE(o.figure6[i].candidates, expected[i].candidates);
      QCOMPARE(o.figure6[i].epsilon_ma, expected[i].epsilon_ma);
      QCOMPARE(o.figure6[i].epsilon_lt, expected[i].epsilon_lt);
    }
    QCOMPARE(o.crossover, ma_lt_crossover(expected));
    QCOMPARE(o.ma_candidates_at_lt_cost, ma_candidates_at_lt_cost(run, q.delta));
    QCOMPARE(o.epsilon_single_run, epsilon_for_delta(run, q.delta).epsilon);
    QVERIFY(o.figure6_paper.empty());  // only on request
    const AccountingOptions paper = paper_compatible_options();
    QCOMPARE(o.comparison[kEpsilonOneRun][1], epsilon_for_delta(run, q.delta, paper).epsilon);
    QCOMPARE(o.comparison[kEpsilonLtGammaOfKmax][0],
             liu_talwar_selection(run, 1.0 / 40, q.delta).epsilon);
    QCOMPARE(o.comparison[kEpsilonLtGammaOne][1],
             liu_talwar_selection(run, 1.0, q.delta, kDefaultDelta2, LogBase::kTwo, paper).epsilon);
    QCOMPARE(o.comparison[kEpsilonMaKmax][0],
             moments_accountant_selection(run, 40, q.delta).epsilon);
    QCOMPARE(o.comparison[kMaCandidatesAtLtCost][0],
             static_cast<double>(o.ma_candidates_at_lt_cost));
  }

  void paperAccountantOnRequest() {
    TuningCostQuery q = paper_query(5000);
    q.paper_accountant = true;
    const TuningCostOverview o = tuning_cost_overview(q);
    const SubsampledGaussian run{4.0, 250.0 / 5000.0, 10000};
    const auto expected = epsilon_vs_candidates(run, q.delta, 1, 40, kDefaultDelta2, LogBase::kTwo,
                                                paper_compatible_options());
    QCOMPARE(o.figure6_paper.size(), expected.size());
    QCOMPARE(o.figure6_paper.back().epsilon_lt, expected.back().epsilon_lt);
    QCOMPARE(o.figure6_paper.front().epsilon_ma, expected.front().epsilon_ma);
  }

  void fixedGammaFlattensLt() {
    TuningCostQuery q = paper_query(60000);
    q.fixed_gamma = 0.05;
    const TuningCostOverview o = tuning_cost_overview(q);
    const SubsampledGaussian run{4.0, 250.0 / 60000.0, 10000};
    const double lt = liu_talwar_selection(run, 0.05, q.delta).epsilon;
    for (const auto& p : o.figure6) QCOMPARE(p.epsilon_lt, lt);
    QCOMPARE(o.crossover, ma_lt_crossover(o.figure6));
    QCOMPARE(o.comparison[kEpsilonLtGammaOfKmax][0], lt);
  }

  void figure1AddsNAndDropsSizesBelowTheLot() {
    TuningCostQuery q = paper_query(123457);
    q.lot_size = 10000;
    const TuningCostOverview o = tuning_cost_overview(q);
    QVERIFY(std::is_sorted(o.figure1_sizes.begin(), o.figure1_sizes.end()));
    QVERIFY(std::count(o.figure1_sizes.begin(), o.figure1_sizes.end(), 123457) == 1);
    for (std::int64_t s : o.figure1_sizes) QVERIFY(s >= 10000);
    QVERIFY(o.figure1_sizes.size() < default_figure1_dataset_sizes().size() + 1);
    TuningCostSetting setting;
    setting.noise_multiplier = 4.0;
    setting.lot_size = 10000;
    setting.steps = 10000;
    const auto blowup = lt_blowup_series(setting, o.figure1_sizes);
    QCOMPARE(o.figure1_blowup.size(), blowup.size());
    QCOMPARE(o.figure1_blowup.back().blowup, blowup.back().blowup);
    QCOMPARE(o.figure1_gamma.size(), 4 * o.figure1_sizes.size());
    QCOMPARE(o.figure1_ma.size(), o.figure1_sizes.size());
  }

  void lotLargerThanNCapsQAtOne() {
    TuningCostQuery q = paper_query(5000);
    q.lot_size = 8000;
    QCOMPARE(tuning_cost_overview(q).sampling_rate, 1.0);
  }

  void moreCandidatesFitAtLargerN() {
    // Appendix F: MA composes more candidates within LT's cost as n grows (paper: 14 at 5k,
    // 26 at 60k with its accountant).
    const int k5 = tuning_cost_overview(paper_query(5000)).crossover;
    const int k60 = tuning_cost_overview(paper_query(60000)).crossover;
    qInfo("Figure 6 crossover (tight accountant): n = 5k -> K = %d, n = 60k -> K = %d", k5, k60);
    QVERIFY(k5 > 0);
    QVERIFY(k60 > k5);
  }

  void badSettingIsAnError() {
    TuningCostQuery q = paper_query(60000);
    q.noise_multiplier = -1;
    bool threw = false;
    try {
      tuning_cost_overview(q);
    } catch (const dplab::Error&) {
      threw = true;
    }
    QVERIFY(threw);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestTuningCostOverview)
#include "test_tuning_cost_overview.moc"
