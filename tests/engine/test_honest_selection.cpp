// Honest selection: the MA / LT PLANNING figures of a pool (MA = K-fold RDP composition computed
// directly with the accountant; LT = liu_talwar_selection) — what selecting over K candidates
// WOULD cost; the cost of a search as run is release_cost (test_release_modes.cpp); the LT
// algorithm respects Upsilon and is seeded; the section 5.2 protocol's end points; best candidate
// by mean accuracy over repeats.
#include <QTest>

#include <cmath>

#include "privacy/accounting/rdp_accountant.h"
#include "privacy/selection/private_selection.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/accounting.h"
#include "tuning/honest_selection.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

// A search with fabricated final accuracies: candidate c, repeat r -> acc(c) + 0.01 r.
SearchResults fabricated(const std::vector<double>& accuracy) {
  SearchResults res;
  res.config = testing::tiny_experiment(50, 2);
  res.candidates = experiment::expand_candidates(res.config);  // 4 dpsgd + 1 dpadam
  res.mechanism = {4.0, 250.0 / 48000.0, 2500, 1e-5};
  res.training_size = 48000;
  for (const auto& c : res.candidates) {
    for (int r = 0; r < 2; ++r) {
      JobResult job;
      job.candidate = c.index;
      job.repeat = r;
      job.status = JobStatus::kFinished;
      job.final_val_accuracy = accuracy[static_cast<std::size_t>(c.index)] + 0.01 * r;
      job.final_train_loss = 1 - job.final_val_accuracy;
      res.jobs.push_back(job);
    }
  }
  return res;
}

}  // namespace

class TestHonestSelection : public QObject {
  Q_OBJECT
 private slots:
  void best_and_epsilons() {
    const SearchResults res = fabricated({0.5, 0.8, 0.7, 0.2, 0.75});
    const auto reports = honest_selection_per_optimizer(res);
    QCOMPARE(reports.size(), std::size_t{2});
    const SelectionReport& sgd = reports[0];
    QCOMPARE(sgd.scope, std::string("dpsgd"));
    QCOMPARE(sgd.num_candidates, 4);
    QCOMPARE(sgd.best_candidate, 1);
    DPLAB_COMPARE_ABS(sgd.best_accuracy, 0.805, 1e-12);
    DPLAB_COMPARE_REL(sgd.gamma, 0.25, 1e-15);
    const privacy::SubsampledGaussian run{4.0, 250.0 / 48000.0, 2500};
    // Planning figure MA: K runs compose in RDP = one run of K*T steps, computed directly.
    const double direct =
        privacy::epsilon_for_delta({4.0, 250.0 / 48000.0, 4 * 2500}, 1e-5).epsilon;
    DPLAB_COMPARE_REL(sgd.epsilon_ma, direct, 1e-9);
    DPLAB_COMPARE_REL(sgd.epsilon_ma, privacy::moments_accountant_selection(run, 4, 1e-5).epsilon,
                      1e-12);
    DPLAB_COMPARE_REL(sgd.epsilon_lt, privacy::liu_talwar_selection(run, 0.25, 1e-5, 1e-20).epsilon,
                      1e-12);
    DPLAB_COMPARE_REL(sgd.epsilon_single_run, privacy::epsilon_for_delta(run, 1e-5).epsilon, 1e-12);
    QVERIFY(sgd.epsilon_single_run < sgd.epsilon_ma);
    // DPAdam: K = 1, MA = the single run.
    QCOMPARE(reports[1].num_candidates, 1);
    DPLAB_COMPARE_REL(reports[1].epsilon_ma, reports[1].epsilon_single_run, 1e-12);
    const SelectionReport all = honest_selection_all(res);
    QCOMPARE(all.num_candidates, 5);
    QCOMPARE(all.best_candidate, 1);
  }

  void lt_algorithm_respects_upsilon_and_is_seeded() {
    const SearchResults res = fabricated({0.5, 0.8, 0.7, 0.2, 0.75});
    const std::vector<int> pool{0, 1, 2, 3, 4};
    const double gamma = 0.01, delta2 = 0.5;  // Upsilon = ceil(ln 2 / 0.01) = 70
    int hit_limit = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
      const LtRun run = run_liu_talwar(res, pool, gamma, delta2, seed);
      QCOMPARE(run.hard_stop, std::int64_t{70});
      QVERIFY(run.draws >= 1 && run.draws <= run.hard_stop);
      QCOMPARE(static_cast<std::int64_t>(run.drawn.size()), run.draws);
      if (run.stopped_by_hard_limit) {
        ++hit_limit;
        QCOMPARE(run.draws, run.hard_stop);
      }
      // The output is the best seen.
      double best = -1;
      for (int c : run.drawn) best = std::max(best, res.job(c, 0).final_val_accuracy);
      QVERIFY(run.selected_metric >= best);
      const LtRun again = run_liu_talwar(res, pool, gamma, delta2, seed);
      QCOMPARE(again.drawn, run.drawn);
      QCOMPARE(again.selected_candidate, run.selected_candidate);
    }
    // P(no stop in 70 draws) = 0.99^70 ~ 0.49: about 100 of 200; wide margins.
    QVERIFY(hit_limit > 50 && hit_limit < 150);
    QVERIFY(run_liu_talwar(res, pool, gamma, delta2, 1).drawn !=
            run_liu_talwar(res, pool, gamma, delta2, 2).drawn);
  }

  void protocol_end_points() {
    const SearchResults res = fabricated({0.5, 0.8, 0.7, 0.2, 0.75});
    const std::vector<int> pool{0, 1, 2, 3};
    const auto rows = random_subset_protocol(res, pool, 100);
    QCOMPARE(rows.size(), std::size_t{4});
    // k = K always picks the best: mean = best score, zero-width interval.
    DPLAB_COMPARE_ABS(rows[3].mean, 0.805, 1e-12);
    DPLAB_COMPARE_ABS(rows[3].ci_high - rows[3].ci_low, 0.0, 1e-12);
    // k = 1 is a uniform pick: the mean is the average 0.555 (exact, no draws).
    DPLAB_COMPARE_ABS(rows[0].mean, 0.555, 1e-12);
    QVERIFY(rows[0].ci_low < rows[0].mean && rows[0].mean < rows[0].ci_high);
    for (std::size_t k = 1; k < rows.size(); ++k) QVERIFY(rows[k].mean >= rows[k - 1].mean);
  }

  void unfinished_jobs_do_not_count() {
    SearchResults res = fabricated({0.5, 0.8, 0.7, 0.2, 0.75});
    res.jobs[2].status = JobStatus::kCancelled;  // candidate 1, repeat 0
    res.jobs[3].status = JobStatus::kPending;    // candidate 1, repeat 1
    const auto scores = score_candidates(res, {0, 1, 2, 3});
    QCOMPARE(scores.size(), std::size_t{3});
    const SelectionReport r = honest_selection(res, {0, 1, 2, 3}, "dpsgd");
    QCOMPARE(r.best_candidate, 2);
    QCOMPARE(r.num_candidates, 4);  // the pool size of the planning figures
  }

  void default_delta() {
    QCOMPARE(default_delta_for(48000), 1e-5);
    QCOMPARE(default_delta_for(5000), 1e-4);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestHonestSelection)
#include "test_honest_selection.moc"
