// The one verdict rule of `dplab-cli reproduce` (reproduction/verdict.h) and the KK23 item's
// analysis (reproduction/kk23_comparison.h): the three words by how many halves hold, every
// margin in the text, the failing half named; the followups item's two rules (followup_rules.h)
// on made-up best candidates (beats / mirror / tie without disjoint bands or with one repeat; the
// 1-point rule of the C grid at and past its edge, with the margin printed); PS's accuracy
// interpolated linearly in log eps and NaN outside its range; the KK23 rule's three halves on
// hand-made procedures (each half made to fail on its own); the preset is private-subsampled and
// the sweep scales as stated.
#include <QTest>

#include <cmath>
#include <string>

#include "core/error.h"
#include "experiment/experiment_config.h"
#include "reproduction/followup_rules.h"
#include "reproduction/kk23_comparison.h"
#include "reproduction/verdict.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::reproduction;

namespace {

Kk23Procedure procedure(bool kk23, double sigma, double eps, double accuracy, double compute) {
  Kk23Procedure p;
  p.kk23 = kk23;
  p.sigma = sigma;
  p.seed = 1;
  p.released = true;
  p.accuracy = accuracy;
  p.epsilon = eps;
  p.delta = 1e-5;
  p.compute = compute;
  return p;
}

BestCandidate best(const std::string& name, double mean, double half_band, int repeats = 3) {
  BestCandidate c;
  c.optimizer = name;
  c.label = "lr=0.001 C=1";
  c.mean = mean;
  c.ci_low = repeats > 1 ? mean - half_band : std::nan("");
  c.ci_high = repeats > 1 ? mean + half_band : std::nan("");
  c.repeats = repeats;
  return c;
}

Kk23Sweep preset_sweep(Scale scale) {
  return kk23_sweep(
      experiment::load_experiment_file(testing::presets_dir() + "/paper-kk23-adult.json"), scale);
}

}  // namespace

class TestReproductionVerdict : public QObject {
  Q_OBJECT

 private slots:
  void threeWordsByTheHalvesThatHold() {
    const ClaimHalf a{"A", "gap 0.4 points (rule: <= 1)", true};
    const ClaimHalf b{"B", "ADADP 0.2 above DPAdam (rule: below)", false};
    QCOMPARE(verdict_word({a, a}), VerdictWord::kReproduced);
    QCOMPARE(verdict_word({a, b}), VerdictWord::kPartly);
    QCOMPARE(verdict_word({b, b}), VerdictWord::kNot);
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, verdict_word({}));
    const std::string partly = verdict_text({a, b}, "quick scale");
    QCOMPARE(partly, std::string("partly, fails: B (ADADP 0.2 above DPAdam (rule: below)); holds: "
                                 "A (gap 0.4 points (rule: <= 1)) [quick scale]"));
    QVERIFY(verdict_text({a}).rfind("reproduced: A (gap 0.4", 0) == 0);
    QVERIFY(verdict_text({b}).rfind("not: fails B (", 0) == 0);
  }

  void psAccuracyIsInterpolatedInLogEpsilonInsideItsRange() {
    std::vector<Kk23Point> ps(2);
    ps[0].epsilon = 1.0;
    ps[0].mean_accuracy = 0.80;
    ps[1].epsilon = 4.0;
    ps[1].mean_accuracy = 0.84;
    // eps = 2 is half-way in log: 0.82 (linear in eps would give 0.8133).
    QVERIFY(std::abs(ps_accuracy_at(ps, 2.0) - 0.82) < 1e-12);
    QVERIFY(std::abs(ps_accuracy_at(ps, 4.0) - 0.84) < 1e-12);
    QVERIFY(std::isnan(ps_accuracy_at(ps, 0.99)));
    QVERIFY(std::isnan(ps_accuracy_at(ps, 4.01)));
  }

  void kk23RuleHasThreeHalves() {
    // PS: eps 1 -> 0.80, eps 4 -> 0.84, 10 full-data runs; KK23 at eps 2 and 3.
    auto run = [](double kk_at_2, double kk_at_3, double kk_compute) {
      std::vector<Kk23Procedure> v = {procedure(false, 4, 1.0, 0.80, 10),
                                      procedure(false, 1, 4.0, 0.84, 10),
                                      procedure(true, 2, 2.0, kk_at_2, kk_compute),
                                      procedure(true, 1.5, 3.0, kk_at_3, kk_compute),
                                      procedure(true, 0.5, 9.0, 0.5, kk_compute)};  // unmatched
      return analyse_kk23(v, preset_sweep(Scale::kPaper), Scale::kPaper, 1.0, 1.0).rows.at(0);
    };
    // Above PS at both matched points, 1/5 of the compute: reproduced.
    QVERIFY(run(0.83, 0.84, 2).verdict.rfind("reproduced", 0) == 0);
    // Below by 0.3 points at both: within 1 point, not better: partly, half 2 named.
    const auto below = run(0.817, 0.8287, 2);
    QVERIFY2(below.verdict.rfind("partly, fails: KK23 > PS at half", 0) == 0,
             below.verdict.c_str());
    QVERIFY2(below.verdict.find("KK23 above at 0 of 2") != std::string::npos,
             below.verdict.c_str());
    // 2 points below at one: half 1 fails with its margin printed.
    const auto far = run(0.80, 0.84, 2);
    QVERIFY2(far.verdict.find("worst KK23 - PS = -2.00 points") != std::string::npos,
             far.verdict.c_str());
    // Compute 4 of 10: half 3 fails alone.
    const auto costly = run(0.83, 0.84, 4);
    QVERIFY2(costly.verdict.rfind("partly, fails: KK23's compute", 0) == 0, costly.verdict.c_str());
    // Every half fails: not.
    QVERIFY(run(0.70, 0.70, 9).verdict.rfind("not: ", 0) == 0);
  }

  void followupsBeatsNeedsAGapAndDisjointBands() {
    const auto wosm = best("dpadamwosm", 0.840, 0.002), bc = best("dpadam-bc", 0.830, 0.003);
    QCOMPARE(beats_answer(wosm, bc), std::string("dpadamwosm beats dpadam-bc"));
    QCOMPARE(verdict_word(beats_halves(wosm, bc)), VerdictWord::kReproduced);
    QVERIFY(beats_halves(wosm, bc)[0].margin.find("1.00 points") != std::string::npos);
    // The mirror: DP-AdamBC ahead by 1 point, bands disjoint.
    QCOMPARE(beats_answer(bc, wosm), std::string("dpadamwosm beats dpadam-bc"));
    QCOMPARE(verdict_word(beats_halves(bc, wosm)), VerdictWord::kNot);
    // Ahead on the mean but the bands overlap: a tie, and the verdict is "partly".
    const auto close = best("dpadam-bc", 0.838, 0.003);
    QCOMPARE(beats_answer(wosm, close), std::string("tie"));
    QCOMPARE(verdict_word(beats_halves(wosm, close)), VerdictWord::kPartly);
    // One repeat: no band, never a win.
    const auto single_a = best("dpadamwosm", 0.9, 0, 1), single_b = best("dpadam-bc", 0.5, 0, 1);
    QCOMPARE(beats_answer(single_a, single_b), std::string("tie"));
    QVERIFY(beats_halves(single_a, single_b)[1].margin.find("no band") != std::string::npos);
    QVERIFY(band_text(single_a).find("no band") != std::string::npos);
    QCOMPARE(band_text(wosm), std::string("0.840 [0.838, 0.842]"));
  }

  void followupsGridIsUnnecessaryWithinOnePoint() {
    const auto grid = best("dpsgd", 0.845, 0.001);
    const auto within = best("dpsgd (auto-clip)", 0.8355, 0.001);  // 0.95 points below
    QVERIFY(grid_unnecessary_halves(within, grid)[0].holds);
    QVERIFY(grid_unnecessary_answer(within, grid).rfind("yes", 0) == 0);
    QVERIFY(grid_unnecessary_halves(within, grid)[0].margin.find("-0.95 points") !=
            std::string::npos);
    const auto above = best("dpsgd (auto-clip)", 0.850, 0.001);
    QVERIFY(grid_unnecessary_halves(above, grid)[0].holds);
    const auto below = best("dpsgd (auto-clip)", 0.8345, 0.001);  // 1.05 points below
    QVERIFY(!grid_unnecessary_halves(below, grid)[0].holds);
    QCOMPARE(grid_unnecessary_answer(below, grid), std::string("no: the C grid gains 1.05 points"));
    QCOMPARE(verdict_word(grid_unnecessary_halves(below, grid)), VerdictWord::kNot);
    auto missing = below;
    missing.mean = std::nan("");
    QVERIFY(!grid_unnecessary_halves(missing, grid)[0].holds);
  }

  void sweepScalesAsStated() {
    const Kk23Sweep paper = preset_sweep(Scale::kPaper);
    QVERIFY(paper.kk23.release.subsampled);
    QVERIFY(!paper.ps.release.subsampled);
    QCOMPARE(paper.ps.release.mode, experiment::ReleaseMode::kPrivate);
    QCOMPARE(paper.kk23.privacy.steps, std::int64_t{1000});
    QCOMPARE(paper.seeds.size(), std::size_t{3});
    const Kk23Sweep quick = preset_sweep(Scale::kQuick);
    QCOMPARE(quick.kk23.privacy.steps, std::int64_t{100});
    QCOMPARE(quick.seeds.size(), std::size_t{1});
    QCOMPARE(quick.kk23_sigmas.size(), kKk23Sigmas.size());
    QCOMPARE(preset_sweep(Scale::kTiny).ps_sigmas.size(), std::size_t{2});
    const auto c = kk23_procedure_config(paper, false, 1.5, 2);
    QCOMPARE(c.privacy.noise_multiplier, 1.5);
    QCOMPARE(c.seed, std::uint64_t{2});
  }
};

DPLAB_TEST_APPLESS_MAIN(TestReproductionVerdict)
#include "test_reproduction_verdict.moc"
